import { coldCaches, countQueries } from '../helpers/query-counter.js';
import { until } from '../helpers/until.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';

const API = '/cal/events/v1';

/**
 * Page anchors: a page whose start another request found seeks to it through the
 * index. Whatever the path (in order, backwards, jumping, after a write), every page holds
 * exactly what the offset gives, ties on the start date included.
 */
describe('list pages that seek to a remembered start (e2e)', () => {
  const { app, http, users } = useTestApp({ env: { RESPONSE_CACHE_TTL_MS: '0' } });
  const window = 'start_date=2096-01-01&end_date=2096-12-31';

  beforeAll(async () => {
    // 14 events, several starting at the same minute (ties broken by date, then id).
    for (let i = 0; i < 14; i++) {
      const day = String(1 + Math.floor(i / 3)).padStart(2, '0');
      await postEvent(http, users.editor.header, {
        title: `Anchor ${i}`,
        start_date: `2096-03-${day} 10:00:00`,
        end_date: `2096-03-${day} 11:00:00`,
        venue: { venue: 'Anchor hall', city: 'Eger' },
      }).expect(201);
    }
    await http()
      .post(`${API}/venues`)
      .set('Authorization', users.editor.header)
      .send({ venue: 'Second anchor hall' })
      .expect(201);
  });

  const ids = async (path: string) =>
    (await http().get(path).expect(200)).body as Record<string, Array<{ id: number }>>;

  async function cold(path: string, key: string) {
    await coldCaches(app());
    return (await ids(path))[key].map((e) => e.id);
  }
  async function warm(path: string, key: string) {
    return (await ids(path))[key].map((e) => e.id);
  }

  it('gives every page of events what the offset gives, in order, backwards and jumping', async () => {
    const page = (n: number) => `${API}/events?${window}&per_page=3&page=${n}`;
    const expected: number[][] = [];
    for (let n = 1; n <= 5; n++) expected.push(await cold(page(n), 'events'));
    expect(expected.flat()).toHaveLength(14);
    expect(new Set(expected.flat()).size).toBe(14);
    await coldCaches(app());
    for (const n of [1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 4, 2, 5, 3, 3]) {
      expect([n, await warm(page(n), 'events')]).toEqual([n, expected[n - 1]]);
    }
  });

  it('forgets where pages start when a write moves them', async () => {
    const page = (n: number) => `${API}/events?${window}&per_page=3&page=${n}`;
    for (const n of [1, 2, 3]) await warm(page(n), 'events');
    const first = (await warm(page(1), 'events'))[0];
    await http()
      .post(`${API}/events/${first}`)
      .set('Authorization', users.editor.header)
      .send({ start_date: '2096-12-01 10:00:00', end_date: '2096-12-01 11:00:00' })
      .expect(200);
    const after = [];
    for (const n of [1, 2, 3, 4, 5]) after.push(await warm(page(n), 'events'));
    const coldAfter = [];
    for (const n of [1, 2, 3, 4, 5]) coldAfter.push(await cold(page(n), 'events'));
    expect(after).toEqual(coldAfter);
    expect(after[4]).toContain(first);
  });

  it('answers from a start that just expired while one request finds it again behind it', async () => {
    const page = (n: number) => `${API}/events?${window}&per_page=3&page=${n}`;
    const expected = await cold(page(4), 'events');
    // The start of page 4 is a second old: expired, still within its second of grace.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const statements: string[] = [];
    let answered: number[] = [];
    await countQueries(
      app(),
      async () => {
        answered = await warm(page(4), 'events');
        // The look-up behind the answer, however long the machine takes to run it.
        await until(
          () => statements.some((sql) => /\bOFFSET\b/i.test(sql)),
          10_000,
          'the look-up of the expired start',
        );
      },
      statements,
    );
    expect(answered).toEqual(expected);
    const skipping = statements.filter((sql) => /\bOFFSET\b/i.test(sql));
    expect(skipping).toHaveLength(1);
    expect(skipping[0]).toMatch(/\bLIMIT 1\b/);
    // The start found again serves the next request: nothing is skipped.
    const next: string[] = [];
    await countQueries(app(), () => warm(page(4), 'events'), next);
    expect(next.filter((sql) => /\bOFFSET\b/i.test(sql))).toEqual([]);
    expect(await warm(page(4), 'events')).toEqual(expected);
  });

  it('gives every page of venues what the offset gives (newest first)', async () => {
    const page = (n: number) => `${API}/venues?per_page=1&page=${n}`;
    const expected = [await cold(page(1), 'venues'), await cold(page(2), 'venues')];
    await coldCaches(app());
    for (const n of [1, 2, 2, 1, 2]) {
      expect([n, await warm(page(n), 'venues')]).toEqual([n, expected[n - 1]]);
    }
  });
});
