import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { basic } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { resetDatabase } from '../helpers/database.js';
import { sharedDatabaseUrl } from '../helpers/spawn.js';
import { cli } from '../helpers/programs.js';
import { databaseWithImporter, IMPORTER } from '../helpers/importer.js';
import { byText } from '../helpers/sort.js';

/**
 * `import:tec` against recorded answers of a site of the plugin (made from BEHAVIOR.md §4's
 * payload descriptions, test/fixtures/tec-plugin/site.json): WordPress discovery through the Link
 * header, the `tribe/events/v1` namespace without languages, paging by next_rest_url, retries
 * after 503 and 429, media objects with sizes, escaped websites, a postfix currency, malformed and
 * over-long records reported and skipped.
 */
const BASE = '/cal/events/v1';
const site = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures/tec-plugin/site.json'), 'utf8'),
) as Record<string, Record<string, unknown>>;

type Json = Record<string, unknown>;

describe('import:tec from a site of the plugin (recorded answers)', () => {
  let server: Server;
  let origin: string;
  const seen: Array<{ url: string; agent: string; auth: string }> = [];
  let failuresLeft = 0;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const url = new URL(req.url ?? '/', origin);
      seen.push({
        url: `${url.pathname}${url.search}`,
        agent: req.headers['user-agent'] ?? '',
        auth: req.headers.authorization ?? '',
      });
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const root = '/wp-json/tribe/events/v1';
      if (url.pathname === '/') {
        res.writeHead(200, {
          'Content-Type': 'text/html',
          Link: `<${origin}/wp-json/>; rel="https://api.w.org/"`,
        });
        return res.end('<html></html>');
      }
      if (url.pathname === '/wp-json/') {
        return json(200, {
          name: 'A site',
          namespaces: ['oembed/1.0', 'tribe/events/v1', 'wp/v2'],
        });
      }
      if (url.pathname === root || url.pathname === `${root}/`) {
        return json(200, { namespace: 'tribe/events/v1', routes: {} });
      }
      const collection = url.pathname.slice(root.length + 1);
      if (collection === 'events') {
        // The first answers fail: one 503, one 429 with Retry-After.
        if (failuresLeft > 0) {
          failuresLeft--;
          return failuresLeft % 2
            ? json(503, { code: 'unavailable' })
            : json(429, { code: 'too_many' }, { 'Retry-After': '0' });
        }
        const page = url.searchParams.get('page') ?? '1';
        const body = { ...site[`events-${page}`] };
        if (body.next_rest_url) {
          const next = new URL(url);
          next.searchParams.set('page', '2');
          body.next_rest_url = next.toString();
        }
        // A source that tells no total_pages: paging follows next_rest_url.
        delete body.total_pages;
        return json(200, body);
      }
      if (site[collection]) return json(200, site[collection]);
      return json(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    origin = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('imports terms, venues, organizers and events with their fields, and skips what it cannot', async () => {
    const url = await databaseWithImporter();
    failuresLeft = 2;
    const result = await cli(
      ['import:tec', origin, '--author', IMPORTER.login, '--user', 'wp', '--password', 'ab cd ef'],
      { DATABASE_URL: url },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Imported from ${origin}/wp-json/tribe/events/v1:`);
    expect(result.stdout).toMatch(
      /^Total: 8 created, 0 updated, 0 unchanged, 2 skipped \(\d+ requests, 2 retries\)\.$/m,
    );
    expect(result.stdout).toContain(
      'event 53 "Broken record": start_date "yesterday-ish" is not a date',
    );
    expect(result.stdout).toMatch(
      /event 54 "Too long to keep": rest_invalid_param \(400\).*description must be at most 10000 characters/,
    );

    // A polite client: its name, the application password, 50 a page, the whole event window.
    expect(seen.every((s) => /^cal-events-importer\/\S+ \(node /.test(s.agent))).toBe(true);
    expect(
      seen.every((s) => s.auth === `Basic ${Buffer.from('wp:ab cd ef').toString('base64')}`),
    ).toBe(true);
    const eventPages = seen.filter((s) => s.url.startsWith('/wp-json/tribe/events/v1/events'));
    expect(eventPages.map((s) => new URL(s.url, origin).searchParams.get('page'))).toEqual([
      '1',
      '1',
      '1',
      '2',
    ]);
    expect(new URL(eventPages[0].url, origin).searchParams.get('per_page')).toBe('50');

    const app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    try {
      const auth = basic(IMPORTER.login, IMPORTER.password);
      const get = async (path: string) =>
        (
          await request(app.getHttpServer())
            .get(`${BASE}/${path}`)
            .set('Authorization', auth)
            .expect(200)
        ).body as Json;
      const categories = (await get('categories?hide_empty=0')).categories as Json[];
      const festivals = categories.find((c) => c.slug === 'festivals')!;
      expect(festivals).toMatchObject({ name: 'Festivals &amp; Fairs', parent: 0 });
      expect(categories.find((c) => c.slug === 'folk')).toMatchObject({
        parent: festivals.id,
        description: 'Folk music',
      });

      const events = (await get('events?start_date=1900-01-01&end_date=2999-12-31'))
        .events as Json[];
      expect(events.map((e) => String(e.title)).sort(byText)).toEqual([
        'Folk Night at the Green',
        'Harvest Fair (all day)',
        'New York minute',
      ]);
      const night = events.find((e) => e.title === 'Folk Night at the Green')!;
      expect(night).toMatchObject({
        slug: 'e51',
        status: 'publish',
        date: '2024-02-01 12:00:00',
        date_utc: '2024-02-01 10:00:00',
        start_date: '2025-07-04 19:30:00',
        utc_start_date: '2025-07-04 16:30:00',
        utc_end_date: '2025-07-04 20:00:00',
        timezone: 'Europe/Bucharest',
        description: '<p>Dancing &amp; music.</p>',
        cost: '15lei',
        cost_details: { currency_symbol: 'lei', currency_position: 'postfix', values: ['15'] },
        website: 'https://tickets.example/?e=1&amp;x=2',
        featured: true,
        image: { url: 'http://plugin.example/wp-content/uploads/night.png' },
        venue: {
          venue: 'Village Green',
          city: 'Cluj-Napoca',
          website: 'https://green.example/a?b=1&c=2',
          show_map: true,
          show_map_link: false,
          image: { url: 'http://plugin.example/wp-content/uploads/green.jpg' },
        },
        organizer: [
          {
            organizer: 'Folk Society',
            email: 'folk@example.org',
            description: '<p>We play.</p>',
          },
        ],
        categories: [{ slug: 'folk' }],
        tags: [{ slug: 'family' }],
        // A Pro site's Virtual Events fields come over (the Virtual Events module).
        is_virtual: true,
        virtual_url: 'https://meet.example.org/folk',
        virtual_video_source: 'youtube',
      });
      expect(events.find((e) => e.title === 'Harvest Fair (all day)')).toMatchObject({
        is_virtual: false,
        virtual_url: null,
        all_day: true,
        utc_start_date: '2025-09-19 21:00:00',
        utc_end_date: '2025-09-21 20:59:59',
        cost: 'Free',
      });
      expect(events.find((e) => e.title === 'New York minute')).toMatchObject({
        status: 'draft',
        date_utc: '0000-00-00 00:00:00',
        utc_start_date: '2025-11-03 06:30:00',
      });
      // Nobody is half-written: the skipped ones are not there at all.
      expect(
        events.find((e) => e.title === 'Too long to keep' || e.title === 'Broken record'),
      ).toBeUndefined();
    } finally {
      await closeApp(app);
    }

    // Again: nothing to do, and the skipped ones are reported again.
    const again = await cli(['import:tec', origin, '--author', IMPORTER.login], {
      DATABASE_URL: url,
    });
    expect(again.stdout).toMatch(/^Total: 0 created, 0 updated, \d+ unchanged, 2 skipped/m);
  }, 180_000);

  it.each([
    [['import:tec', 'https://old.example.org'], 'import:tec needs --author LOGIN'],
    [
      ['import:tec', 'https://a.example', '--author', 'x', '--concurrency', '0'],
      '--concurrency takes 1 to 16',
    ],
    [
      ['import:tec', 'https://a.example', '--author', 'x', '--since', 'last week'],
      '--since takes a date',
    ],
    [['import:ics', 'a.ics', '--author', 'x', '--from', 'May'], '--from takes a date'],
  ])('%j is a usage error (exit 2) before any database is opened', async (args, message) => {
    const result = await cli(args, { DATABASE_URL: 'mysql://nobody@127.0.0.1:1/never' });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(message);
  });

  it('gives up on a source that keeps failing, with one line and exit code 1', async () => {
    const url = sharedDatabaseUrl();
    await resetDatabase(url);
    await cli(['user:create', IMPORTER.login, '--role', 'editor'], { DATABASE_URL: url });
    failuresLeft = 1000;
    const result = await cli(
      ['import:tec', `${origin}/wp-json/tribe/events/v1`, '--author', IMPORTER.login],
      { DATABASE_URL: url },
    );
    failuresLeft = 0;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/events\?.*: HTTP (503|429) \(gave up after 5 attempts\)/);
  }, 180_000);
});
