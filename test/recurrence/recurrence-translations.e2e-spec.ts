import type { RoleUsers } from '../helpers/auth.js';
import { useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';
const PROVISIONAL = 10_000_000;
const WINDOW = 'start_date=2033-05-01&end_date=2033-05-31';
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;

/**
 * Translations of a series are series (CONTRACT §9): a translation created of a recurring event
 * takes its rules, and has occurrences of its own, listed, included and read by their
 * provisional ids in its language.
 */
describe('recurring events: translations are series (e2e)', () => {
  const { http, users } = useTestApp();
  const create = async (prefix: string, body: object) =>
    (
      await http()
        .post(`${prefix}${BASE}/events`)
        .set('Authorization', users.editor.header)
        .send({
          status: 'publish',
          start_date: '2033-05-03 19:00:00',
          end_date: '2033-05-03 21:00:00',
          timezone: 'Europe/Budapest',
          ...body,
        })
        .expect(201)
    ).body as Tec;
  const list = async (prefix: string, query: string) =>
    (await http().get(`${prefix}${BASE}/events?${query}`).expect(200)).body.events as Tec[];

  it('gives a translation the series of its event, with occurrences of its own', async () => {
    const recurrence = { rules: ['FREQ=WEEKLY;COUNT=4'], exdates: ['2033-05-17'] };
    const en = await create('', { title: 'Choir evening', recurrence });
    const hu = await create('/hu', { title: 'Kóruses', translation_of: en.id });
    expect(hu.language).toBe('hu');
    expect(hu.translations).toEqual({ en: en.id, hu: hu.id });
    expect(hu.recurrence).toMatchObject({
      rules: ['FREQ=WEEKLY;COUNT=4'],
      exdates: ['2033-05-17'],
      rdates: [],
    });
    expect(hu.recurrence.description).toMatch(/hét/);

    // Each language lists its own occurrences, by their own provisional ids.
    const enItems = await list('', `${WINDOW}&search=Choir`);
    const huItems = await list('/hu', `${WINDOW}&search=K%C3%B3ruses`);
    const starts = ['2033-05-03 19:00:00', '2033-05-10 19:00:00', '2033-05-24 19:00:00'];
    expect(enItems.map((e) => e.start_date)).toEqual(starts);
    expect(huItems.map((e) => e.start_date)).toEqual(starts);
    expect(huItems.every((e) => e.id > PROVISIONAL && e.title === 'Kóruses')).toBe(true);
    expect(huItems.map((e) => e.id).some((id) => enItems.some((e) => e.id === id))).toBe(false);
    expect(hu.url).toMatch(/\/2033-05-03\/$/);
    expect(huItems[1].url).toBe(hu.url.replace('2033-05-03', '2033-05-10'));

    // `include` with the translation's real id matches its occurrences; a provisional id one.
    expect((await list('/hu', `${WINDOW}&include=${hu.id}`)).map((e) => e.id)).toEqual(
      huItems.map((e) => e.id),
    );
    expect((await list('/hu', `${WINDOW}&include=${huItems[2].id}`)).map((e) => e.id)).toEqual([
      huItems[2].id,
    ]);

    // An occurrence of the translation, read by its provisional id, in its language.
    const one = (await http().get(`/hu${BASE}/events/${huItems[2].id}`).expect(200)).body as Tec;
    expect(one).toMatchObject({
      id: huItems[2].id,
      language: 'hu',
      title: 'Kóruses',
      start_date: '2033-05-24 19:00:00',
      translations: { en: en.id, hu: hu.id },
    });
  });

  it('keeps a translation single when it says so, and its own rules when it gives them', async () => {
    const en = await create('', {
      title: 'Weekly talk',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
    });
    const hu = await create('/hu', {
      title: 'Heti előadás',
      translation_of: en.id,
      recurrence: {},
    });
    expect(hu.recurrence).toBeNull();
    const ro = await create('/ro', {
      title: 'Discuție',
      translation_of: en.id,
      recurrence: { rules: ['FREQ=DAILY;COUNT=2'] },
    });
    expect(ro.recurrence.rules).toEqual(['FREQ=DAILY;COUNT=2']);
    expect(await list('/ro', `${WINDOW}&search=Discu%C8%9Bie`)).toHaveLength(2);
  });

  it('carries an edit of the series to the translations that had it, not to those with their own', async () => {
    const en = await create('', {
      title: 'Sunset run',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] },
    });
    const hu = await create('/hu', { title: 'Esti futás', translation_of: en.id });
    const ro = await create('/ro', {
      title: 'Alergare',
      translation_of: en.id,
      recurrence: { rules: ['FREQ=DAILY;COUNT=2'] },
    });
    const update = (id: number, body: object, who: keyof RoleUsers = 'editor') =>
      http().post(`${BASE}/events/${id}`).set('Authorization', users[who].header).send(body);
    await update(en.id, { recurrence: { rules: ['FREQ=WEEKLY;COUNT=2'] } }).expect(200);
    const huItems = await list('/hu', `${WINDOW}&search=Esti`);
    expect(huItems.map((e) => e.start_date)).toEqual([
      '2033-05-03 19:00:00',
      '2033-05-10 19:00:00',
    ]);
    expect(huItems[0].recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=2']);
    // The Romanian series was its own: it stays.
    expect(await list('/ro', `${WINDOW}&search=Alergare`)).toHaveLength(2);
    const roRead = (await http().get(`/ro${BASE}/events/${ro.id}`).expect(200)).body as Tec;
    expect(roRead.recurrence.rules).toEqual(['FREQ=DAILY;COUNT=2']);
    // Removing the series from one member removes it from those that shared it.
    await update(hu.id, { recurrence: {} }).expect(200);
    expect(await list('', `${WINDOW}&search=Sunset`)).toHaveLength(1);
    expect((await http().get(`${BASE}/events/${en.id}`).expect(200)).body.recurrence).toBeNull();
  });
});
