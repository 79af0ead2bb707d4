// Shared by the bench scripts: database reset and migration, bulk seeding through SQL, server
// start/stop. Loopback only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The compiled server the bench runs: dist/ (npm run build) unless useBuild() names another. */
let BUILD = join(ROOT, 'dist');
export function useBuild(dir) {
  BUILD = dir;
}

/**
 * `--name value` and `--flag` options; `known` maps each option to its placeholder (null for a
 * flag). Unknown options, missing values and stray words are errors.
 */
/**
 * The database a bench script seeds: BENCH_DATABASE_URL, else a new SQLite file with --sqlite,
 * else the MariaDB database `name` on 127.0.0.1 (dropped and recreated by the script).
 */
export function benchDatabaseUrl(args, name) {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  if (!args.sqlite) return `mariadb://root@127.0.0.1:3306/${name}`;
  return `sqlite:${join(mkdtempSync(join(tmpdir(), `${name}-`)), 'bench.sqlite')}`;
}

export function parseArgs(argv, known) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    if (name === null) throw new Error(`unexpected argument "${arg}"`);
    if (known && !(name in known)) throw new Error(`unknown option "${arg}"`);
    if (known && known[name] === null) {
      out[name] = true;
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) {
      if (known) throw new Error(`${arg} needs a value (${known[name]})`);
      out[name] = true;
    } else out[name] = (i++, next);
  }
  return out;
}

/**
 * A bench script's options (`known`, as parseArgs takes them): --help prints `usage` and exits 0;
 * an unknown option, a missing value or a non-positive number among `positive` prints the
 * problem and `usage` and exits 2.
 */
export function benchArgs(usage, known, positive = []) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2), known);
    for (const name of positive) {
      if (args[name] !== undefined && !(Number(args[name]) > 0))
        throw new Error(`--${name} needs a positive number, got "${args[name]}"`);
    }
  } catch (error) {
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(usage);
    process.exit(0);
  }
  return args;
}

/** How many records of each kind a calendar of `scale` holds (1 = 100,000 events). */
/**
 * autocannon's options for `--smoke`: two requests per connection, each allowed as long as a
 * loaded machine needs. Figures are sampled every 20 ms instead of every second: with `amount`,
 * autocannon ends at its next sample, so a smoke run's sixty measurements took a second each.
 * The rates it reports are then per sample, as meaningless as any smoke figure.
 */
export const smokeLoad = (connections) => ({
  amount: 2 * connections,
  timeout: 120,
  sampleInt: 20,
});

export const seedCounts = (scale) => ({
  events: Math.round(100_000 * scale),
  venues: Math.max(10, Math.round(5_000 * scale)),
  organizers: Math.max(5, Math.round(2_000 * scale)),
  categories: Math.max(5, Math.round(200 * scale)),
  tags: Math.max(10, Math.round(1_000 * scale)),
});

const pad = (n) => String(n).padStart(2, '0');
export const sql = (d) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;

export function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isSqlite = (url) => url.startsWith('sqlite:');

/**
 * A mysql2/promise connection to the MySQL/MariaDB server of `url`, to its database unless
 * `database` is false (to drop and create it).
 */
export async function mysqlConnection(url, { database = true } = {}) {
  const { createConnection } = await import('mysql2/promise');
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return createConnection({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    ...(database && { database: u.pathname.slice(1) }),
    charset: 'utf8mb4',
  });
}

/** Drops and recreates a MySQL/MariaDB bench database (its name must contain bench or test). */
export async function resetDatabase(url) {
  if (isSqlite(url)) return;
  const db = new URL(url.replace(/^mariadb:/, 'mysql:')).pathname.slice(1);
  if (!/bench|test/.test(db))
    throw new Error('use a database whose name contains "bench" or "test"');
  const conn = await mysqlConnection(url, { database: false });
  await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
  await conn.query(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
}

export function migrate(url) {
  execFileSync(process.execPath, [join(BUILD, 'migrate.js'), 'run'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'ignore',
  });
}

async function openDb(url) {
  if (isSqlite(url)) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(url.slice('sqlite:'.length));
    db.pragma('journal_mode = WAL');
    return {
      async many(table, columns, rows) {
        const stmt = db.prepare(
          `INSERT INTO ${table} (${columns.join(',')}) VALUES (${columns.map(() => '?').join(',')})`,
        );
        db.transaction((all) => all.forEach((r) => stmt.run(...r)))(rows);
      },
      async query(statement) {
        db.exec(statement);
      },
      async analyze() {
        db.exec('ANALYZE');
      },
      async close() {
        db.close();
      },
    };
  }
  const conn = await mysqlConnection(url);
  return {
    async many(table, columns, rows) {
      for (let i = 0; i < rows.length; i += 2000) {
        await conn.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ?`, [
          rows.slice(i, i + 2000),
        ]);
      }
    },
    async query(statement) {
      await conn.query(statement);
    },
    async analyze() {
      for (const t of [
        'events',
        'venues',
        'organizers',
        'terms',
        'event_terms',
        'event_organizers',
        'event_occurrences',
      ]) {
        await conn.query(`ANALYZE TABLE ${t}`);
      }
    },
    async close() {
      await conn.end();
    },
  };
}

const POST_COLUMNS = [
  'id',
  'author_id',
  'status',
  'title',
  'slug',
  'description',
  'excerpt',
  'password',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'image_url',
  'language',
];
const WORDS = [
  'jazz',
  'rock',
  'folk',
  'market',
  'lecture',
  'workshop',
  'festival',
  'concert',
  'theatre',
  'film',
  'poetry',
  'dance',
];
const CITIES = [
  'Budapest',
  'Cluj-Napoca',
  'Debrecen',
  'Timișoara',
  'Szeged',
  'Iași',
  'Pécs',
  'Brașov',
];

/**
 * Seeds a calendar straight into the migrated schema: `counts` of venues, organizers, categories,
 * tags and events, with events spread from one year back to two years ahead, 90% with a venue,
 * 1-2 organizers, 1-3 categories and 0-3 tags each; venues spread over a continent. Returns
 * probes for the filter scenarios (`geo`: a venue's coordinates, the geofenced list's centre).
 */
export async function seed(url, counts) {
  const db = await openDb(url);
  const rnd = mulberry32(42);
  const geoRnd = mulberry32(20);
  const round6 = (x) => Math.round(x * 1e6) / 1e6;
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const now = Date.now();
  const published = sql(new Date(now - 86400000 * 400));
  let id = 0;
  const postIds = [];
  const post = (title, slug) => [
    ++id,
    1,
    'publish',
    title,
    slug,
    `About ${title}: an evening of ${pick(WORDS)} and ${pick(WORDS)}.`,
    '',
    '',
    published,
    published,
    published,
    published,
    null,
    'en',
  ];
  const venues = [];
  for (let v = 0; v < counts.venues; v++) {
    const row = post(`Venue ${v}`, `venue-${v}`);
    postIds.push([row[0], 'venue']);
    // Spread over Europe (36-70 °N, 10 °W-40 °E), one in twenty without coordinates; from a
    // generator of their own, so that the rest of the calendar stays as it was.
    const located = geoRnd() < 0.95;
    const lat = located ? round6(36 + geoRnd() * 34) : null;
    const lng = located ? round6(-10 + geoRnd() * 50) : null;
    venues.push([
      ...row,
      `${v} Main Street`,
      pick(CITIES),
      'Hungary',
      '',
      '',
      String(1000 + (v % 9000)),
      '+36 1 555 0000',
      '',
      '',
      1,
      1,
      lat,
      lng,
    ]);
  }
  const centre = venues.find((v) => v.at(-2) !== null);
  const geo = { lat: centre.at(-2), lng: centre.at(-1) };
  const organizers = [];
  for (let o = 0; o < counts.organizers; o++) {
    const row = post(`Organizer ${o}`, `organizer-${o}`);
    postIds.push([row[0], 'organizer']);
    organizers.push([...row, '+36 1 555 0001', 'https://example.org', `org${o}@example.org`]);
  }
  const terms = [];
  for (let c = 1; c <= counts.categories; c++)
    terms.push([c, 'cal_events_cat', `Category ${c}`, `category-${c}`, '', 0, 'en']);
  for (let t = 1; t <= counts.tags; t++)
    terms.push([counts.categories + t, 'post_tag', `Tag ${t}`, `tag-${t}`, '', 0, 'en']);
  const events = [];
  const eventTerms = [];
  const eventOrganizers = [];
  let probe;
  for (let e = 0; e < counts.events; e++) {
    const word = pick(WORDS);
    const row = post(`${word} night ${e}`, `${word}-night-${e}`);
    postIds.push([row[0], 'event']);
    const start = new Date(now + Math.round((rnd() * 1095 - 365) * 86400000));
    start.setUTCMinutes(0, 0, 0);
    const end = new Date(start.getTime() + (1 + Math.floor(rnd() * 4)) * 3600000);
    const venue = rnd() < 0.9 ? pick(venues)[0] : null;
    events.push([
      ...row,
      sql(start),
      sql(end),
      sql(start),
      sql(end),
      'UTC',
      0,
      '["10","20"]',
      '',
      '',
      null,
      0,
      0,
      0,
      0,
      rnd() < 0.1 ? 1 : 0,
      venue,
      0,
    ]);
    const cats = new Set(
      Array.from(
        { length: 1 + Math.floor(rnd() * 3) },
        () => 1 + Math.floor(rnd() * counts.categories),
      ),
    );
    const tags = new Set(
      Array.from(
        { length: Math.floor(rnd() * 4) },
        () => counts.categories + 1 + Math.floor(rnd() * counts.tags),
      ),
    );
    // Term links carry copies of the event's status, date and language (term counts are per
    // language and index-only).
    for (const t of [...cats, ...tags]) eventTerms.push([row[0], t, 'publish', published, 'en']);
    const orgs = new Set(
      Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => pick(organizers)[0]),
    );
    [...orgs].forEach((o, i) => eventOrganizers.push([row[0], o, i]));
    if (!probe && venue && cats.has(3) && start.getTime() > now + 7 * 86400000) {
      probe = { venue, category: 'category-3', word, from: sql(new Date(now)).slice(0, 10) };
    }
  }
  await db.many('post_ids', ['id', 'kind'], postIds);
  await db.many(
    'venues',
    [
      ...POST_COLUMNS,
      'address',
      'city',
      'country',
      'province',
      'state',
      'zip',
      'phone',
      'stateprovince',
      'website',
      'show_map',
      'show_map_link',
      'geo_lat',
      'geo_lng',
    ],
    venues,
  );
  await db.many('organizers', [...POST_COLUMNS, 'phone', 'website', 'email'], organizers);
  await db.many(
    'events',
    [
      ...POST_COLUMNS,
      'start_date',
      'end_date',
      'start_utc',
      'end_utc',
      'timezone',
      'all_day',
      'cost',
      'currency_symbol',
      'currency_position',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'venue_id',
      'post_parent',
    ],
    events,
  );
  await db.many(
    'terms',
    ['id', 'taxonomy', 'name', 'slug', 'description', 'parent', 'language'],
    terms,
  );
  await db.many(
    'event_terms',
    ['event_id', 'term_id', 'event_status', 'event_date_utc', 'event_language'],
    eventTerms,
  );
  await db.many('event_organizers', ['event_id', 'organizer_id', 'position'], eventOrganizers);
  // The terms' kept counts of published events, as the app's writes keep them.
  await db.query(
    "UPDATE terms SET published_count = (SELECT COUNT(*) FROM event_terms et WHERE et.term_id = terms.id AND et.event_language = terms.language AND et.event_status = 'publish')",
  );
  await db.analyze();
  await db.close();
  return { probe, geo, firstEvent: events[0][0], firstEventSlug: events[0][4], lastId: id };
}

/** The weekly series of the recurring calendar: one per hundred single events (1,000 at scale 1). */
export const seriesCount = (counts) => Math.max(10, Math.round(counts.events / 100));
/** Weeks of each series: two years. */
export const SERIES_WEEKS = 104;

/**
 * The recurring calendar (CONTRACT §9) beside the seeded one (ids after `lastId`): `seriesCount(counts)` weekly
 * recurring events of two years each (from about a year back, as the single events spread),
 * materialized as the app does (one `event_occurrences` row per occurrence, the series complete),
 * in Hungarian, so that `/hu/` lists them alone while the default list stays the single events;
 * each with a venue (90%), 1-2 organizers, 1-3 categories and 0-3 tags (Hungarian copies of the
 * seeded terms), as the single events have. Returns how many series and occurrences it wrote.
 */
export async function seedSeries(url, counts, lastId) {
  const db = await openDb(url);
  const rnd = mulberry32(34);
  const now = Date.now();
  const published = sql(new Date(now - 86400000 * 400));
  const termCount = counts.categories + counts.tags;
  const terms = [];
  for (let c = 1; c <= counts.categories; c++)
    terms.push([termCount + c, 'cal_events_cat', `Kategória ${c}`, `kategoria-${c}`, '', 0, 'hu']);
  for (let t = 1; t <= counts.tags; t++)
    terms.push([
      termCount + counts.categories + t,
      'post_tag',
      `Címke ${t}`,
      `cimke-${t}`,
      '',
      0,
      'hu',
    ]);
  const recurrence = JSON.stringify({
    rules: [`FREQ=WEEKLY;COUNT=${SERIES_WEEKS}`],
    exdates: [],
    rdates: [],
  });
  const postIds = [];
  const events = [];
  const occurrences = [];
  const eventTerms = [];
  const eventOrganizers = [];
  const total = seriesCount(counts);
  for (let n = 0; n < total; n++) {
    const id = lastId + 1 + n;
    postIds.push([id, 'event']);
    const start = new Date(now + Math.round((rnd() * 7 - 365) * 86400000));
    start.setUTCMinutes(0, 0, 0);
    const hours = 1 + Math.floor(rnd() * 4);
    const venue = rnd() < 0.9 ? 1 + Math.floor(rnd() * counts.venues) : null;
    const title = `${WORDS[n % WORDS.length]} sorozat ${n}`;
    const seriesEnd = sql(new Date(start.getTime() + hours * 3600000));
    // prettier-ignore
    events.push([
      id, 1, 'publish', title, `sorozat-${n}`, `Heti alkalom: ${title}.`, '', '',
      published, published, published, published, null, 'hu',
      sql(start), seriesEnd,
      sql(start), seriesEnd, 'UTC', 0, '["10"]',
      '', '', null, 0, 0, 0, 0, 0, venue, 0, recurrence, '9999-12-31 23:59:59',
    ]);
    for (let w = 0; w < SERIES_WEEKS; w++) {
      const at = new Date(start.getTime() + w * 7 * 86400000);
      const end = sql(new Date(at.getTime() + hours * 3600000));
      occurrences.push([id, sql(at), end, sql(at), end, 1]);
    }
    const cats = new Set(
      Array.from(
        { length: 1 + Math.floor(rnd() * 3) },
        () => termCount + 1 + Math.floor(rnd() * counts.categories),
      ),
    );
    const tags = new Set(
      Array.from(
        { length: Math.floor(rnd() * 4) },
        () => termCount + counts.categories + 1 + Math.floor(rnd() * counts.tags),
      ),
    );
    for (const t of [...cats, ...tags]) eventTerms.push([id, t, 'publish', published, 'hu']);
    const first = counts.venues + 1;
    const orgs = new Set(
      Array.from({ length: 1 + Math.floor(rnd() * 2) }, () =>
        Math.floor(first + rnd() * counts.organizers),
      ),
    );
    [...orgs].forEach((o, i) => eventOrganizers.push([id, o, i]));
  }
  await db.many('post_ids', ['id', 'kind'], postIds);
  await db.many(
    'terms',
    ['id', 'taxonomy', 'name', 'slug', 'description', 'parent', 'language'],
    terms,
  );
  await db.many(
    'events',
    [
      ...POST_COLUMNS,
      'start_date',
      'end_date',
      'start_utc',
      'end_utc',
      'timezone',
      'all_day',
      'cost',
      'currency_symbol',
      'currency_position',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'venue_id',
      'post_parent',
      'recurrence',
      'occurrences_until',
    ],
    events,
  );
  await db.many(
    'event_occurrences',
    ['event_id', 'start_date', 'end_date', 'start_utc', 'end_utc', 'day_index'],
    occurrences,
  );
  // The event's listing columns that each occurrence copies, where the build's schema has them
  // (a build before the copies is measured as it was).
  try {
    await db.query(
      `UPDATE event_occurrences SET language = 'hu', hide_from_listings = 0, status = 'publish', date = '${published}', date_utc = '${published}', author_id = 1 WHERE event_id > ${lastId}`,
    );
  } catch (error) {
    if (!/unknown column|no such column/i.test(String(error))) throw error;
  }
  await db.many(
    'event_terms',
    ['event_id', 'term_id', 'event_status', 'event_date_utc', 'event_language'],
    eventTerms,
  );
  await db.many('event_organizers', ['event_id', 'organizer_id', 'position'], eventOrganizers);
  await db.query(
    "UPDATE terms SET published_count = (SELECT COUNT(*) FROM event_terms et WHERE et.term_id = terms.id AND et.event_language = terms.language AND et.event_status = 'publish') WHERE language = 'hu'",
  );
  await db.analyze();
  await db.close();
  return { series: total, occurrences: occurrences.length, lastId: lastId + total };
}

export function startServer(url, port, extraEnv = {}, nodeFlags = []) {
  return spawn(process.execPath, [...nodeFlags, join(BUILD, 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_REQUESTS: 'false',
      MIGRATIONS_RUN: 'false',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The create floor (bench/create-floor.mjs: the creates' statements from a bare node:http server
 * over mysql2) on `port`, answering `bodyBytes` of JSON as the service's create does.
 */
export function startCreateFloor(url, port, bodyBytes) {
  return spawn(process.execPath, [join(ROOT, 'bench', 'create-floor.mjs')], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), BODY_BYTES: String(bodyBytes) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A bound for a server that never comes up: a loaded machine has taken 30 s to start one. */
const HEALTHY_WITHIN_MS = 180_000;

export async function waitHealthy(port) {
  const end = Date.now() + HEALTHY_WITHIN_MS;
  while (Date.now() < end) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `the server on port ${port} did not answer /health within ${HEALTHY_WITHIN_MS / 1000} s`,
  );
}

export async function stopServer(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** The part of the stack a profiled function belongs to, by its script (null: ask its caller). */
function partOf(frame) {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'V8 and native code';
  if (!url) return functionName === 'stringify' ? 'JSON serialization' : null;
  if (url.includes('/node_modules/typeorm/')) return 'TypeORM (queries, hydration)';
  if (/\/node_modules\/(mysql2|better-sqlite3|lru\.min|sqlstring|iconv-lite|denque)/.test(url))
    return 'database driver';
  if (
    /\/node_modules\/(@nestjs|express|router|body-parser|finalhandler|send|on-finished|raw-body|qs|path-to-regexp|helmet|rxjs|class-validator|class-transformer|nestjs-i18n|pino|pino-http|cookie|accepts|negotiator|type-is|content-type|mime|depd|etag|fresh|vary|proxy-addr|serve-static|merge-descriptors|parseurl|encodeurl|escape-html|statuses|http-errors|media-typer)\//.test(
      url,
    )
  )
    return 'Nest/Express pipeline';
  if (url.includes('/node_modules/')) return 'other packages';
  if (url.startsWith('node:')) return 'Node (http, net, streams)';
  if (url.includes('/dist/')) return 'our code';
  return 'other';
}

/**
 * Splits a .cpuprofile's busy time (not idle) by part of the stack: a sample counts for the
 * function it was taken in, native code for its JavaScript caller. Also the `top` functions by
 * self time.
 */
export function summarizeProfile(file, top = 20) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfMs = new Map();
  const times = profile.timeDeltas;
  profile.samples.forEach((id, i) =>
    selfMs.set(id, (selfMs.get(id) ?? 0) + (times[i + 1] ?? 0) / 1000),
  );
  const parts = new Map();
  const functions = new Map();
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    let node = byId.get(id);
    let part = partOf(node.callFrame);
    while (part === null && parent.has(node.id)) {
      node = byId.get(parent.get(node.id));
      part = partOf(node.callFrame);
    }
    part ??= 'other';
    if (part === 'idle') continue;
    busyMs += ms;
    parts.set(part, (parts.get(part) ?? 0) + ms);
    const own = byId.get(id).callFrame;
    const name = `${own.functionName || '(anonymous)'} ${own.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${own.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  return {
    busyMs,
    parts: [...parts].sort((a, b) => b[1] - a[1]),
    top: [...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms })),
  };
}

/** Creates an editor through the CLI; returns its HTTP Basic header. */
export function createEditor(url, login = 'bench-editor') {
  return createUser(url, login, 'editor');
}

/** A user made by the CLI, as an HTTP Basic header with its application password. */
export function createUser(url, login, role) {
  const out = execFileSync(
    process.execPath,
    [join(BUILD, 'cli/main.js'), 'user:create', login, '--role', role],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, MIGRATIONS_RUN: 'false' },
    },
  ).toString();
  const password = out.trim().split('\n').pop();
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/**
 * The create scenario's requests: an event with a new inline venue, an existing category and
 * two existing tags. `label` sets titles and venue names apart from another run's (a warm-up's),
 * so that every event and venue is new.
 */
export function createRequests(auth, label = '') {
  let n = 0;
  return {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            body: JSON.stringify({
              title: `Bench create ${label}${i}`,
              start_date: '+3 days 18:00',
              end_date: '+3 days 20:00',
              venue: { venue: `Bench hall ${label}${i}`, city: 'Szeged' },
              categories: ['category-1'],
              tags: ['tag-1', 'tag-2'],
            }),
          };
        },
      },
    ],
  };
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used, in ms (Linux /proc), or null elsewhere. */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Resident memory of a process, in MB (Linux /proc), or null elsewhere. */
export function rssMb(pid) {
  return statusMb(pid, 'VmRSS');
}

/** The most resident memory a process has had since it started, in MB (VmHWM), or null. */
export function peakRssMb(pid) {
  return statusMb(pid, 'VmHWM');
}

function statusMb(pid, field) {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    )?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Starts the built server under `node --cpu-prof` with `env` on `port`, puts `load` (autocannon
 * options) on it for one second of warm-up and then `duration` seconds, stops it, and answers
 * autocannon's result with the profile's summary (summarizeProfile, `top` functions).
 */
export async function profileLoad({ url, port, env, load, duration, top = 20 }) {
  const autocannon = (await import('autocannon')).default;
  const dir = mkdtempSync(join(tmpdir(), 'cal-prof-'));
  const server = startServer(url, port, env, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let result;
  try {
    await waitHealthy(port);
    await autocannon({ ...load, duration: 1 });
    result = await autocannon({ ...load, duration });
  } finally {
    await stopServer(server);
  }
  const file = lastCpuProfile(dir);
  return { result, file, summary: summarizeProfile(file, top) };
}

/**
 * The CPU profile a server wrote last in `dir`: a server started without its V8 flags starts
 * itself again (src/heap-flags.ts), and the first process leaves a profile of its few
 * milliseconds too. Their names start with the time they were written.
 */
export function lastCpuProfile(dir) {
  return join(
    dir,
    readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort()
      .at(-1),
  );
}
