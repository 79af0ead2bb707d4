import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { basic } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { cli } from '../helpers/programs.js';
import { databaseWithImporter, importedEvents, IMPORTER } from '../helpers/importer.js';

/**
 * `import:tec` from a site of the plugin's Pro add-on (BEHAVIOR §15, CONTRACT §9): its list shows
 * one item per occurrence, each with a provisional id (10,000,000 and above) and a dated url; the
 * occurrences of one event come back here as one series, across pages, idempotent. A local fake
 * source answers as such a site does.
 */
const BASE = '/cal/events/v1';
const SOURCE_BASE = 10_000_000;

type Json = Record<string, unknown>;

/** One item of a Pro list: the event's fields with the occurrence's dates, id and url. */
function occurrence(
  origin: string,
  slug: string,
  id: number,
  start: string,
  end: string,
  extra: Json = {},
): Json {
  const day = start.slice(0, 10);
  return {
    id,
    status: 'publish',
    title: slug === 'yoga' ? 'Morning yoga' : slug === 'market' ? 'Farmers market' : 'Book club',
    description: '<p>Bring a mat.</p>',
    slug,
    url: `${origin}/event/${slug}/${day}/${typeof extra.nth === 'number' ? `${extra.nth}/` : ''}`,
    all_day: slug === 'market',
    start_date: start,
    end_date: end,
    timezone: 'Europe/Budapest',
    modified_utc: '2026-10-01 10:00:00',
    date_utc: '2026-09-01 10:00:00',
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'nth')),
  };
}

describe('import:tec of a Pro site: occurrences back as one series', () => {
  let server: Server;
  let origin = '';
  let url = '';
  let events: Json[] = [];
  const importer = () =>
    cli(['import:tec', origin, '--author', IMPORTER.login], { DATABASE_URL: url });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const address = new URL(req.url ?? '/', origin);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const root = '/wp-json/tribe/events/v1';
      if (address.pathname === '/wp-json/') {
        return json(200, { name: 'Pro site', namespaces: ['tribe/events/v1'] });
      }
      if (address.pathname === root || address.pathname === `${root}/`) {
        return json(200, { namespace: 'tribe/events/v1', routes: {} });
      }
      const collection = address.pathname.slice(root.length + 1);
      if (collection === 'events') {
        const page = Number(address.searchParams.get('page') ?? '1');
        const perPage = Number(address.searchParams.get('per_page') ?? '10');
        const all = events;
        return json(200, {
          events: all.slice((page - 1) * perPage, page * perPage),
          total: all.length,
          total_pages: Math.ceil(all.length / perPage),
        });
      }
      if (['categories', 'tags', 'venues', 'organizers'].includes(collection)) {
        return json(200, { [collection]: [], total: 0, total_pages: 0 });
      }
      return json(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    // Yoga: every Tuesday for 60 weeks, across the DST changes and past one page of 50, with
    // two on one day (a second one at 18:00). A market: all-day, monthly. A single book club.
    const yoga: Json[] = [];
    for (let week = 0; week < 60; week++) {
      const day = new Date(Date.UTC(2027, 0, 5 + 7 * week)).toISOString().slice(0, 10);
      yoga.push(
        occurrence(origin, 'yoga', SOURCE_BASE + 100 + week, `${day} 07:00:00`, `${day} 08:00:00`),
      );
    }
    yoga.push(
      occurrence(origin, 'yoga', SOURCE_BASE + 99, '2027-01-12 18:00:00', '2027-01-12 19:00:00', {
        nth: 2,
      }),
    );
    const market = [1, 2, 3, 4].map((m) =>
      occurrence(
        origin,
        'market',
        SOURCE_BASE + 300 + m,
        `2027-0${m}-05 00:00:00`,
        `2027-0${m}-05 23:59:59`,
      ),
    );
    const club = occurrence(origin, 'club', 7, '2027-02-10 18:00:00', '2027-02-10 20:00:00');
    club.url = `${origin}/event/club/`;
    events = [...yoga, ...market, club].sort((a, b) =>
      String(a.start_date).localeCompare(String(b.start_date)),
    );

    url = await databaseWithImporter();
  }, 120_000);
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('writes each event once, its occurrences at the same dates, and changes nothing when run again', async () => {
    const first = await importer();
    expect(first.stderr).not.toMatch(/error/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Total: 3 created, 0 updated, 0 unchanged, 0 skipped/m);
    const again = await importer();
    expect(again.stdout).toMatch(/^Total: 0 created, 0 updated, 3 unchanged, 0 skipped/m);

    const app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    try {
      const auth = basic(IMPORTER.login, IMPORTER.password);
      const list: Json[] = [];
      for (let page = 1; page < 10; page++) {
        const res = await request(app.getHttpServer())
          .get(`${BASE}/events?start_date=2000-01-01&end_date=2100-01-01&per_page=50&page=${page}`)
          .set('Authorization', auth);
        if (res.status !== 200) break;
        list.push(...(res.body.events as Json[]));
      }
      // The same occurrences at the same local times, under provisional ids and dated urls.
      expect(list.map((e) => [e.title, e.start_date, e.end_date])).toEqual(
        events.map((e) => [e.title, e.start_date, e.end_date]),
      );
      const yoga = list.filter((e) => e.title === 'Morning yoga');
      expect(yoga.every((e) => (e.id as number) > SOURCE_BASE)).toBe(true);
      expect(yoga.filter((e) => String(e.url).endsWith('/event/yoga/2027-01-12/2/'))).toHaveLength(
        1,
      );
      // One series each: every occurrence of an event shows the same recurrence.
      expect(new Set(yoga.map((e) => JSON.stringify(e.recurrence))).size).toBe(1);
      expect((yoga[0].recurrence as Json).rdates).toHaveLength(60);
      const market = list.filter((e) => e.title === 'Farmers market');
      expect(market.every((e) => e.all_day === true)).toBe(true);
      expect((market[0].recurrence as Json).rdates).toEqual([
        '2027-02-05',
        '2027-03-05',
        '2027-04-05',
      ]);
      expect(list.find((e) => e.title === 'Book club')).toMatchObject({ recurrence: null });
    } finally {
      await closeApp(app);
    }
  }, 180_000);

  it('keeps the rules the source shows when they give back its occurrences, and updates the same series', async () => {
    // The same events as this service's cal/events/v1 shows them: with their rules.
    for (const e of events) {
      if (e.title === 'Farmers market') {
        e.recurrence = { rules: ['FREQ=MONTHLY;COUNT=4'], exdates: [], rdates: [] };
      }
      // Wrong rules are not believed: the dates are.
      if (e.title === 'Morning yoga') {
        e.recurrence = { rules: ['FREQ=DAILY;COUNT=3'], exdates: [], rdates: [] };
      }
    }
    const result = await importer();
    // The market's rule gives back its dates: the series now keeps it (an update, not a new one).
    expect(result.stdout).toMatch(/^Total: 0 created, 1 updated, 2 unchanged, 0 skipped/m);
    const app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    try {
      const auth = basic(IMPORTER.login, IMPORTER.password);
      const list = async (search: string) =>
        (
          await request(app.getHttpServer())
            .get(
              `${BASE}/events?start_date=2000-01-01&end_date=2100-01-01&per_page=50&search=${search}`,
            )
            .set('Authorization', auth)
            .expect(200)
        ).body.events as Json[];
      const market = await list('market');
      expect(market.map((e) => e.start_date)).toEqual([
        '2027-01-05 00:00:00',
        '2027-02-05 00:00:00',
        '2027-03-05 00:00:00',
        '2027-04-05 00:00:00',
      ]);
      expect(market[0].recurrence).toMatchObject({ rules: ['FREQ=MONTHLY;COUNT=4'], rdates: [] });
      // A rule that does not give back the listed dates is not believed: the dates are kept.
      const yoga = await list('yoga');
      expect((yoga[0].recurrence as Json).rules).toEqual([]);
      expect((yoga[0].recurrence as Json).rdates).toHaveLength(60);
    } finally {
      await closeApp(app);
    }
  }, 180_000);

  it('replaces the events an earlier import made of a series, one per occurrence, with the series', async () => {
    // Three occurrences whose urls are not dated: imported as events of their own, each under
    // its provisional id, as the importer did before it knew series.
    const chess = ['2027-05-03', '2027-05-10', '2027-05-17'].map((day, i) => {
      const item = occurrence(
        origin,
        'chess',
        SOURCE_BASE + 500 + i,
        `${day} 17:00:00`,
        `${day} 19:00:00`,
        {
          title: 'Chess evening',
        },
      );
      item.url = `${origin}/event/chess-${i}/`;
      return item;
    });
    events.push(...chess);
    const before = await importer();
    expect(before.stdout).toMatch(/^Total: 3 created, 0 updated, 3 unchanged, 0 skipped/m);
    // The same occurrences as a Pro site shows them: one series.
    chess.forEach((item) => {
      item.url = `${origin}/event/chess/${String(item.start_date).slice(0, 10)}/`;
    });
    const after = await importer();
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/^Total: 1 created, 0 updated, 3 unchanged, 0 skipped/m);
    expect(after.stdout).toContain('3 events imported earlier as occurrences of series');
    const again = await importer();
    expect(again.stdout).toMatch(/^Total: 0 created, 0 updated, 4 unchanged, 0 skipped/m);
    expect(again.stdout).not.toContain('imported earlier');
    const listed = await importedEvents(
      url,
      'start_date=2027-05-01&end_date=2027-05-31&search=chess',
    );
    expect(listed.map((e) => e.start_date)).toEqual([
      '2027-05-03 17:00:00',
      '2027-05-10 17:00:00',
      '2027-05-17 17:00:00',
    ]);
    expect(listed.every((e) => (e.id as number) > SOURCE_BASE)).toBe(true);
  }, 180_000);
});
