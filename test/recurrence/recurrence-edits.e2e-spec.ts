import { DataSource } from 'typeorm';
import type { RoleUsers } from '../helpers/auth.js';
import { useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';
const PROVISIONAL = 10_000_000;

type Item = { id: number; title: string; start_date: string; end_date: string; url: string };

/**
 * Edits of one occurrence (CONTRACT §9): `_tec_update_type` all, single and upcoming,
 * cancelling an occurrence alone, and the real id's first occurrence; on SQLite and MariaDB.
 */
describe('recurring events: editing and cancelling occurrences (e2e)', () => {
  const { app, http, users } = useTestApp();
  const as = (who: keyof RoleUsers | null, method: 'post' | 'delete', path: string) => {
    const req = http()[method](path);
    return who ? req.set('Authorization', users[who].header) : req;
  };
  const create = async (title: string, start: string, recurrence: object, extra = {}) => {
    const res = await as('editor', 'post', `${BASE}/events`)
      .send({
        title,
        start_date: start,
        end_date: start.replace(/ \d\d:/, (h) => ` ${String(Number(h.slice(1, 3)) + 2)}:`),
        timezone: 'Europe/Budapest',
        status: 'publish',
        recurrence,
        ...extra,
      })
      .expect(201);
    return res.body as { id: number; slug: string };
  };
  /** The list's items of `search` in its date window, by start. */
  const listed = async (search: string, from: string, to: string): Promise<Item[]> => {
    const res = await http()
      .get(`${BASE}/events`)
      .query({ search, start_date: from, end_date: to, per_page: 50 })
      .expect(200);
    return res.body.events;
  };
  const link = async (id: number) =>
    (
      await app()
        .get(DataSource)
        .query('SELECT series_id, series_start FROM events WHERE id = ?', [id])
    )[0] as { series_id: number | null; series_start: string | null };

  it('single: the occurrence becomes an event of its own, linked to its series', async () => {
    const series = await create(
      'Pottery single',
      '2031-05-06 19:00:00',
      { rules: ['FREQ=WEEKLY;COUNT=4'] },
      { categories: ['Pottery'] },
    );
    const before = await listed('Pottery single', '2031-05-01', '2031-05-31');
    expect(before.map((e) => e.start_date.slice(0, 10))).toEqual([
      '2031-05-06',
      '2031-05-13',
      '2031-05-20',
      '2031-05-27',
    ]);
    const second = before[1];
    const res = await as('editor', 'post', `${BASE}/events/${second.id}`)
      .send({
        _tec_update_type: 'single',
        title: 'Pottery single, moved',
        start_date: '2031-05-14 18:00:00',
        end_date: '2031-05-14 20:00:00',
      })
      .expect(200);
    expect(res.body.id).toBeLessThan(PROVISIONAL);
    expect(res.body).toMatchObject({
      title: 'Pottery single, moved',
      start_date: '2031-05-14 18:00:00',
      status: 'publish',
      recurrence: null,
      categories: [expect.objectContaining({ name: 'Pottery' })],
    });
    expect(await link(res.body.id)).toEqual({
      series_id: series.id,
      series_start: '2031-05-13 19:00:00',
    });
    const after = await listed('Pottery single', '2031-05-01', '2031-05-31');
    expect(after.map((e) => [e.start_date, e.title])).toEqual([
      ['2031-05-06 19:00:00', 'Pottery single'],
      ['2031-05-14 18:00:00', 'Pottery single, moved'],
      ['2031-05-20 19:00:00', 'Pottery single'],
      ['2031-05-27 19:00:00', 'Pottery single'],
    ]);
    // The series keeps its other occurrences (their ids) and gains the exclusion.
    expect([after[0].id, after[2].id, after[3].id]).toEqual([
      before[0].id,
      before[2].id,
      before[3].id,
    ]);
    const again = await http().get(`${BASE}/events/${series.id}`).expect(200);
    expect(again.body.recurrence.exdates).toEqual(['2031-05-13 19:00:00']);
    await http().get(`${BASE}/events/${second.id}`).expect(404);
  });

  it('upcoming: the series ends before the occurrence, a new series carries it and the rest', async () => {
    const series = await create('Choir upcoming', '2031-06-03 19:00:00', {
      rules: ['FREQ=WEEKLY;COUNT=6'],
    });
    const before = await listed('Choir upcoming', '2031-06-01', '2031-07-31');
    const third = before[2];
    const res = await as('editor', 'post', `${BASE}/events/${third.id}`)
      .send({ _tec_update_type: 'upcoming', title: 'Choir upcoming, new term' })
      .expect(200);
    expect(res.body.id).toBeLessThan(PROVISIONAL);
    expect(res.body).toMatchObject({
      start_date: '2031-06-17 19:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'], exdates: [], rdates: [] },
    });
    expect(await link(res.body.id)).toEqual({
      series_id: series.id,
      series_start: '2031-06-17 19:00:00',
    });
    const head = await http().get(`${BASE}/events/${series.id}`).expect(200);
    expect(head.body.recurrence.rules).toEqual(['FREQ=WEEKLY;UNTIL=20310617T185959']);
    const after = await listed('Choir upcoming', '2031-06-01', '2031-07-31');
    expect(after.map((e) => e.start_date)).toEqual(before.map((e) => e.start_date));
    expect(after.map((e) => e.title)).toEqual([
      ...Array(2).fill('Choir upcoming'),
      ...Array(4).fill('Choir upcoming, new term'),
    ]);
  });

  it.each([
    [
      'two rules out of phase, an added date',
      {
        rules: [
          'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=5',
          'FREQ=WEEKLY;INTERVAL=3;BYDAY=FR;COUNT=4',
        ],
        rdates: ['2031-09-24 19:00'],
        exdates: ['2031-10-14'],
      },
      4,
    ],
    ['a monthly rule with UNTIL', { rules: ['FREQ=MONTHLY;BYDAY=2TU;UNTIL=20320301'] }, 3],
  ])('upcoming keeps every date of the series (%s)', async (_name, recurrence, at) => {
    const title = `Split ${_name}`;
    await create(title, '2031-09-09 19:00:00', recurrence);
    const before = await listed(title, '2031-09-01', '2032-12-31');
    await as('editor', 'post', `${BASE}/events/${before[at].id}`)
      .send({ _tec_update_type: 'upcoming', title: `${title} (later)` })
      .expect(200);
    const after = await listed(title, '2031-09-01', '2032-12-31');
    expect(after.map((e) => e.start_date)).toEqual(before.map((e) => e.start_date));
    expect(after.slice(at).every((e) => e.title === `${title} (later)`)).toBe(true);
    expect(after.slice(0, at).every((e) => e.title === title)).toBe(true);
  });

  it('upcoming from the first occurrence, and all, update the series itself', async () => {
    const series = await create('Whole series', '2031-08-05 19:00:00', {
      rules: ['FREQ=WEEKLY;COUNT=3'],
    });
    const items = await listed('Whole series', '2031-08-01', '2031-08-31');
    const first = await as('editor', 'post', `${BASE}/events/${items[0].id}`)
      .send({ _tec_update_type: 'upcoming', excerpt: 'From the start' })
      .expect(200);
    expect(first.body.id).toBe(series.id);
    const all = await as('editor', 'post', `${BASE}/events/${items[2].id}`)
      .send({ title: 'Whole series, renamed' })
      .expect(200);
    expect(all.body.id).toBe(series.id);
    const after = await listed('Whole series', '2031-08-01', '2031-08-31');
    expect(after.map((e) => [e.id, e.title])).toEqual(
      items.map((e) => [e.id, 'Whole series, renamed']),
    );
  });

  it('refuses bad update types with a localized 400, before the permission check', async () => {
    const series = await create('Refusals', '2031-10-07 19:00:00', {
      rules: ['FREQ=WEEKLY;COUNT=3'],
    });
    const [, second] = await listed('Refusals', '2031-10-01', '2031-10-31');
    const bad = await as(null, 'post', `/hu${BASE}/events/${second.id}`)
      .send({ _tec_update_type: 'some' })
      .expect(400);
    expect(bad.body.data.params._tec_update_type).toBe(
      'A `_tec_update_type` értéke nem all, single vagy upcoming.',
    );
    const real = await as(null, 'post', `${BASE}/events/${series.id}`)
      .send({ _tec_update_type: 'single' })
      .expect(400);
    expect(real.body.data.params._tec_update_type).toBe(
      '`_tec_update_type` single applies only to an occurrence of a recurring event (its provisional ID).',
    );
    const ro = await as('editor', 'post', `/ro${BASE}/events/${second.id}`)
      .send({ _tec_update_type: 'single', recurrence: { rules: ['FREQ=DAILY;COUNT=2'] } })
      .expect(400);
    expect(ro.body.data.params.recurrence).toBe(
      '`_tec_update_type` single face din apariție un eveniment separat, care nu se poate repeta; trimite recurrence cu all sau upcoming.',
    );
    await as(null, 'post', `${BASE}/events/${second.id}`)
      .send({ _tec_update_type: 'single', title: 'x' })
      .expect(401);
    await as('contributor', 'post', `${BASE}/events/${second.id}`)
      .send({ _tec_update_type: 'single', title: 'x' })
      .expect(403);
    await as('editor', 'post', `${BASE}/events/${PROVISIONAL + 987_654}`)
      .send({ _tec_update_type: 'single', title: 'x' })
      .expect(404);
    // Nothing was written.
    const after = await listed('Refusals', '2031-10-01', '2031-10-31');
    expect(after.map((e) => e.title)).toEqual(['Refusals', 'Refusals', 'Refusals']);
  });

  it('cancels one occurrence alone with DELETE on its provisional id', async () => {
    const series = await create('Cancel one', '2031-11-04 19:00:00', {
      rules: ['FREQ=WEEKLY;COUNT=3'],
    });
    const items = await listed('Cancel one', '2031-11-01', '2031-11-30');
    await as(null, 'delete', `${BASE}/events/${items[1].id}`).expect(401);
    await as('contributor', 'delete', `${BASE}/events/${items[1].id}`).expect(403);
    const res = await as('editor', 'delete', `${BASE}/events/${items[1].id}`).expect(200);
    expect(res.body).toMatchObject({
      id: series.id,
      status: 'publish',
      recurrence: { exdates: ['2031-11-11 19:00:00'] },
    });
    await http().get(`${BASE}/events/${items[1].id}`).expect(404);
    await as('editor', 'delete', `${BASE}/events/${items[1].id}`).expect(404);
    const after = await listed('Cancel one', '2031-11-01', '2031-11-30');
    expect(after.map((e) => e.id)).toEqual([items[0].id, items[2].id]);
    await as('editor', 'delete', `${BASE}/events/${items[0].id}`).expect(200);
    const last = await as('editor', 'delete', `/hu${BASE}/events/${items[2].id}`).expect(400);
    expect(last.body.data.params.id).toBe(
      'Ez a sorozat utolsó megmaradt alkalma; az alkalom lemondása helyett töröld az eseményt.',
    );
    await as('editor', 'delete', `${BASE}/events/${series.id}`).expect(200);
    await as('editor', 'delete', `${BASE}/events/${items[2].id}`).expect(410);
  });

  it('reads the real id of a series with its first occurrence dates and dated url', async () => {
    const series = await create('First dates', '2031-12-02 19:00:00', {
      rules: ['FREQ=WEEKLY;COUNT=3'],
      exdates: ['2031-12-02'],
    });
    const res = await http().get(`${BASE}/events/${series.id}`).expect(200);
    expect(res.body).toMatchObject({
      id: series.id,
      rest_url: `http://cal.test${BASE}/events/${series.id}`,
      start_date: '2031-12-09 19:00:00',
      end_date: '2031-12-09 21:00:00',
      utc_start_date: '2031-12-09 18:00:00',
      url: `http://cal.test/event/${series.slug}/2031-12-09/`,
      json_ld: { startDate: '2031-12-09T19:00:00+01:00' },
    });
    const bySlug = await http().get(`${BASE}/events/by-slug/${series.slug}`).expect(200);
    expect(bySlug.body.start_date).toBe('2031-12-09 19:00:00');
  });
});
