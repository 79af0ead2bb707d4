#!/usr/bin/env node
// node bench/hits.mjs [--build DIR] [--writes N] [--port P] [--scale N: as bench:mixed's, 0.1]   (after bench:mixed seeded its database)
//
// How often the response cache answers while events are written, independent of how busy the
// machine is (answers kept 10 minutes, so that only writes drop them): one served server on bench:mixed's database, every read URL twice to warm, then N
// rounds of one event write (as bench:mixed's writer: title and description, one in ten on the
// default list's first page) followed by every read URL once. Prints the response cache's hits
// and misses over the rounds (from /metrics), and the events lists' own.
import {
  benchDatabaseUrl,
  createEditor,
  parseArgs,
  startServer,
  stopServer,
  useBuild,
  waitHealthy,
  mulberry32,
} from './lib.mjs';
import { resolve } from 'node:path';

const args = parseArgs(process.argv.slice(2), { build: 'DIR', writes: 'N', port: 'P', scale: 'N' });
if (args.build) useBuild(resolve(process.cwd(), String(args.build)));
const URL_ = benchDatabaseUrl(args, 'cal_bench_mixed');
const PORT = Number(args.port ?? 3971);
const WRITES = Number(args.writes ?? 40);
const origin = `http://127.0.0.1:${PORT}`;
const base = '/cal/events/v1';
// Answers kept for ten minutes: what drops them is then the writes alone, not the clock.
const server = startServer(URL_, PORT, {
  METRICS_PORT: String(PORT + 1),
  RESPONSE_CACHE_TTL_MS: '600000',
});
try {
  await waitHealthy(PORT);
  const auth = createEditor(URL_, `hits-writer-${Date.now()}`);
  const first = (await (await fetch(`${origin}${base}/events`)).json()).events.map((e) => e.id);
  const rnd = mulberry32(35);
  // Seeded ids as bench:mixed's (bench/lib.mjs seed): venues, organizers, then the events.
  const scale = Number(args.scale ?? 0.1);
  const count = Math.round(100_000 * scale);
  const lowest =
    Math.max(10, Math.round(5_000 * scale)) + Math.max(5, Math.round(2_000 * scale)) + 1;
  const paths = [];
  for (let page = 1; page <= 20; page++) paths.push(`${base}/events?page=${page}`);
  for (let page = 1; page <= 10; page++) paths.push(`${base}/events?page=${page}&per_page=10`);
  for (let i = 1; i <= 5; i++) paths.push(`${base}/events?start_date=2020-01-01&page=${i}`);
  for (let i = 1; i <= 5; i++) paths.push(`${base}/events?search=a&page=${i}`);
  for (const id of first) paths.push(`${base}/events/${id}`);
  const read = async () => {
    for (const path of paths) await (await fetch(`${origin}${path}`)).arrayBuffer();
  };
  const metrics = async () => {
    const text = await (await fetch(`http://127.0.0.1:${PORT + 1}/metrics`)).text();
    const get = (name, cache) =>
      Number(text.match(new RegExp(`^${name}\\{cache="${cache}"\\} (\\d+)`, 'm'))?.[1] ?? 0);
    return Object.fromEntries(
      ['responses', 'event_totals', 'page_anchors', 'records'].map((c) => [
        c,
        { hits: get('cal_cache_hits_total', c), misses: get('cal_cache_misses_total', c) },
      ]),
    );
  };
  await read();
  await read();
  const before = await metrics();
  for (let i = 0; i < WRITES; i++) {
    const id =
      rnd() < 0.1 ? first[Math.floor(rnd() * first.length)] : lowest + Math.floor(rnd() * count);
    const res = await fetch(`${origin}${base}/events/${id}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Hits write ${i}`, description: `Written ${Date.now()}` }),
    });
    await res.arrayBuffer();
    await read();
  }
  const after = await metrics();
  console.log(
    `${WRITES} writes, each followed by ${paths.length} reads (${args.build ?? 'dist'}):`,
  );
  for (const [name, { hits, misses }] of Object.entries(after)) {
    const h = hits - before[name].hits;
    const m = misses - before[name].misses;
    console.log(
      `  ${name}: ${h} hits, ${m} misses (${((100 * h) / Math.max(1, h + m)).toFixed(1)}% hits)`,
    );
  }
} finally {
  await stopServer(server);
}
