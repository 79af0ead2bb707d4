import type { RoleUsers } from '../helpers/auth.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';

type Item = { id: number; title: string; start_date: string; occurrences_remaining?: number };

/** Lists of recurring events (CONTRACT §9): `series=once`; on SQLite and MariaDB. */
describe('recurring events in lists (e2e)', () => {
  const { app, http, users } = useTestApp();
  const create = (body: Record<string, unknown>) =>
    postEvent(http, users.editor.header, {
      timezone: 'Europe/Budapest',
      status: 'publish',
      ...body,
    }).expect(201);
  const list = (query: string, prefix = BASE, who?: keyof RoleUsers) => {
    const req = http().get(`${prefix}/events?${query}`);
    return (who ? req.set('Authorization', users[who].header) : req).expect(200);
  };
  const WINDOW = 'start_date=2033-02-02&end_date=2033-03-31';

  beforeAll(async () => {
    // Weekly on Tuesdays from January (four in the window), daily for three days in March, and
    // two single events.
    await create({
      title: 'Weekly once',
      start_date: '2033-01-04 19:00:00',
      end_date: '2033-01-04 21:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;UNTIL=20330301'] },
    });
    await create({
      title: 'Daily once',
      start_date: '2033-03-10 09:00:00',
      end_date: '2033-03-10 10:00:00',
      recurrence: { rules: ['FREQ=DAILY;COUNT=3'] },
    });
    for (const day of ['2033-02-05', '2033-03-20']) {
      await create({
        title: `Single once ${day}`,
        start_date: `${day} 12:00:00`,
        end_date: `${day} 13:00:00`,
      });
    }
  });

  it('lists each series once at its first occurrence in the window, with the count of the rest', async () => {
    const all = await list(WINDOW);
    expect(all.body.total).toBe(9);
    const res = await list(`${WINDOW}&series=once`);
    const events = res.body.events as Item[];
    expect(events.map((e) => [e.title, e.start_date, e.occurrences_remaining])).toEqual([
      ['Single once 2033-02-05', '2033-02-05 12:00:00', 0],
      ['Weekly once', '2033-02-08 19:00:00', 3],
      ['Daily once', '2033-03-10 09:00:00', 2],
      ['Single once 2033-03-20', '2033-03-20 12:00:00', 0],
    ]);
    expect(res.body.total).toBe(4);
    expect(res.headers['x-tec-total']).toBe('4');
    // The shown occurrence is the one of the default list (same provisional id).
    const weekly = (all.body.events as Item[]).find((e) => e.start_date === '2033-02-08 19:00:00');
    expect(events[1].id).toBe(weekly!.id);
    // Paging links keep the parameter; the default list has no count.
    expect(res.body.rest_url).toContain('series=once');
    expect(all.body.events[0]).not.toHaveProperty('occurrences_remaining');
    // Narrower dates: the first occurrence and the rest follow them.
    const later = await list('start_date=2033-02-20&end_date=2033-03-11&series=once');
    expect(
      (later.body.events as Item[]).map((e) => [e.title, e.start_date, e.occurrences_remaining]),
    ).toEqual([
      ['Weekly once', '2033-02-22 19:00:00', 1],
      ['Daily once', '2033-03-10 09:00:00', 1],
    ]);
  });

  it('pages through series shown once; the plugin namespace gets the items without the count', async () => {
    const whole = (await list(`${WINDOW}&series=once`)).body.events.map((e: Item) => e.id);
    const paged: number[] = [];
    for (let page = 1; page <= 2; page++) {
      const res = await list(`${WINDOW}&series=once&per_page=2&page=${page}`);
      expect(res.body.total_pages).toBe(2);
      paged.push(...res.body.events.map((e: Item) => e.id));
    }
    expect(paged).toEqual(whole);
    const tribe = await list(`${WINDOW}&series=once`, '/wp-json/tribe/events/v1');
    expect(tribe.body.events.map((e: Item) => e.id)).toEqual(whole);
    expect(tribe.body.events[1]).not.toHaveProperty('occurrences_remaining');
  });

  it("lists occurrences by their event's status, visibility, language and author as they change", async () => {
    const window = 'start_date=2034-05-01&end_date=2034-05-31';
    const titles = async (query: string, prefix = BASE, who?: keyof RoleUsers) =>
      ((await list(`${window}&${query}`, prefix, who)).body.events as Item[]).map((e) => e.title);
    const draft = await postEvent(http, users.author.header, {
      title: 'Moving series',
      status: 'draft',
      timezone: 'Europe/Budapest',
      start_date: '2034-05-02 18:00:00',
      end_date: '2034-05-02 19:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
    }).expect(201);
    const id = draft.body.id as number;
    const update = (body: Record<string, unknown>) =>
      http()
        .post(`${BASE}/events/${id}`)
        .set('Authorization', users.editor.header)
        .send(body)
        .expect(200);
    const three = ['Moving series', 'Moving series', 'Moving series'];
    expect(await titles('per_page=10')).toEqual([]);
    // The author's own drafts, not another author's.
    expect(await titles('status=draft', BASE, 'author')).toEqual(three);
    expect(await titles('status=draft', BASE, 'contributor')).toEqual([]);
    await update({ status: 'publish' });
    expect(await titles('per_page=10')).toEqual(three);
    await update({ hide_from_listings: true });
    expect(await titles('per_page=10')).toEqual([]);
    await update({ hide_from_listings: false, language: 'hu' });
    expect(await titles('per_page=10')).toEqual([]);
    expect(await titles('per_page=10', `/hu${BASE}`)).toEqual(three);
    await update({ status: 'private' });
    expect(await titles('per_page=10', `/hu${BASE}`)).toEqual([]);
    expect(await titles('status=private', `/hu${BASE}`, 'editor')).toEqual(three);
    await update({ status: 'publish' });
    await http()
      .delete(`${BASE}/events/${id}`)
      .set('Authorization', users.editor.header)
      .expect(200);
    expect(await titles('per_page=10', `/hu${BASE}`)).toEqual([]);
    expect(await titles('status=trash', `/hu${BASE}`, 'editor')).toEqual(three);
  });

  it('refuses another value with a localized 400', async () => {
    const res = await http().get(`/ro${BASE}/events?series=first`).expect(400);
    expect(res.body.data.params.series).toBe('`series` nu este unul dintre all, once.');
  });

  it('costs the same number of queries per page as the default list', async () => {
    const count = (query: string) =>
      countQueries(app(), async () => {
        await coldCaches(app());
        await list(`${WINDOW}&${query}`, BASE, 'editor');
      });
    const plain = await count('per_page=2');
    expect(plain).toBeGreaterThan(0);
    for (const query of ['series=once&per_page=2', 'series=once&per_page=1&page=3']) {
      expect([query, await count(query)]).toEqual([query, plain]);
    }
  });
});
