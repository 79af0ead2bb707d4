import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { basic } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { resetDatabase } from '../helpers/database.js';
import {
  adminServerEnv,
  assertBuilt,
  CLI,
  ownDatabaseUrl,
  ROOT,
  serveOnFreePort,
  stop,
} from '../helpers/spawn.js';
import { cli } from '../helpers/programs.js';
import { databaseWithImporter, IMPORTER } from '../helpers/importer.js';

/**
 * `import:tec` end to end: a second instance of this service is the source, seeded with
 * varied records in several zones and languages; the import into a fresh database must give the
 * same payloads (ids and urls aside), a re-run must change nothing, `--since` must pick exactly
 * the changed records, and a run killed half-way must resume to the same result.
 */
const BASE = '/cal/events/v1';
const ADMIN = { login: 'source-admin', password: 'source admin password' };
const LANGUAGES = ['en', 'hu', 'ro'] as const;
const COLLECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
const ZERO_DATE = '0000-00-00 00:00:00';

const dbUrl = ownDatabaseUrl;

/** Keys that name this or that database's ids and addresses, or say when a write happened. */
const IGNORED = new Set([
  'id',
  'url',
  'rest_url',
  'global_id',
  'global_id_lineage',
  'author',
  'modified',
  'modified_utc',
  'urls',
  'translations',
  'json_ld',
  'term_taxonomy_id',
]);

type Json = Record<string, unknown>;

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) if (!IGNORED.has(k)) out[k] = normalize(v);
    // A draft without a publication date shows the time of its last write as `date`.
    if (out.date_utc === ZERO_DATE) delete out.date;
    // An event without a website shows its own page there.
    if (typeof out.website === 'string' && out.website === (value as Json).url) {
      out.website = '(its page)';
    }
    return out;
  }
  return value;
}

/** Every record of every collection and language, the way a reader with all rights sees them. */
async function snapshot(get: (path: string) => Promise<Json>): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const collection of COLLECTIONS) {
    for (const language of LANGUAGES) {
      const records: Json[] = [];
      for (let page = 1; ; page++) {
        const window =
          collection === 'events'
            ? '&start_date=1900-01-01&end_date=2999-12-31'
            : collection === 'categories' || collection === 'tags'
              ? '&hide_empty=0'
              : '';
        const body = await get(
          `${BASE}/${collection}?per_page=50&page=${page}&i18n_language=${language}${window}`,
        );
        const list = (body[collection] as Json[] | undefined) ?? [];
        records.push(...list);
        if (!list.length || page >= Number(body.total_pages ?? 1)) break;
      }
      // A category's parent and a record's translations as names, not ids.
      const byId = new Map(records.map((r) => [r.id, r]));
      out[`${collection}/${language}`] = records
        .map((r) => ({
          ...(normalize(r) as Json),
          ...(r.parent !== undefined ? { parent: (byId.get(r.parent) as Json)?.slug ?? 0 } : {}),
          translated: Object.keys((r.translations as Json) ?? {}).sort(),
        }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
  }
  return out;
}

describe('import:tec', () => {
  let source: ChildProcess | undefined;
  let sourceRoot: string;
  const srcUrl = dbUrl('src');
  let port: number;

  const admin = basic(ADMIN.login, ADMIN.password);
  const sourceFetch = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      ...init,
      headers: { Authorization: admin, 'Content-Type': 'application/json', ...init.headers },
    });
    const body = (await response.json()) as Json;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const post = (path: string, body: Json) =>
    sourceFetch(`${BASE}/${path}`, { method: 'POST', body: JSON.stringify(body) });

  const importInto = (url: string, extra: string[] = []) =>
    cli(
      [
        'import:tec',
        `http://127.0.0.1:${port}`,
        '--author',
        IMPORTER.login,
        '--user',
        ADMIN.login,
        '--password',
        ADMIN.password,
        ...extra,
      ],
      { DATABASE_URL: url },
    );

  const freshTarget = (suffix: string) => databaseWithImporter(dbUrl(suffix));

  const targetSnapshot = async (url: string) => {
    let app: NestExpressApplication | undefined;
    try {
      app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
      const auth = basic(IMPORTER.login, IMPORTER.password);
      return await snapshot(
        async (path) =>
          (await request(app!.getHttpServer()).get(path).set('Authorization', auth).expect(200))
            .body as Json,
      );
    } finally {
      await closeApp(app);
    }
  };
  const sourceSnapshot = () => snapshot((path) => sourceFetch(path));

  const totals = (stdout: string) => {
    const line = stdout.split('\n').find((l) => l.startsWith('Total: '));
    if (!line) throw new Error(`no summary in: ${stdout}`);
    return line;
  };
  const kindLine = (stdout: string, kind: string) =>
    stdout
      .split('\n')
      .find((l) => l.trim().startsWith(`${kind}:`))
      ?.trim();

  let seeded = 0;

  beforeAll(async () => {
    assertBuilt();
    await resetDatabase(srcUrl);
    const started = await serveOnFreePort((free) => ({
      DATABASE_URL: srcUrl,
      ...adminServerEnv(ADMIN),
      SITE_URL: `http://127.0.0.1:${free}`,
      SITE_TIMEZONE: 'Europe/Budapest',
      RESPONSE_CACHE_TTL: '0',
    }));
    ({ port } = started);
    sourceRoot = `${started.origin}${BASE}`;
    source = started.child;

    // Terms: a hierarchy, a translated category, tags in two languages.
    const music = await post('categories', {
      name: 'Music & Arts',
      slug: 'music',
      description: 'All <b>music</b>',
    });
    const jazz = await post('categories', { name: 'Jazz', parent: music.id });
    const zene = await post('categories', {
      name: 'Zene',
      i18n_language: 'hu',
      translation_of: music.id,
    });
    await post('categories', { name: 'Free jazz', parent: jazz.id, slug: 'free-jazz' });
    const outdoor = await post('tags', { name: 'outdoor' });
    const szabad = await post('tags', { name: 'szabadtéri', i18n_language: 'hu' });

    // Venues and organizers, one translated, one draft.
    const opera = await post('venues', {
      venue: 'Opera House',
      address: '1 Andrássy út',
      city: 'Budapest',
      country: 'Hungary',
      zip: '1061',
      phone: '+36 1 555',
      website: 'https://opera.example/?a=1&b=2',
      geo_lat: 47.5026,
      geo_lng: 19.0583,
      show_map: 'true',
      show_map_link: 'false',
      image: 'https://img.example/opera.jpg',
    });
    const hall = await post('venues', {
      venue: 'Carnegie Hall',
      address: '881 7th Ave',
      city: 'New York',
      state: 'NY',
      country: 'United States',
      description: '<p>A hall.</p>',
      status: 'draft',
    });
    const ada = await post('organizers', {
      organizer: 'Ada Org',
      email: 'ada@example.org',
      phone: '123',
      website: 'https://ada.example',
    });
    await post('organizers', {
      organizer: 'Ada Szervező',
      i18n_language: 'hu',
      translation_of: ada.id,
    });
    const bob = await post('organizers', { organizer: 'Bob', status: 'pending' });

    // Events in several zones, around a DST change, all-day, statuses, costs, flags.
    const concert = await post('events', {
      title: 'Concert "Live" & more',
      description: '<p>First para</p>\n\nSecond line with <a href="https://x.example">a link</a>',
      excerpt: 'Short',
      start_date: '2026-03-29 01:30:00',
      end_date: '2026-03-29 04:00:00',
      timezone: 'Europe/Budapest',
      venue: opera.id,
      organizer: [ada.id, bob.id],
      categories: [music.id, jazz.id],
      tags: [outdoor.id],
      cost: '$10 - $20',
      image: 'https://img.example/concert.jpg',
      featured: true,
      sticky: true,
      show_map: true,
      show_map_link: true,
      slug: 'the-concert',
    });
    await post('events', {
      title: 'Koncert',
      start_date: '2026-03-29 01:30:00',
      end_date: '2026-03-29 04:00:00',
      timezone: 'Europe/Budapest',
      i18n_language: 'hu',
      translation_of: concert.id,
      categories: [zene.id],
      tags: [szabad.id],
    });
    await post('events', {
      title: 'Concert (ro)',
      start_date: '2026-03-29 01:30:00',
      end_date: '2026-03-29 04:00:00',
      timezone: 'Europe/Bucharest',
      i18n_language: 'ro',
      translation_of: concert.id,
    });
    await post('events', {
      title: 'All day in New York',
      start_date: '2026-11-01',
      end_date: '2026-11-02',
      all_day: true,
      timezone: 'America/New_York',
      venue: hall.id,
      status: 'draft',
      cost: 'Free',
      website: 'https://x.example/?q=1&r=2',
    });
    await post('events', {
      title: 'Tokyo morning',
      start_date: '2027-01-10 09:00',
      end_date: '2027-01-10 11:30',
      timezone: 'Asia/Tokyo',
      status: 'private',
      cost: ['5', '15'],
      hide_from_listings: false,
    });
    await post('events', {
      title: 'Offset zone, long ago',
      start_date: '2019-05-01 10:00',
      end_date: '2019-05-01 12:00',
      timezone: 'UTC+2',
      date: '2019-01-01 10:00:00',
      cost: '20€',
    });
    await post('events', {
      title: 'Scheduled',
      start_date: '2030-05-01 20:00',
      end_date: '2030-05-01 22:00',
      timezone: 'Europe/London',
      date_utc: '2029-01-01 00:00:00',
      status: 'publish',
    });
    // Enough plain events for paging (per_page=50) and for a run to be killed half-way.
    for (let i = 1; i <= 56; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      await post('events', {
        title: `Weekly meetup #${i}`,
        start_date: `2027-${String((i % 12) + 1).padStart(2, '0')}-${day} 18:00`,
        end_date: `2027-${String((i % 12) + 1).padStart(2, '0')}-${day} 20:00`,
        timezone: i % 2 ? 'Europe/Budapest' : 'America/Los_Angeles',
        tags: [outdoor.id],
        venue: opera.id,
      });
    }
    seeded = 4 + 2 + 2 + 3 + 7 + 56;
  }, 180_000);

  afterAll(() => stop(source));

  let target: string;
  let first: Record<string, unknown[]>;

  it('imports every record with the payload the source shows', async () => {
    target = await freshTarget('dst');
    const expected = await sourceSnapshot();
    const counted = Object.values(expected).flat().length;
    expect(counted).toBe(seeded);
    const result = await importInto(target);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    // Given the site's address, discovery finds this service by its /wp-json/ index (it lists
    // cal/events/v1) and reads its own namespace (CONTRACT §1).
    expect(result.stdout).toContain(
      `Imported from http://127.0.0.1:${port}/wp-json/cal/events/v1:`,
    );
    expect(totals(result.stdout)).toMatch(
      new RegExp(`^Total: ${seeded} created, 0 updated, 0 unchanged, 0 skipped `),
    );
    // Not a terminal: plain progress lines.
    expect(result.stderr).toContain('events 10/');
    first = await targetSnapshot(target);
    expect(first).toEqual(expected);
    // The snapshot saw them all: drafts, pending and private ones too.
    expect(Object.values(first).flat()).toHaveLength(seeded);
  }, 180_000);

  it('changes nothing when run again', async () => {
    const result = await importInto(target);
    expect(result.code).toBe(0);
    expect(totals(result.stdout)).toMatch(
      new RegExp(`^Total: 0 created, 0 updated, ${seeded} unchanged, 0 skipped `),
    );
  }, 120_000);

  it('with --since looks only at what changed, and --dry-run writes nothing', async () => {
    const events = (await sourceFetch(
      `${BASE}/events?per_page=50&start_date=1900-01-01&end_date=2999-12-31&search=Weekly`,
    )) as { events: Json[] };
    const venues = (await sourceFetch(`${BASE}/venues?per_page=50`)) as { venues: Json[] };
    // Past the second of the last write, so that `since` separates old and new.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const since = new Date().toISOString().slice(0, 19) + 'Z';
    await post(`events/${events.events[0].id as number}`, {
      title: 'Weekly meetup, moved',
      start_date: '2027-02-02 19:00',
    });
    await post(`events/${events.events[1].id as number}`, { featured: true, cost: '7' });
    const opera = venues.venues.find((v) => v.venue === 'Opera House')!;
    await post(`venues/${opera.id as number}`, { city: 'Budapest VI.' });
    await post('events', {
      title: 'New one',
      start_date: '2027-03-03 10:00',
      end_date: '2027-03-03 11:00',
      timezone: 'Europe/Budapest',
    });

    const dry = await importInto(target, ['--since', since, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Dry run (nothing written)');
    expect(dry.stdout).toMatch(/would create an event from \d+ "New one"/);
    expect(totals(dry.stdout)).toMatch(/^Total: 1 created, 3 updated, \d+ unchanged, 0 skipped/);

    const result = await importInto(target, ['--since', since]);
    expect(result.code).toBe(0);
    expect(kindLine(result.stdout, 'event')).toMatch(
      /^event: +1 created, 2 updated, 0 unchanged, 0 skipped, \d+ not modified since$/,
    );
    expect(kindLine(result.stdout, 'venue')).toMatch(/^venue: +0 created, 1 updated, /);
    expect(kindLine(result.stdout, 'organizer')).toMatch(/^organizer: +0 created, 0 updated, /);
    expect(await targetSnapshot(target)).toEqual(await sourceSnapshot());
    seeded += 1;
  }, 180_000);

  it('resumes a run killed half-way and ends with the same result', async () => {
    const url = await freshTarget('dst2');
    // Killed once a few events have been written.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          CLI,
          'import:tec',
          sourceRoot,
          '--author',
          IMPORTER.login,
          '--user',
          ADMIN.login,
          '--password',
          ADMIN.password,
        ],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATABASE_URL: url } },
      );
      let stderr = '';
      // The deadline of any spawned program (test/helpers/spawn.ts): a loaded machine takes a
      // while to start Node and Nest before the first event is written.
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no progress within 90 s: ${stderr}`));
      }, 90_000);
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/events 20\//.test(stderr)) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === 'SIGKILL') resolve();
        else reject(new Error(`the import ended by itself (${code}) before it was killed`));
      });
    });
    const resumed = await importInto(url);
    expect(resumed.code).toBe(0);
    const line = totals(resumed.stdout);
    const [, created, unchanged] = /^Total: (\d+) created, 0 updated, (\d+) unchanged, 0 skipped/
      .exec(line)!
      .map(Number);
    // Some were written before the kill, the rest now; nothing twice.
    expect(unchanged).toBeGreaterThanOrEqual(20);
    expect(created + unchanged).toBe(seeded);
    expect(await targetSnapshot(url)).toEqual(await sourceSnapshot());
  }, 240_000);

  it('finds the REST root given directly, and reports a source that is none', async () => {
    // A weekly series of 7 (the last test: the counts above are done): through the plugin's
    // namespace each occurrence would be an event; the site address must read it as one.
    await post('events', {
      title: 'Weekly choir',
      status: 'publish',
      start_date: '2027-03-02 19:00:00',
      end_date: '2027-03-02 21:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=7'] },
    });
    const target2 = await freshTarget('dst3');
    const direct = await cli(['import:tec', sourceRoot, '--author', IMPORTER.login, '--dry-run'], {
      DATABASE_URL: target2,
    });
    expect(direct.code).toBe(0);
    expect(direct.stdout).toContain(`Dry run (nothing written) from ${sourceRoot}:`);
    // Anonymous: only what the public sees.
    expect(kindLine(direct.stdout, 'venue')).toMatch(/^venue: +1 created,/);

    // Given the site address, this service is recognised by its /wp-json/ index (which lists
    // cal/events/v1 beside the plugin's namespace) and read through its own namespace, where a
    // series keeps its rules.
    const bySite = await cli(
      ['import:tec', `http://127.0.0.1:${port}`, '--author', IMPORTER.login, '--dry-run'],
      { DATABASE_URL: target2 },
    );
    expect(bySite.code).toBe(0);
    expect(bySite.stdout).toContain(
      `Dry run (nothing written) from http://127.0.0.1:${port}/wp-json/cal/events/v1:`,
    );
    expect(kindLine(bySite.stdout, 'event')).toBe(kindLine(direct.stdout, 'event'));

    // A web server that is no calendar (no discovery header, no REST index).
    const plain = createServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<p>nothing here</p>');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const plainPort = (plain.address() as AddressInfo).port;
    try {
      const nowhere = await cli(
        ['import:tec', `http://127.0.0.1:${plainPort}/nothing-here`, '--author', IMPORTER.login],
        { DATABASE_URL: target2 },
      );
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toContain('no calendar REST interface found');
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
    const nobody = await cli(['import:tec', sourceRoot, '--author', 'nobody'], {
      DATABASE_URL: target2,
    });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr.trim()).toBe('no local user with login "nobody" (--author)');
  }, 240_000);
});
