#!/usr/bin/env node
// npm run bench [-- --scale 1 --duration 10 --connections 10 --port 3931 --sqlite --out docs/benchmarks.md]
//
// Seeds a calendar (scale 1: 100,000 events, 5,000 venues, 2,000 organizers, 200 categories,
// 1,000 tags) through SQL into BENCH_DATABASE_URL (default: MariaDB on 127.0.0.1, database
// cal_bench, dropped and recreated), starts the built server, and measures each scenario with
// autocannon for --duration seconds on loopback, together with the framework ceiling: a route of
// the same app returning a fixed JSON body of the default list's size. Every result is shown as
// a ratio to that ceiling. Every read scenario runs three times: against the server as configured
// by default (anonymous reads served by the response cache once computed), against a second
// server with RESPONSE_CACHE_TTL_MS=0 (every request is computed; record payloads, list totals and
// list pages' rows come from their caches until a write changes them) and against a third with
// the record cache off too.
// With --profile, the computed default list also runs under node --cpu-prof, and the table
// gets the split of its CPU time. On MySQL/MariaDB the create is also compared with its floor, the
// same statements from a bare server (bench/create-floor.mjs). Last, the cost of metrics and
// tracing: three servers (none, METRICS_PORT, METRICS_PORT + tracing) loaded in turns
// (bench/overhead-lib.mjs). Notes below the line NOTES_MARKER in the output file are kept.
// The table goes to a temporary file unless --out names one (docs/benchmarks.md to publish it);
// a missed target is flagged in the output and makes the exit code 1.
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  COMPUTED_TARGETS,
  DEEP_TARGET,
  LIST_TARGET,
  missedComputedTargets,
  missedOverheadTargets,
  missedTargets,
  REFERENCE_RUN,
  targetReport,
  targetsApply,
  OVERHEAD_TARGET,
  CALENDAR_TARGETS,
} from './targets.mjs';
import {
  ROOT,
  benchDatabaseUrl,
  createEditor,
  createRequests,
  migrate,
  benchArgs,
  profileLoad,
  resetDatabase,
  rssMb,
  peakRssMb,
  seed,
  smokeLoad,
  seedSeries,
  startCreateFloor,
  startServer,
  stopServer,
  useBuild,
  waitHealthy,
  seedCounts,
} from './lib.mjs';
import { WEBHOOK_CREATE_TARGET, webhookCreates, webhookLines } from './webhooks.mjs';
import {
  compareExtensions,
  extensionLines,
  missedExtensionTargets,
  seedVirtual,
} from './extensions-lib.mjs';
import {
  compareOverhead,
  INSTRUMENTATION_HEADER,
  instrumentationCost,
  instrumentationLine,
  overheadLines,
  TENTH_SAMPLED,
} from './overhead-lib.mjs';

const USAGE = `Usage: npm run bench [-- options]
  --scale N        size of the calendar: 1 = 100,000 events (default; 0.1 with --sqlite)
  --duration S     seconds measured per scenario, after 1 s of warm-up (creates: 10 s; default 5)
  --connections N  concurrent autocannon connections (default 10)
  --port P         first port; the second server (response cache off) uses P+1, the third
                   (every cache off) P+2, the webhook creates, the WORKERS=1 vs WORKERS=2
                   comparison (MySQL/MariaDB) and the profiled server P+3, the create floor
                   (MySQL/MariaDB) P+4 (default 3931); the comparison of metrics and tracing
                   on and off, then the reads while a writer commits (bench/mixed.mjs, a
                   calendar of its own) run last, on P to P+2 again
  --sqlite         seed an SQLite file in a temporary directory instead of MariaDB
  --out FILE       where the Markdown table goes (default: a temporary file);
                   --out docs/benchmarks.md publishes it
  --profile        also profile the computed default list (node --cpu-prof)
  --smoke          two requests per connection and scenario, no warm-up, no targets: checks
                   that every scenario answers without errors (npm test runs it on SQLite)
  --build DIR      the compiled server to run (default dist/, from npm run build)
  --help           this help
BENCH_DATABASE_URL names the database (default mariadb://root@127.0.0.1:3306/cal_bench; its name
must contain "bench" or "test": it is dropped and recreated). The targets are set for 100,000
events on MySQL/MariaDB (--scale 1 without --sqlite): there a missed one makes the exit code 1;
other runs list what they would miss and exit 0 (1 on errors).`;
const OPTIONS = {
  scale: 'N',
  duration: 'S',
  connections: 'N',
  port: 'P',
  out: 'FILE',
  build: 'DIR',
  sqlite: null,
  profile: null,
  smoke: null,
  help: null,
};
const args = benchArgs(USAGE, OPTIONS, ['scale', 'duration', 'connections', 'port']);
if (args.build) useBuild(resolve(process.cwd(), String(args.build)));
const SMOKE = Boolean(args.smoke);
const URL_ = benchDatabaseUrl(args, 'cal_bench');
const SQLITE = URL_.startsWith('sqlite:');
const SCALE = Number(args.scale ?? (SQLITE ? 0.1 : 1));
const DURATION = Number(args.duration ?? 5);
const CONNECTIONS = Number(args.connections ?? 10);
const CREATE_WARM_UP_S = SMOKE ? 0 : 10;
const PORT = Number(args.port ?? 3931);
const OUT = args.out
  ? resolve(process.cwd(), String(args.out))
  : join(mkdtempSync(join(tmpdir(), 'cal-bench-out-')), 'benchmarks.md');
const counts = seedCounts(SCALE);
const base = `http://127.0.0.1:${PORT}`;

console.log(`database ${URL_.split(':')[0]}, scale ${SCALE}: ${JSON.stringify(counts)}`);
await resetDatabase(URL_);
migrate(URL_);
let t0 = Date.now();
const { probe, geo, firstEvent, firstEventSlug, lastId } = await seed(URL_, counts);
// Recurring events (CONTRACT §9): weekly series in Hungarian beside the single events (the /hu/ lists show them alone).
const recurring = await seedSeries(URL_, counts, lastId);
// Every 10th event online (the Virtual Events module), for the comparison with and without it.
await seedVirtual(URL_);
console.log(
  `seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s (and ${recurring.series} series, ${recurring.occurrences} occurrences)`,
);
const SERIES_LIST = `events: ${recurring.series.toLocaleString('en')} weekly series (${recurring.occurrences.toLocaleString('en')} occurrences), default list`;

const auth = createEditor(URL_);
const CALENDAR_MONTH = 'page: month view (next month)';
const CALENDAR_WEEK = 'page: week view';
const NOTES_MARKER =
  '<!-- Notes below this line are written by hand and kept by npm run bench. -->';

const server = startServer(URL_, PORT, { BENCH_ROUTES: 'true' });
const computedServer = startServer(URL_, PORT + 1, {
  RESPONSE_CACHE_TTL_MS: '0',
  RECORD_CACHE_MB: '64',
});
const coldServer = startServer(URL_, PORT + 2, {
  RESPONSE_CACHE_TTL_MS: '0',
  RECORD_CACHE_MB: '0',
});
const variants = [
  ['computed', `http://127.0.0.1:${PORT + 1}`],
  ['cold', `http://127.0.0.1:${PORT + 2}`],
];
const results = [];
let rss = { served: {}, computed: {}, cold: {} };
/** The served worker's peak resident memory (MB) and the load during which it was reached. */
let servedPeak = { mb: 0, during: 'start-up' };
try {
  for (const port of [PORT, PORT + 1, PORT + 2]) await waitHealthy(port);
  const listBody = await (await fetch(`${base}/cal/events/v1/events`)).text();
  // Page 1,000 at scale 1; the last page on smaller calendars.
  const deepPage = Math.min(1000, JSON.parse(listBody).total_pages);
  const fenced = await (
    await fetch(`${base}/cal/events/v1/events?geoloc_lat=${geo.lat}&geoloc_lng=${geo.lng}`)
  ).json();
  geo.total = fenced.total;
  console.log(
    `geofence: 25 mi around ${geo.lat}, ${geo.lng}: ${geo.total} events of ${JSON.parse(listBody).total} in the default window`,
  );
  // [name, path, the computed path's target class (bench/targets.mjs)]
  const scenarios = [
    [
      'framework ceiling (fixed JSON, same size as the default list)',
      `/cal/events/v1/_bench/fixed?bytes=${listBody.length}`,
    ],
    ['events: default list', '/cal/events/v1/events', 'list'],
    // The geofence: venues within 25 miles of a point (one venue's own coordinates), default window.
    [
      'events: geofenced list (25 mi)',
      `/cal/events/v1/events?geoloc_lat=${geo.lat}&geoloc_lng=${geo.lng}`,
    ],
    ['events: page 1, per_page=10', '/cal/events/v1/events?page=1&per_page=10', 'list'],
    [
      `events: page ${deepPage}, per_page=10`,
      `/cal/events/v1/events?page=${deepPage}&per_page=10`,
      'list',
    ],
    [
      'events: category + venue + date range + search',
      `/cal/events/v1/events?categories=${probe.category}&venue=${probe.venue}&start_date=${probe.from}&end_date=%2B2%20years&search=${probe.word}`,
      'list',
    ],
    // Recurring events: the list of occurrences against the list of single events (the default list).
    [SERIES_LIST, '/hu/cal/events/v1/events', 'list'],
    ['events: the same series shown once (series=once)', '/hu/cal/events/v1/events?series=once'],
    // The public pages: an event's, and the calendar's month and week views next month (a busy
    // window: every event of it and its series' occurrences in one page, issue 50).
    ['page: single event', `/event/${firstEventSlug}/`],
    [CALENDAR_MONTH, `/events/month/${calendarMonth()}/`],
    [CALENDAR_WEEK, `/events/week/${calendarMonth()}-10/`],
    ['event by id', `/cal/events/v1/events/${firstEvent}`, 'record'],
    ['event by slug', `/cal/events/v1/events/by-slug/${firstEventSlug}`, 'record'],
    ['venues list', '/cal/events/v1/venues', 'record'],
    ['organizers list', '/cal/events/v1/organizers', 'record'],
    ['categories list', '/cal/events/v1/categories', 'record'],
    ['tags list', '/cal/events/v1/tags', 'record'],
  ];
  // Which load took the served worker's resident memory to its peak (VmHWM only rises): read
  // after each of its scenarios, before the other servers are loaded.
  const servedPeakAfter = (name) => {
    const mb = peakRssMb(server.pid);
    if (mb === null || mb <= servedPeak.mb) return;
    servedPeak = { mb, during: name };
    console.log(`the served worker's resident memory reached ${mb} MB (its peak so far)`);
  };
  for (const [index, [name, path, target]] of scenarios.entries()) {
    // The pages are asked for as browsers ask (gzip: the server compresses HTML, CONTRACT §7),
    // the REST answers as the plugin's clients ask (no encoding).
    const headers = name.startsWith('page: ') ? { 'accept-encoding': 'gzip' } : {};
    const check = await fetch(`${base}${path}`);
    if (!check.ok) throw new Error(`${name}: ${check.status} ${await check.text()}`);
    // One second of the same load first, not measured: the JIT and the connection pools warm up.
    await warmUp(`${base}${path}`, headers);
    const result = { name, target, ...(await measure({ url: `${base}${path}`, headers })) };
    servedPeakAfter(name);
    // The ceiling route is never cached: measuring it again would only add noise.
    if (index > 0) {
      for (const [variant, origin] of variants) {
        await warmUp(`${origin}${path}`, headers);
        result[variant] = await measure({ url: `${origin}${path}`, headers });
      }
    }
    results.push(result);
    console.log(
      `${name}: ${result.rps} req/s${result.computed ? `, computed ${result.computed.rps} req/s, cold ${result.cold.rps} req/s` : ''}`,
    );
  }
  // Warmed up with events and venues of other names (every create writes new ones), for
  // CREATE_WARM_UP_S: the reads before it do not run the write path's code (validation, inserts),
  // and V8 keeps optimizing it for about ten seconds at this rate (the same server made 97, 136
  // and 140 creates/s after 1, 6 and 12 s): a shorter warm-up measures a server that just started.
  const createUrl = `${base}/cal/events/v1/events`;
  const sample = await fetch(createUrl, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: createRequests(auth, 'sample ').requests[0].setupRequest({}).body,
  });
  if (sample.status !== 201) throw new Error(`create: ${sample.status} ${await sample.text()}`);
  const createBytes = (await sample.text()).length;
  if (!SMOKE)
    await autocannon({
      connections: CONNECTIONS,
      duration: CREATE_WARM_UP_S,
      url: createUrl,
      ...createRequests(auth, 'warm-up '),
    });
  const created = {
    name: 'event create with an inline venue and terms (HTTP Basic, editor)',
    create: true,
    ...(await measure({ url: createUrl, ...createRequests(auth) })),
  };
  servedPeakAfter('the creates (warm-up and measured)');
  results.push(created);
  console.log(`create: ${created.rps} req/s`);
  if (!SQLITE) {
    // The same creates' statements from a bare server (bench/create-floor.mjs): the floor.
    const floor = startCreateFloor(URL_, PORT + 4, createBytes);
    try {
      await waitHealthy(PORT + 4);
      const floorUrl = `http://127.0.0.1:${PORT + 4}/cal/events/v1/events`;
      if (!SMOKE)
        await autocannon({
          connections: CONNECTIONS,
          duration: CREATE_WARM_UP_S,
          url: floorUrl,
          ...createRequests(auth, 'floor warm-up '),
        });
      created.floor = await measure({ url: floorUrl, ...createRequests(auth, 'floor ') });
      console.log(`create floor: ${created.floor.rps} req/s, ${created.floor.errors} errors`);
      if (created.floor.errors) throw new Error('the create floor answered errors: see its stderr');
    } finally {
      await stopServer(floor);
    }
  }
  const servers = { served: server, computed: computedServer, cold: coldServer };
  rss = Object.fromEntries(
    Object.entries(servers).map(([name, { pid }]) => [
      name,
      { end: rssMb(pid), peak: peakRssMb(pid) },
    ]),
  );
  console.log(`RSS at the end and at the peak of the run: ${JSON.stringify(rss)} MB`);
  console.log(
    `the served worker reached its peak (${servedPeak.mb} MB) during: ${servedPeak.during}`,
  );
} finally {
  await stopServer(server);
  await stopServer(computedServer);
  await stopServer(coldServer);
}

// Creates with three active webhook subscriptions against creates without.
const hooks = await webhookCreates({
  url: URL_,
  port: PORT + 3,
  auth,
  duration: DURATION < 10 ? 10 : DURATION,
  warmUp: CREATE_WARM_UP_S,
  // Rounds of creates vary by ±15 % on a loaded two-core machine: the ratio is of four each.
  rounds: 4,
  connections: CONNECTIONS,
  smoke: SMOKE,
});

// Computed reads (no response cache) with WORKERS=2 against one worker, on the same
// data; MySQL/MariaDB only (SQLite refuses more than one worker).
const WORKER_TARGET = 1.6;
const workerRows = [];
if (!SQLITE) {
  const paths = [
    ['events: default list', '/cal/events/v1/events'],
    ['events: page 1, per_page=10', '/cal/events/v1/events?page=1&per_page=10'],
    ['event by id', `/cal/events/v1/events/${firstEvent}`],
    ['categories list', '/cal/events/v1/categories'],
  ];
  const measured = {};
  for (const workers of [1, 2]) {
    const child = startServer(URL_, PORT + 3, {
      RESPONSE_CACHE_TTL_MS: '0',
      RECORD_CACHE_MB: '64',
      WORKERS: String(workers),
    });
    try {
      await waitHealthy(PORT + 3);
      // The other workers start once the first listens.
      await new Promise((r) => setTimeout(r, 3000));
      for (const [name, path] of paths) {
        await warmUp(`http://127.0.0.1:${PORT + 3}${path}`);
        (measured[name] ??= {})[workers] = await measure({
          url: `http://127.0.0.1:${PORT + 3}${path}`,
        });
      }
    } finally {
      await stopServer(child);
    }
  }
  for (const [name] of paths) {
    const { 1: one, 2: two } = measured[name];
    workerRows.push({ name, one, two, ratio: two.rps / one.rps });
    console.log(
      `${name}: 1 worker ${one.rps} req/s, 2 workers ${two.rps} req/s (${(two.rps / one.rps).toFixed(2)}×)`,
    );
  }
}
const workerLines = workerRows.length
  ? [
      '',
      `Computed reads (RESPONSE_CACHE_TTL_MS=0) with WORKERS=2 against one worker, same data and load (target ≥ ${WORKER_TARGET}× on 2 cores; ` +
        'the load generator and the database run on the same two cores, so a 2-core machine cannot show the full gain):',
      '',
      '| scenario | 1 worker req/s | p99 ms | 2 workers req/s | p99 ms | ratio |',
      '|---|---:|---:|---:|---:|---:|',
      ...workerRows.map(
        (r) =>
          `| ${r.name} | ${r.one.rps} | ${r.one.p99} | ${r.two.rps} | ${r.two.p99} | ${r.ratio.toFixed(2)}×${r.ratio < WORKER_TARGET ? ' (below target)' : ''} |`,
      ),
    ]
  : ['', 'WORKERS=2 against one worker: not measured on SQLite (one worker only).'];

// What METRICS_PORT and tracing cost. Three servers of this build side by side on the
// same data (none; metrics; metrics and tracing to a sink), loaded in turns, round after round,
// on the ports the first three servers used. --smoke: the served reads only, one round.
const overheadRuns = [];
{
  const common = {
    url: URL_,
    port: PORT,
    rounds: SMOKE ? 1 : 3,
    duration: DURATION,
    connections: CONNECTIONS,
    smoke: SMOKE,
  };
  overheadRuns.push(
    await compareOverhead({
      ...common,
      paths: [
        ['events: default list, served', '/cal/events/v1/events'],
        ['event by id, served', `/cal/events/v1/events/${firstEvent}`],
      ],
    }),
  );
  if (!SMOKE) {
    overheadRuns.push(
      await compareOverhead({
        ...common,
        env: { RESPONSE_CACHE_TTL_MS: '0' },
        paths: [
          ['events: default list, computed', '/cal/events/v1/events'],
          ['event by id, computed', `/cal/events/v1/events/${firstEvent}`],
        ],
      }),
    );
  }
}
// The instrumentation's own share of a profiled server's CPU: steadier than throughput on a
// machine that runs other work.
const instrumentationRows = [];
if (!SMOKE) {
  for (const [name, env, sampling] of [
    ['events: default list, served', {}, 'all'],
    ['events: default list, served', TENTH_SAMPLED, 'a tenth'],
    ['events: default list, computed', { RESPONSE_CACHE_TTL_MS: '0' }, 'all'],
  ]) {
    const cost = await instrumentationCost({
      url: URL_,
      port: PORT,
      env,
      path: '/cal/events/v1/events',
      duration: DURATION,
      connections: CONNECTIONS,
    });
    instrumentationRows.push(instrumentationLine(name, sampling, cost));
  }
}
// What the extension modules cost the list: the same build with and without them, in turns.
const extensionRuns = await compareExtensions({
  url: URL_,
  port: PORT,
  rounds: SMOKE ? 1 : 3,
  duration: DURATION,
  connections: CONNECTIONS,
  smoke: SMOKE,
});
const overheadSection = overheadRuns.flatMap((run, i) => [
  '',
  ...overheadLines(
    run,
    i === 0
      ? `Metrics and tracing (target: metrics with tracing off cost at most ${(OVERHEAD_TARGET * 100).toFixed(0)} % of the throughput), ` +
          'three servers of this build on the same data: none, METRICS_PORT set, METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT set ' +
          '(every request sampled, spans sent to a local OTLP/HTTP sink that drops them). Served:'
      : 'Computed (RESPONSE_CACHE_TTL_MS=0):',
  ),
]);
if (instrumentationRows.length) {
  overheadSection.push(
    '',
    `CPU profile of a server with METRICS_PORT and tracing on, 1 s of warm-up and ${DURATION} s of load (start-up left out): ` +
      'the time spent in prom-client and src/metrics, and in @opentelemetry and src/tracing, Node work they ask for included:',
    '',
    ...INSTRUMENTATION_HEADER,
    ...instrumentationRows,
  );
}

// The CPU profile of the computed default list, split by part of the stack.
let profileLines = [];
if (args.profile) {
  const { result, summary } = await profileLoad({
    url: URL_,
    port: PORT + 3,
    env: { RESPONSE_CACHE_TTL_MS: '0', RECORD_CACHE_MB: '64' },
    load: { connections: CONNECTIONS, url: `http://127.0.0.1:${PORT + 3}/cal/events/v1/events` },
    duration: DURATION,
    top: 10,
  });
  const requests = result.requests.total;
  profileLines = [
    '',
    `CPU profile of the computed default list (node --cpu-prof, ${requests} requests plus start-up and warm-up; ` +
      `${(summary.busyMs / requests).toFixed(2)} ms of busy CPU per request, start-up included), by part of the stack:`,
    '',
    '| part | share |',
    '|---|---:|',
    ...summary.parts.map(
      ([part, ms]) => `| ${part} | ${((100 * ms) / summary.busyMs).toFixed(1)} % |`,
    ),
  ];
}

const ceiling = results[0].rps;
const page1 = results.find((r) => r.name.includes('page 1,'));
const page1000 =
  results.find((r) => r.name.startsWith('events: page ') && !r.name.includes('page 1,')) ?? page1;
const ratio = (r) => (r.rps / ceiling).toFixed(2);
const cells = (r) => (r ? `${r.rps} | ${r.p99} | ${ratio(r)}` : '– | – | –');
const deepServed = page1000.p99 / page1.p99;
const deepComputed = page1000.computed.p99 / page1.computed.p99;
// Reads while a writer commits 0 to 20 times a second, and the cold path (bench/mixed.mjs,
// issue 35), on a calendar of their own (this database's name with `_mixed`, or a temporary
// SQLite file) and the ports the first servers used. --smoke: two write rates for a second each.
const mixed = mixedFigures();

const create = results.find((r) => r.create);
const calendar = calendarLines();
const missed = [
  // The deep-page rule compares the computed column (named `uncached` in targets.mjs).
  ...missedTargets({
    ceiling,
    list: results[1],
    page1: { ...page1, uncached: page1.computed },
    deep: { ...page1000, uncached: page1000.computed },
  }),
  ...missedComputedTargets({
    ceiling,
    rows: results.filter((r) => r.computed),
    create,
    rssMb: rss.served.peak,
  }),
  ...(hooks.ratio >= WEBHOOK_CREATE_TARGET
    ? []
    : [
        `creates with 3 webhook subscriptions at ${hooks.ratio.toFixed(2)} of the rate without (target ≥ ${WEBHOOK_CREATE_TARGET})`,
      ]),
  ...overheadRuns.flatMap(missedOverheadTargets),
  ...missedExtensionTargets(extensionRuns),
  ...mixed.missed,
  ...calendar.missed,
];
const kept = existsSync(OUT) && readFileSync(OUT, 'utf8').split(NOTES_MARKER)[1];
const lines = [
  '# Benchmarks',
  '',
  `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ` +
    `${SQLITE ? 'SQLite (embedded)' : 'MariaDB/MySQL'} at scale ${SCALE} (${counts.events.toLocaleString('en')} events, ${counts.venues.toLocaleString('en')} venues, ` +
    `${counts.organizers.toLocaleString('en')} organizers, ${counts.categories} categories, ${counts.tags.toLocaleString('en')} tags). autocannon, ${CONNECTIONS} connections, ` +
    `${DURATION} s per scenario after 1 s of warm-up (creates: ${CREATE_WARM_UP_S} s), loopback; the load generator and the database share the machine with the server.`,
  '',
  '"Served" is the server as configured by default: an anonymous read is computed once, then answered from the response cache ' +
    'until a write or RESPONSE_CACHE_TTL_MS (1 s) passes, so a hit skips the database and JSON serialization and can beat the ceiling, ' +
    'which serializes its body on every request. "Computed" is a second server with RESPONSE_CACHE_TTL_MS=0: every request is computed, ' +
    'the payload of each record it shows coming from the record cache (RECORD_CACHE_MB) when another request built it and no write changed it since, ' +
    "and a list's total and its page's rows from their caches while no write changed the list, " +
    'as happens to distinct URLs showing the same records, authenticated reads and crawlers after the first pass. ' +
    '"Cold" is a third server with both caches off (RECORD_CACHE_MB=0): every record is read, embedded and mapped on every request, ' +
    'the worst case of a first reader (after every record of the page changed, or a restart); `npm run bench:mixed` measures the first read after one record changed.',
  '',
  '| scenario | served req/s | p99 ms | ratio | computed req/s | p99 ms | ratio | cold req/s | p99 ms | ratio | errors |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${cells(r)} | ${cells(r.computed)} | ${cells(r.cold)} | ${r.errors + (r.computed?.errors ?? 0) + (r.cold?.errors ?? 0)} |`,
  ),
  '',
  ...(create.floor
    ? [
        `Create floor: the same creates' SQL statements sent by a bare node:http server over mysql2 (bench/create-floor.mjs: no routing, validation, ` +
          `dates, slugs, mapping or ORM) run at ${create.floor.rps} req/s with p99 ${create.floor.p99} ms on this machine; ` +
          `the service's create is ${(create.rps / create.floor.rps).toFixed(2)} of it. Creates are warmed up for ${CREATE_WARM_UP_S} s, the floor too.`,
        '',
      ]
    : []),
  `RSS through the run (peak, then at the end): served ${rss.served.peak} and ${rss.served.end} MB (its peak reached during ${servedPeak.during}), computed ${rss.computed.peak} and ${rss.computed.end} MB, cold ${rss.cold.peak} and ${rss.cold.end} MB (target for the served worker, whose caches are at their defaults: a peak ≤ ${COMPUTED_TARGETS.rssMb} MB).`,
  '',
  `Targets: default list as served ≥ ${LIST_TARGET.toFixed(2)} of the ceiling → ${ratio(results[1])}; computed: event lists ` +
    `≥ ${COMPUTED_TARGETS.list.ratio.toFixed(2)} with p99 ≤ ${COMPUTED_TARGETS.list.p99} ms, single events and the other lists ≥ ${COMPUTED_TARGETS.record.ratio.toFixed(2)}, ` +
    `create ≥ ${COMPUTED_TARGETS.create.rps} req/s with p99 ≤ ${COMPUTED_TARGETS.create.p99} ms; deep page (${page1000.name.replace('events: ', '')}) p99 within ${DEEP_TARGET}× of page 1 → served ` +
    `${deepServed.toFixed(2)}×, computed ${deepComputed.toFixed(2)}×. ` +
    'SQL queries per list request depend neither on per_page nor on the page number (asserted by test/events/events-list.e2e-spec.ts, ' +
    'and for translations by test/events/translations.e2e-spec.ts): a page takes its ids from the listing index, then reads only the rows whose payloads are not cached.',
  '',
  `The geofenced list keeps the events whose venue lies within 25 miles of ${geo.lat}, ${geo.lng} (one venue's coordinates; ` +
    `${counts.venues.toLocaleString('en')} venues spread over Europe, 95% with coordinates): ${geo.total} events in the default window. ` +
    'It takes the venues of a bounding box from IDX_venues_geo, then the exact great-circle test, in the same number of queries as the default list.',
  '',
  recurringLine(
    results[1],
    results.find((r) => r.name === SERIES_LIST),
  ),
  ...calendar.lines,
  ...webhookLines(hooks),
  ...mixed.lines,
  ...workerLines,
  ...overheadSection,
  '',
  ...extensionLines(extensionRuns),
  ...profileLines,
  ...(missed.length
    ? [
        '',
        ...(targetsApply({ scale: SCALE, sqlite: SQLITE })
          ? missed.map((m) => `**Missed target:** ${m}`)
          : [
              `Targets are set for ${REFERENCE_RUN}; at this scale and engine they are not applied. They would be missed by:`,
              ...missed.map((m) => `- ${m}`),
            ]),
      ]
    : []),
  '',
  NOTES_MARKER,
  ...(kept ? [kept.replace(/^\n+/, '').trimEnd()] : []),
  '',
];
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, lines.join('\n'));
console.log(`\n${lines.join('\n')}\nwritten to ${OUT}`);
if (SMOKE) {
  // Figures from a few requests mean nothing: only errors count.
  const failed = [
    ...results.filter((r) => r.errors || r.computed?.errors || r.cold?.errors),
    ...overheadRuns.flatMap((run) =>
      Object.entries(run.results)
        .filter(([, rows]) => rows.some((r) => r.errors))
        .map(([name]) => ({ name })),
    ),
  ];
  for (const r of failed) console.log(`ERRORS: ${r.name}`);
  if (hooks.errors) console.log('ERRORS: webhook creates');
  if (!mixed.ok) console.log('ERRORS: reads while a writer commits (bench/mixed.mjs)');
  if (failed.length || hooks.errors || !mixed.ok) process.exitCode = 1;
} else {
  if (!mixed.ok) console.log('ERRORS: reads while a writer commits (bench/mixed.mjs)');
  const report = targetReport({ scale: SCALE, sqlite: SQLITE, missed });
  for (const line of report.lines) console.log(line);
  if (report.failed || !mixed.ok) process.exitCode = 1;
}

/** Next month (`YYYY-MM`), in UTC: inside the seeded window, busy with events and series. */
function calendarMonth() {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 7);
}

/** The calendar's views against the single event page (issue 50's targets), served and computed. */
function calendarLines() {
  const single = results.find((r) => r.name === 'page: single event');
  const rows = [CALENDAR_MONTH, CALENDAR_WEEK].map((name) => results.find((r) => r.name === name));
  if (!single || rows.some((r) => !r)) return { lines: [], missed: [] };
  const flagged = [];
  const line = (r) => {
    const served = r.rps / single.rps;
    const computed = r.computed.rps / single.computed.rps;
    const p99 = r.computed.p99 / single.computed.p99;
    if (!SMOKE && r.name === CALENDAR_MONTH) {
      if (!(served >= CALENDAR_TARGETS.served))
        flagged.push(
          `month view served at ${served.toFixed(2)} of the event page (target ≥ ${CALENDAR_TARGETS.served})`,
        );
      if (!(computed >= CALENDAR_TARGETS.computed))
        flagged.push(
          `month view computed at ${computed.toFixed(2)} of the event page (target ≥ ${CALENDAR_TARGETS.computed})`,
        );
      if (!(p99 <= CALENDAR_TARGETS.p99))
        flagged.push(
          `month view computed p99 at ${p99.toFixed(2)}× the event page's (target ≤ ${CALENDAR_TARGETS.p99}×)`,
        );
    }
    return `| ${r.name} | ${served.toFixed(2)} | ${computed.toFixed(2)} | ${p99.toFixed(2)}× |`;
  };
  const table = [
    '',
    `Calendar views against the single event page, every page asked for with Accept-Encoding: gzip as browsers ask (targets for the month: served ≥ ${CALENDAR_TARGETS.served}, computed ≥ ${CALENDAR_TARGETS.computed}, computed p99 ≤ ${CALENDAR_TARGETS.p99}×):`,
    '',
    '| view | served rate | computed rate | computed p99 |',
    '|---|---:|---:|---:|',
    ...rows.map(line),
  ];
  return { lines: table, missed: flagged };
}

/** The recurring events' scenario: the list of occurrences against the default list of single events. */
function recurringLine(singles, series) {
  const share = (a, b) => (a && b ? (a.rps / b.rps).toFixed(2) : '–');
  return (
    `Recurring events: ${recurring.series.toLocaleString('en')} weekly series of two years in Hungarian ` +
    `(${recurring.occurrences.toLocaleString('en')} occurrences in event_occurrences, /hu/ lists them alone) list at ` +
    `${share(series, singles)} (served), ${share(series.computed, singles.computed)} (computed) and ` +
    `${share(series.cold, singles.cold)} (cold) of the rate of the default list of ${counts.events.toLocaleString('en')} single events.`
  );
}

/**
 * bench/mixed.mjs run as it is (its own seed, servers and writer), its table and its missed
 * targets: `ok` is false when it failed or answered errors.
 */
function mixedFigures() {
  const out = join(mkdtempSync(join(tmpdir(), 'cal-bench-mixed-')), 'mixed.md');
  const argv = [
    join(ROOT, 'bench', 'mixed.mjs'),
    '--scale',
    String(SCALE),
    '--port',
    String(PORT),
    '--connections',
    String(CONNECTIONS),
    '--out',
    out,
    ...(SMOKE
      ? ['--duration', '1', '--rates', '0,5', '--only', 'list,cold']
      : ['--duration', String(DURATION)]),
    ...(SQLITE ? ['--sqlite'] : []),
    ...(args.build ? ['--build', resolve(process.cwd(), String(args.build))] : []),
  ];
  const env = { ...process.env };
  if (SQLITE) delete env.BENCH_DATABASE_URL;
  else env.BENCH_DATABASE_URL = URL_.replace(/\/([^/?]+)(\?|$)/, '/$1_mixed$2');
  const run = spawnSync(process.execPath, argv, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const table = existsSync(out) ? readFileSync(out, 'utf8').trim() : '';
  const missedRows = table
    .split('\n')
    .filter((row) => row.startsWith('| ') && row.includes(' missed'))
    .map((row) => {
      const [name, rate, , , , , , target] = row
        .split(' | ')
        .map((cell) => cell.replace(/^\| /, ''));
      return `${name} at ${rate} writes/s: ${target}`;
    });
  return { ok: run.status === 0, lines: table ? ['', table] : [], missed: missedRows };
}

async function warmUp(url, headers = {}) {
  if (!SMOKE) await autocannon({ connections: CONNECTIONS, duration: 1, url, headers });
}

async function measure(opts) {
  const load = SMOKE ? smokeLoad(CONNECTIONS) : { duration: DURATION };
  const r = await autocannon({ connections: CONNECTIONS, ...load, ...opts });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}
