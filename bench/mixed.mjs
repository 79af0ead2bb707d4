#!/usr/bin/env node
// npm run bench:mixed [-- --scale 0.1 --duration 5 --connections 10 --rates 0,1,5,20 --sqlite]
//
// Reads while a writer commits. Seeds a calendar like `npm run bench` (bench/lib.mjs),
// starts the built server as configured by default ("served") and a second one without the
// response cache ("computed"), and measures, for each write rate, autocannon's read rate and p99
// on loopback while a writer updates one event after another at that steady rate (an HTTP Basic
// editor, one write at a time): the writer picks an event of the whole calendar, so most writes
// change records the readers do not show, and every tenth one an event of the default list's
// first page, which they do. The reads:
// - "mixed": distinct URLs in turn (list pages with varied filters, per_page and search, single
//   events by id and slug, venues, organizers, categories and tags lists and single venues);
// - the computed default list and a computed single event, which have targets of their own.
// Every figure is given beside the framework ceiling measured in the same run (a fixed JSON body
// of the default list's size). On MySQL/MariaDB the mixed reads also run against WORKERS=2.
// "cold": the cold path itself, the first read of the default list after one of its events
// changed, one connection, a write before each read (firstReads).
// The Markdown table goes to --out (default: printed only).
import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import {
  benchDatabaseUrl,
  createEditor,
  migrate,
  mulberry32,
  parseArgs,
  resetDatabase,
  seed,
  startServer,
  stopServer,
  useBuild,
  waitHealthy,
  seedCounts,
} from './lib.mjs';

const OPTIONS = {
  scale: 'N',
  duration: 'S',
  connections: 'N',
  port: 'P',
  rates: 'LIST',
  out: 'FILE',
  build: 'DIR',
  compare: 'DIR',
  only: 'LIST',
  writers: 'LIST',
  sqlite: null,
  help: null,
};
const USAGE = `Usage: npm run bench:mixed [-- options]
  --scale N        size of the calendar: 1 = 100,000 events (default 0.1; 0.02 with --sqlite)
  --duration S     seconds measured per figure, after 1 s of warm-up (default 5)
  --connections N  concurrent autocannon connections (default 10)
  --rates LIST     writes per second, comma-separated (default 0,1,5,20)
  --only LIST      what to measure, comma-separated: mixed, list, event, cold, workers (default all)
  --writers LIST   how the writer saves, comma-separated: title (a new title and description),
                   form (the whole form as an editor's screen sends it: the event's venue,
                   organizers, categories, tags, cost, dates and description as they are, and a
                   new title) (default title,form)
  --port P         first port: served P, computed P+1, WORKERS=2 P+2 (default 3951)
  --sqlite         seed an SQLite file in a temporary directory instead of MariaDB
  --out FILE       also write the Markdown table there
  --build DIR      the compiled server to run (default dist/)
  --compare DIR    then the same figures with another compiled server (e.g. a copy of dist/ built
                   before a change), on the same data, each beside its own ceiling
BENCH_DATABASE_URL names the database (default mariadb://root@127.0.0.1:3306/cal_bench_mixed).`;
const args = parseArgs(process.argv.slice(2), OPTIONS);
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const URL_ = benchDatabaseUrl(args, 'cal_bench_mixed');
const SQLITE = URL_.startsWith('sqlite:');
const SCALE = Number(args.scale ?? (SQLITE ? 0.02 : 0.1));
const DURATION = Number(args.duration ?? 5);
const CONNECTIONS = Number(args.connections ?? 10);
const PORT = Number(args.port ?? 3951);
const RATES = String(args.rates ?? '0,1,5,20')
  .split(',')
  .map(Number);
const ONLY = new Set(String(args.only ?? 'mixed,list,event,cold,workers').split(','));
/** The forms of the events the whole-form writer saved (an editor's screen loads one once). */
const forms = new Map();
/** What names a figure under whole-form saves. */
const WHOLE_FORM = ', whole-form saves';
const WRITERS = String(args.writers ?? 'title,form').split(',');
for (const writer of WRITERS) {
  if (writer !== 'title' && writer !== 'form') throw new Error(`unknown writer "${writer}"`);
}
const counts = seedCounts(SCALE);
// Seeded ids: venues first, then organizers, then events (bench/lib.mjs seed).
const firstVenue = 1;
const firstEventId = counts.venues + counts.organizers + 1;

console.log(`database ${URL_.split(':')[0]}, scale ${SCALE}: ${JSON.stringify(counts)}`);
// The build measured migrates the calendar and makes its writer too: dist/ may not exist (the
// test suite gives its own build, and a fresh clone has none before `npm start`).
if (args.build) useBuild(resolve(process.cwd(), String(args.build)));
await resetDatabase(URL_);
migrate(URL_);
const { probe, firstEvent } = await seed(URL_, counts);
const auth = createEditor(URL_, 'mixed-writer');

const origin = (port) => `http://127.0.0.1:${port}`;
const rows = [];
const loads = [];
// The build measured, then (--compare DIR) another one on the same data, one after the other.
const builds = [['', args.build ? resolve(process.cwd(), String(args.build)) : undefined]];
if (args.compare) builds.push([String(args.compare), resolve(process.cwd(), String(args.compare))]);
for (const [label, dir] of builds) {
  if (dir) useBuild(dir);
  await measureBuild(label ? ` (${label})` : '');
}

/** Every figure against the servers of the build in use, beside its own ceiling. */
async function measureBuild(label) {
  const servers = [
    ['served', startServer(URL_, PORT, { BENCH_ROUTES: 'true' })],
    // The record cache on, as `npm run bench`'s computed server (it follows the response cache's 0).
    [
      'computed',
      startServer(URL_, PORT + 1, { RESPONSE_CACHE_TTL_MS: '0', RECORD_CACHE_MB: '64' }),
    ],
  ];
  try {
    await waitHealthy(PORT);
    await waitHealthy(PORT + 1);
    const listBody = await (await fetch(`${origin(PORT)}/cal/events/v1/events`)).text();
    const { events, total } = JSON.parse(listBody);
    const firstPage = events.map((e) => e.id);
    const paths = mixedPaths(firstPage, total);
    if (ONLY.has('mixed') || ONLY.has('workers')) {
      for (const path of paths) {
        const res = await fetch(`${origin(PORT)}${path}`);
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      }
      console.log(`${paths.length} distinct read URLs; first event ${firstEvent}`);
    }

    const ceilingPath = `/cal/events/v1/_bench/fixed?bytes=${listBody.length}`;
    await load(origin(PORT), [ceilingPath], 1);
    const ceiling = await load(origin(PORT), [ceilingPath], DURATION);
    rows.push({ name: `framework ceiling (fixed JSON, default list size)${label}`, ...ceiling });
    console.log(`ceiling${label} ${ceiling.rps} req/s, p99 ${ceiling.p99} ms`);

    const figures = [];
    if (ONLY.has('mixed')) figures.push(['mixed distinct URLs, served', PORT, paths]);
    if (ONLY.has('mixed')) figures.push(['mixed distinct URLs, computed', PORT + 1, paths]);
    if (ONLY.has('list'))
      figures.push(['events: default list, computed', PORT + 1, ['/cal/events/v1/events']]);
    if (ONLY.has('event'))
      figures.push([
        'event by id, computed',
        PORT + 1,
        [`/cal/events/v1/events/${firstPage.at(-1) ?? firstEvent}`],
      ]);
    if (ONLY.has('cold')) {
      const cold = await firstReads(origin(PORT), firstPage, ceilingPath);
      const oneCeiling = { name: `framework ceiling, one connection${label}`, ...cold.ceiling };
      rows.push(oneCeiling, {
        name: `events: default list, first read after one of its events changed, served${label}`,
        rate: 'one before each read',
        writes: cold.writes,
        writeErrors: cold.writeErrors,
        ...cold.reads,
        ceiling: oneCeiling,
      });
      console.log(
        `first reads after a change${label}: ${cold.reads.rps} req/s (p99 ${cold.reads.p99} ms) against ${cold.ceiling.rps} (p99 ${cold.ceiling.p99} ms) for the ceiling, one connection`,
      );
    }
    if (!SQLITE && ONLY.has('workers')) {
      servers.push(['workers', startServer(URL_, PORT + 2, { WORKERS: '2' })]);
      await waitHealthy(PORT + 2);
      figures.push(['mixed distinct URLs, served, WORKERS=2', PORT + 2, paths]);
    }
    for (const [name, port, urls] of figures) {
      const runs = RATES.flatMap((rate) =>
        rate ? WRITERS.map((saves) => [rate, saves]) : [[rate, 'title']],
      );
      for (const [rate, saves] of runs) {
        const suffix = rate && saves === 'form' ? WHOLE_FORM : '';
        const row = { name: String(name) + suffix + label, rate, ceiling };
        Object.assign(row, await underWrites(origin(port), urls, rate, saves));
        rows.push(row);
        const target = targetOf(row);
        console.log(
          [row.name, 'at', rate, 'writes/s:', row.rps, 'req/s, p99', row.p99, 'ms']
            .concat(target ? [`(target ${target})`] : [])
            .join(' '),
        );
      }
    }
  } finally {
    for (const [, child] of servers) await stopServer(child);
  }
}

const table = [
  `Reads while a writer commits (\`npm run bench:mixed\`, ${new Date().toISOString().slice(0, 10)}): ${SQLITE ? 'SQLite' : 'MariaDB'}, ${counts.events.toLocaleString('en')} events, ${CONNECTIONS} connections, ${DURATION} s per figure after 1 s of warm-up; load average during the run ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (shared machine: compare ratios within this run).`,
  '',
  '| reads | writes/s | writes done | req/s | p99 ms | ratio to ceiling | p99 / ceiling p99 | target (100,000 events, MariaDB) | errors |',
  '|---|---:|---:|---:|---:|---:|---:|---|---:|',
  ...rows.map((r) =>
    tableRow(
      r.ceiling
        ? [
            r.name,
            r.rate,
            r.writes,
            r.rps,
            r.p99,
            (r.rps / r.ceiling.rps).toFixed(2),
            `${(r.p99 / r.ceiling.p99).toFixed(1)}×`,
            targetOf(r),
            r.errors + r.writeErrors,
          ]
        : [r.name, '–', '–', r.rps, r.p99, '1.00', '1.0×', '', r.errors],
    ),
  ),
].join('\n');
console.log(`\n${table}`);
if (args.out) writeFileSync(resolve(process.cwd(), String(args.out)), `${table}\n`);
const failed = rows.some((r) => r.errors || r.writeErrors);
process.exit(failed ? 1 : 0);

/**
 * The targets of a figure (ratios to the ceiling of the same run, as set for 100,000 events on
 * MariaDB), each followed by whether this run met it: the computed default list at 5 writes/s
 * ≥ 0.5 and at 20 writes/s ≥ 0.35, its p99 at most 1.5× the ceiling's own; a computed single
 * event at 5 writes/s ≥ 0.7; any figure under whole-form saves ≥ 0.8 of its rate under
 * title-only saves at the same rate (the row before it). Figures without a target print nothing.
 */
function targetOf(r) {
  const ratio = r.rps / r.ceiling.rps;
  const p99 = r.p99 / r.ceiling.p99;
  const met = (ok) => (ok ? 'met' : 'missed');
  const out = [];
  const base = r.name.replace(/ \(.*\)$/, '');
  if (base === 'events: default list, computed' && (r.rate === 5 || r.rate === 20)) {
    const floor = r.rate === 5 ? 0.5 : 0.35;
    out.push(`≥ ${floor} ${met(ratio >= floor)}`, `p99 ≤ 1.5× ${met(p99 <= 1.5)}`);
  }
  if (base === 'event by id, computed' && r.rate === 5) out.push(`≥ 0.7 ${met(ratio >= 0.7)}`);
  if (base.startsWith('events: default list, first read after'))
    out.push(`≥ 0.25 ${met(ratio >= 0.25)}`);
  const titleOnly =
    r.name.includes(WHOLE_FORM) &&
    rows.find((row) => row.rate === r.rate && row.name === r.name.replace(WHOLE_FORM, ''));
  if (titleOnly) {
    const share = r.rps / titleOnly.rps;
    out.push(`${share.toFixed(2)} of title-only saves, ≥ 0.8 ${met(share >= 0.8)}`);
  }
  return out.join(', ');
}

/** A Markdown table row. */
function tableRow(cells) {
  return `| ${cells.join(' | ')} |`;
}

/** The distinct URLs readers cycle through: lists of every kind with varied filters and pages. */
function mixedPaths(firstPage, total) {
  const rnd = mulberry32(35);
  const int = (n) => 1 + Math.floor(rnd() * n);
  const base = '/cal/events/v1';
  const eventId = () => firstEventId + Math.floor(rnd() * counts.events);
  // Pages that exist: the default list's (`total` events, `firstPage.length` a page) at most.
  const pagesOf = (perPage, most) => Math.max(1, Math.min(most, Math.ceil(total / perPage)));
  const out = [];
  for (let page = 1; page <= pagesOf(firstPage.length, 20); page++)
    out.push(`${base}/events?page=${page}`);
  for (let page = 1; page <= pagesOf(10, 10); page++)
    out.push(`${base}/events?page=${page}&per_page=10`);
  for (let i = 0; i < 20; i++)
    out.push(`${base}/events?categories=category-${int(counts.categories)}`);
  for (let i = 0; i < 10; i++) out.push(`${base}/events?tags=tag-${int(counts.tags)}`);
  for (let i = 0; i < 10; i++)
    out.push(`${base}/events?venue=${firstVenue + int(counts.venues) - 1}`);
  for (let i = 0; i < 5; i++) out.push(`${base}/events?search=${probe.word}&page=${i + 1}`);
  for (let i = 0; i < pagesOf(firstPage.length, 5); i++)
    out.push(`${base}/events?start_date=2020-01-01&page=${i + 1}`);
  for (const id of firstPage) out.push(`${base}/events/${id}`);
  for (let i = 0; i < 30; i++) out.push(`${base}/events/${eventId()}`);
  const pages = (n) => Math.min(5, Math.ceil(n / 10));
  for (let page = 1; page <= pages(counts.venues); page++) out.push(`${base}/venues?page=${page}`);
  for (let page = 1; page <= pages(counts.organizers); page++)
    out.push(`${base}/organizers?page=${page}`);
  for (let i = 0; i < 10; i++) out.push(`${base}/venues/${firstVenue + int(counts.venues) - 1}`);
  out.push(
    `${base}/categories`,
    `${base}/categories?page=2`,
    `${base}/tags`,
    `${base}/tags?page=2`,
  );
  return out;
}

/** Reads `paths` in turn from `originUrl` for `seconds` (one connection's requests in order). */
async function load(originUrl, paths, seconds) {
  let n = 0;
  const r = await autocannon({
    url: originUrl,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }],
  });
  loads.push(loadavg()[0]);
  return {
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

/**
 * The cold path, as a live site meets it: one of the default list's events is updated (as the
 * writer of the other figures does), then the list is read once, by the first reader after the
 * change, on the served server (the default configuration), then the ceiling route once; again
 * and again for DURATION × 2 seconds, one request at a time on one kept-alive connection. Each
 * side's rate is 1,000 ms over its mean latency: what one connection gets from a server that
 * does nothing else, so the ratio compares the work of a first read with the ceiling's.
 */
async function firstReads(originUrl, firstPage, ceilingPath) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path) =>
    new Promise((done, fail) => {
      const started = process.hrtime.bigint();
      request(`${originUrl}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () =>
          done({ ok: res.statusCode === 200, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      })
        .on('error', fail)
        .end();
    });
  const reads = [];
  const ceilings = [];
  let writes = 0;
  let writeErrors = 0;
  let errors = 0;
  const warmUntil = Date.now() + 1000;
  const until = warmUntil + DURATION * 2000;
  for (let i = 0; Date.now() < until; i++) {
    const id = firstPage[i % firstPage.length];
    const res = await fetch(`${originUrl}/cal/events/v1/events/${id}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ description: `First-read write ${i} at ${Date.now()}` }),
    });
    await res.arrayBuffer();
    if (res.ok) writes++;
    else writeErrors++;
    const read = await get('/cal/events/v1/events');
    const ceiling = await get(ceilingPath);
    if (!read.ok) errors++;
    if (Date.now() < warmUntil) continue;
    reads.push(read.ms);
    ceilings.push(ceiling.ms);
  }
  agent.destroy();
  loads.push(loadavg()[0]);
  const figure = (ms) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    return {
      rps: Math.round(1000 / mean),
      p99:
        Math.round(10 * sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]) / 10,
    };
  };
  return {
    reads: { ...figure(reads), errors },
    ceiling: { ...figure(ceilings), errors: 0 },
    writes,
    writeErrors,
  };
}

/**
 * The reads of `paths` (after one second of warm-up) while events are updated `rate` times a
 * second: nine writes of ten to an event anywhere in the calendar, one to the first page's.
 * `saves` says what a save sends: `title` a new title and description, `form` the whole form
 * (wholeForm) with a new title.
 */
async function underWrites(originUrl, paths, rate, saves) {
  await load(originUrl, paths, 1);
  const rnd = mulberry32(rate + 1);
  const firstPageIds = paths
    .filter((p) => /\/events\/\d+$/.test(p))
    .slice(0, 10)
    .map((p) => Number(p.split('/').pop()));
  const state = { stop: false };
  let writes = 0;
  let writeErrors = 0;
  const writer = (async () => {
    if (!rate) return;
    const started = Date.now();
    for (let i = 0; !state.stop; i++) {
      const due = started + (i * 1000) / rate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      if (state.stop) break;
      const id =
        rnd() < 0.1 && firstPageIds.length
          ? firstPageIds[Math.floor(rnd() * firstPageIds.length)]
          : firstEventId + Math.floor(rnd() * counts.events);
      const body =
        saves === 'form'
          ? { ...(await wholeForm(originUrl, id)), title: `Mixed write ${i}` }
          : { title: `Mixed write ${i}`, description: `Written ${Date.now()}` };
      const res = await fetch(`${originUrl}/cal/events/v1/events/${id}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      if (res.ok) writes++;
      else writeErrors++;
    }
  })();
  try {
    return { ...(await load(originUrl, paths, DURATION)), writes, writeErrors };
  } finally {
    state.stop = true;
    await writer;
  }
}

/**
 * The whole form of event `id` as an editor's screen sends it back: its dates, description,
 * cost, venue, organizers, categories and tags as they are (read once, as its editor).
 */
async function wholeForm(originUrl, id) {
  if (forms.has(id)) return forms.get(id);
  const res = await fetch(`${originUrl}/cal/events/v1/events/${id}?context=edit`, {
    headers: { authorization: auth },
  });
  const event = await res.json();
  const form = {
    description: event.description,
    start_date: event.start_date,
    end_date: event.end_date,
    all_day: event.all_day,
    cost: event.cost_details?.values?.[0] ?? '',
    venue: event.venue?.id ?? 0,
    organizer: (event.organizer ?? []).map((o) => o.id),
    categories: (event.categories ?? []).map((c) => c.id),
    tags: (event.tags ?? []).map((t) => t.id),
  };
  forms.set(id, form);
  return form;
}
