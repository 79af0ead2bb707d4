import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetDatabase } from '../helpers/database.js';
import { cli } from '../helpers/programs.js';
import { databaseWithImporter, importedEvents, IMPORTER } from '../helpers/importer.js';

/**
 * `import:tec` against sources that lie or attack (a source is untrusted, CONTRACT §2): paging that never ends (a
 * `next_rest_url` to itself, `total_pages: 1e8`, pages that repeat), an answer without end, a
 * next page or a redirect on another site (the credentials must not follow), a wrong password,
 * password-protected events shown blanked, and HTML meant to run in the target's pages. Each
 * source is a local HTTP server whose answers the test sets.
 */
const ROOT = '/wp-json/tribe/events/v1';
const CREDENTIALS = { user: 'wp', password: 'ab cd ef gh' };

type Json = Record<string, unknown>;
type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A plain event of the plugin's payload (BEHAVIOR §4). */
const event = (id: number, fields: Json = {}): Json => ({
  id,
  status: 'publish',
  title: `Event ${id}`,
  description: `<p>About ${id}</p>`,
  start_date: '2030-01-01 10:00:00',
  end_date: '2030-01-01 11:00:00',
  timezone: 'UTC',
  all_day: false,
  featured: false,
  sticky: false,
  show_map: false,
  show_map_link: false,
  hide_from_listings: false,
  venue: [],
  organizer: [],
  categories: [],
  tags: [],
  ...fields,
});

interface Site {
  server: Server;
  origin: string;
  seen: Array<{ path: string; auth: string }>;
  /** Answers the events list (everything else of the calendar is empty unless `lists` says). */
  events: Handler;
  /** The venues and organizers lists, when not empty. */
  lists: Record<string, Json[]>;
  /** Answers `events/{id}`, `venues/{id}`, `organizers/{id}`. */
  single: Handler;
  /** Bytes written by the handler that streams without end. */
  streamed: number;
  closed: boolean;
}

async function startSite(): Promise<Site> {
  const empty: Handler = (_url, _req, res) =>
    json(res, 200, { events: [], total: 0, total_pages: 0 });
  const none: Handler = (_url, _req, res) => json(res, 404, { code: 'rest_no_route' });
  const site = {
    seen: [],
    streamed: 0,
    closed: false,
    events: empty,
    lists: {},
    single: none,
  } as unknown as Site;
  site.server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', site.origin);
    site.seen.push({ path: `${url.pathname}${url.search}`, auth: req.headers.authorization ?? '' });
    if (url.pathname === ROOT || url.pathname === `${ROOT}/`) {
      return json(res, 200, { namespace: 'tribe/events/v1', routes: {} });
    }
    const collection = url.pathname.slice(ROOT.length + 1);
    if (collection === 'events') return site.events(url, req, res);
    if (/^(events|venues|organizers)\/\d+$/.test(collection)) return site.single(url, req, res);
    if (['categories', 'tags', 'venues', 'organizers'].includes(collection)) {
      const list = site.lists[collection] ?? [];
      return json(res, 200, { [collection]: list, total: list.length, total_pages: 1 });
    }
    return json(res, 404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });
  });
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  return site;
}

const stopSite = (site: Site) =>
  new Promise<void>((resolve) => {
    site.server.closeAllConnections();
    site.server.close(() => resolve());
  });

describe('import:tec from a hostile source', () => {
  let url: string;
  let site: Site;
  let other: Site;

  const run = (extra: string[] = [], source = `${site.origin}${ROOT}`) =>
    cli(['import:tec', source, '--author', IMPORTER.login, ...extra], { DATABASE_URL: url });
  const withCredentials = ['--user', CREDENTIALS.user, '--password', CREDENTIALS.password];
  const eventRequests = () => site.seen.filter((s) => s.path.startsWith(`${ROOT}/events`));

  /** The titles of the events stored here, as an editor sees them. */
  const stored = (): Promise<Json[]> =>
    importedEvents(url, 'per_page=50&start_date=1900-01-01&end_date=2999-12-31');

  beforeAll(async () => {
    site = await startSite();
    other = await startSite();
  });
  afterAll(async () => {
    await stopSite(site);
    await stopSite(other);
  });
  beforeEach(async () => {
    url = await databaseWithImporter();
    site.seen.length = 0;
    other.seen.length = 0;
    site.lists = {};
  });

  it('stops at a next_rest_url that leads back to a page already read, keeping what it wrote', async () => {
    // Pages 1 and 2 are real; page 2's next link points back at page 1.
    site.events = (u, _req, res) => {
      const page = Number(u.searchParams.get('page') ?? '1');
      const next = new URL(u);
      next.searchParams.set('page', page === 1 ? '2' : '1');
      json(res, 200, {
        events: [event(page * 10 + 1), event(page * 10 + 2)],
        next_rest_url: next.toString(),
      });
    };
    const result = await run();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/events pages lead back to .*page=1.* \(a cycle\)/);
    expect(result.stderr).toContain('run the same command again to resume');
    // Page 1, page 2; the link back to page 1 is not followed.
    expect(eventRequests()).toHaveLength(2);
    // Page by page: the records of the pages read are written, not held until the end.
    expect((await stored()).map((e) => String(e.title)).sort((a, b) => a.localeCompare(b))).toEqual(
      ['Event 11', 'Event 12', 'Event 21', 'Event 22'],
    );
    // A re-run starts over and finds them imported.
    const again = await run();
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('(a cycle)');
  });

  it('believes total_pages only as far as pages come: an empty page ends the list', async () => {
    site.events = (u, _req, res) => {
      const page = Number(u.searchParams.get('page') ?? '1');
      json(res, 200, {
        events: page <= 2 ? [event(page * 10 + 1), event(page * 10 + 2)] : [],
        total: 2e9,
        total_pages: 1e8,
      });
    };
    const result = await run(['--concurrency', '2']);
    expect(result.stderr).not.toMatch(/error|stopped/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}event: +4 created, 0 updated, 0 unchanged, 0 skipped$/m);
    // Pages 1-2 and the batch that found the end.
    expect(eventRequests().length).toBeLessThanOrEqual(4);
  });

  it('refuses a source that answers the same page whatever page is asked', async () => {
    site.events = (_u, _req, res) =>
      json(res, 200, { events: [event(1), event(2)], total: 2e9, total_pages: 1e8 });
    const result = await run();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/holds only records of earlier pages \(it does not page\)/);
    expect(eventRequests().length).toBeLessThanOrEqual(5);
    // Nor do next links that differ but bring nothing new go on for ever.
    site.seen.length = 0;
    let n = 0;
    site.events = (u, _req, res) => {
      const next = new URL(u);
      next.searchParams.set('n', String(++n));
      json(res, 200, { events: [event(1), event(2)], next_rest_url: next.toString() });
    };
    const links = await run();
    expect(links.code).toBe(1);
    expect(links.stderr).toMatch(/it does not page/);
    expect(eventRequests()).toHaveLength(2);
  });

  it('stops reading an answer past its byte limit', async () => {
    site.events = (_u, req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"events":[');
      const chunk = `${JSON.stringify(event(1))},`.repeat(200);
      const pump = () => {
        while (!site.closed && res.write(chunk)) site.streamed += chunk.length;
        if (!site.closed) res.once('drain', pump);
      };
      req.socket.once('close', () => (site.closed = true));
      pump();
    };
    const started = process.memoryUsage().rss;
    const result = await run();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /events\?.*: the answer is larger than 16 MB; stopped reading it/,
    );
    expect(result.stderr).toContain('Import stopped');
    // The client hung up: the source stopped soon after the limit, far from its 300 MB.
    await expect.poll(() => site.closed, { timeout: 10_000 }).toBe(true);
    expect(site.streamed).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - started).toBeLessThan(200 * 1024 * 1024);
  });

  it('refuses a next page on another site, and sends the credentials to the site named only', async () => {
    other.events = (_u, _req, res) => json(res, 200, { events: [event(99)] });
    site.events = (u, _req, res) => {
      if (u.searchParams.get('page') === '1' && !u.searchParams.has('moved')) {
        return json(res, 200, {
          events: [event(1)],
          next_rest_url: `${other.origin}${ROOT}/events?page=2`,
        });
      }
      json(res, 200, { events: [] });
    };
    const foreign = await run(withCredentials);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain(
      `the source's next page ${other.origin}${ROOT}/events?page=2 is not on ${site.origin}`,
    );
    expect(other.seen).toEqual([]);
    expect(site.seen.every((s) => s.auth.startsWith('Basic '))).toBe(true);

    // A redirect to another site is followed without the credentials.
    site.seen.length = 0;
    site.events = (u, _req, res) => {
      res.writeHead(307, { Location: `${other.origin}${ROOT}/events${u.search}` });
      res.end();
    };
    const moved = await run(withCredentials);
    expect(moved.code).toBe(0);
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.map((s) => s.auth)).toEqual(other.seen.map(() => ''));
    expect(site.seen.every((s) => s.auth.startsWith('Basic '))).toBe(true);
  });

  it('says that the source refused the credentials', async () => {
    const refusing = createServer((_req, res) =>
      json(res, 401, {
        code: 'incorrect_password',
        message: 'The provided password is an invalid application password.',
        data: { status: 401 },
      }),
    );
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    try {
      const result = await run(withCredentials, origin);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `${origin}/: the source refused the credentials (HTTP 401 incorrect_password: The provided password is an invalid application password.): check --user and --password`,
      );
      expect(result.stderr).not.toContain('no calendar REST interface found');
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it("filters the source's HTML as for a writer without unfiltered_html, unless told to trust it", async () => {
    site.lists = {
      venues: [
        {
          id: 7,
          status: 'publish',
          venue: '<svg onload=alert(1)>Hall <b>A</b>',
          description: '<p>Big</p><script>alert(2)</script>',
          show_map: true,
          show_map_link: true,
        },
      ],
      organizers: [
        { id: 8, status: 'publish', organizer: '<img src=x onerror=alert(3)>Org', description: '' },
      ],
    };
    site.events = (_u, _req, res) =>
      json(res, 200, {
        events: [
          event(1, {
            title: '<img src=x onerror=alert(4)>Hi <b>there</b>',
            description:
              '<p onclick="alert(5)">Text</p><iframe src="https://evil.example"></iframe>',
            excerpt: '<a href="javascript:alert(6)">more</a>',
            venue: { id: 7 },
            organizer: [{ id: 8 }],
          }),
        ],
        total: 1,
        total_pages: 1,
      });
    const result = await run();
    expect(result.code).toBe(0);
    const [filtered] = await stored();
    expect(filtered.title).toBe('Hi <b>there</b>');
    expect(filtered.description).not.toMatch(/onclick|iframe/);
    expect(filtered.description).toContain('Text');
    expect(filtered.excerpt).not.toContain('javascript:');
    expect((filtered.venue as Json).venue).toBe('Hall <b>A</b>');
    expect((filtered.venue as Json).description).not.toContain('<script');
    expect((filtered.organizer as Json[])[0].organizer).toBe('Org');

    // The operator's explicit choice: as sent (the local author is an editor).
    await resetDatabase(url);
    await cli(
      ['user:create', IMPORTER.login, '--role', 'editor', '--password', IMPORTER.password],
      {
        DATABASE_URL: url,
      },
    );
    const trusted = await run(['--trust-html']);
    expect(trusted.code).toBe(0);
    const [asSent] = await stored();
    expect(asSent.title).toBe('<img src=x onerror=alert(4)>Hi <b>there</b>');
    expect((asSent.venue as Json).venue).toBe('<svg onload=alert(1)>Hall <b>A</b>');
  });

  it('never publishes the blanked copy of a password-protected event', async () => {
    // As the plugin shows a protected event to a reader who has not opened it (BEHAVIOR §4.11).
    const blanked = event(5, {
      title: 'Members only',
      description: '',
      excerpt: '',
      cost: '',
      website: '',
      image: false,
      all_day: null,
      featured: null,
      sticky: null,
      show_map: null,
      show_map_link: null,
      hide_from_listings: null,
      venue: [],
      organizer: [],
    });
    site.events = (_u, _req, res) =>
      json(res, 200, { events: [event(4), blanked], total: 2, total_pages: 1 });
    // Opened with context=edit for an account that may edit it.
    site.single = (u, req, res) =>
      u.pathname.endsWith('/events/5') &&
      u.searchParams.get('context') === 'edit' &&
      req.headers.authorization
        ? json(res, 200, event(5, { title: 'Members only', description: '<p>The secret plan</p>' }))
        : json(res, 401, { code: 'rest_forbidden_context', data: { status: 401 } });

    const anonymous = await run();
    expect(anonymous.code).toBe(0);
    expect(anonymous.stdout).toMatch(
      /^ {2}event 5 "Members only": password-protected at the source \(shown without its content\): not imported, so that no empty copy is published\. Give --user and --password of an account that may edit it at the source/m,
    );
    expect((await stored()).map((e) => e.title)).toEqual(['Event 4']);

    const opened = await run(withCredentials);
    expect(opened.code).toBe(0);
    expect(opened.stdout).toMatch(
      /^Notes:\n {2}event 5 "Members only": password-protected at the source: imported with its content as private/m,
    );
    const copy = (await stored()).find((e) => e.title === 'Members only')!;
    expect(copy).toMatchObject({ status: 'private', description: '<p>The secret plan</p>' });
  });
});
