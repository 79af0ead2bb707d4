#!/usr/bin/env node
// npm run bench:recurrence [-- --scale 0.1 --duration 3 --connections 4 --port 3951 --sqlite]
//
// The recurring events' scenario alone (npm run bench runs it among the others): the calendar of
// npm run bench (scale 1: 100,000 single events) with 1,000 weekly series of two years beside it
// (104,000 occurrences, in Hungarian so that /hu/ lists them alone), one server computing every
// request (RESPONSE_CACHE_TTL_MS=0), and the lists of occurrences measured against the same
// lists of single events. Prints the table and the ratios; writes nothing else.
import autocannon from 'autocannon';
import {
  benchDatabaseUrl,
  migrate,
  benchArgs,
  resetDatabase,
  seed,
  seedSeries,
  startServer,
  stopServer,
  useBuild,
  waitHealthy,
  seedCounts,
} from './lib.mjs';
import { resolve } from 'node:path';

const USAGE = `Usage: npm run bench:recurrence [-- options]
  --scale N        1 = 100,000 single events and 1,000 weekly series (default 0.1)
  --duration S     seconds measured per scenario, after 1 s of warm-up (default 3)
  --connections N  concurrent autocannon connections (default 4)
  --port P         the server's port (default 3951)
  --sqlite         an SQLite file in a temporary directory instead of MariaDB
  --build DIR      the compiled server to run (default dist/)
BENCH_DATABASE_URL names the database (default mariadb://root@127.0.0.1:3306/cal_bench_recurrence;
its name must contain "bench" or "test": it is dropped and recreated).`;
const args = benchArgs(USAGE, {
  scale: 'N',
  duration: 'S',
  connections: 'N',
  port: 'P',
  build: 'DIR',
  sqlite: null,
  help: null,
});
if (args.build) useBuild(resolve(process.cwd(), String(args.build)));
const URL_ = benchDatabaseUrl(args, 'cal_bench_recurrence');
const SCALE = Number(args.scale ?? 0.1);
const DURATION = Number(args.duration ?? 3);
const CONNECTIONS = Number(args.connections ?? 4);
const PORT = Number(args.port ?? 3951);
const counts = seedCounts(SCALE);

await resetDatabase(URL_);
migrate(URL_);
const { lastId } = await seed(URL_, counts);
const recurring = await seedSeries(URL_, counts, lastId);
console.log(
  `${URL_.split(':')[0]}: ${counts.events} single events, ${recurring.series} weekly series (${recurring.occurrences} occurrences)`,
);
const server = startServer(URL_, PORT, { RESPONSE_CACHE_TTL_MS: '0', RECORD_CACHE_MB: '64' });
const base = `http://127.0.0.1:${PORT}`;
const pairs = [
  ['default list', '/cal/events/v1/events', '/hu/cal/events/v1/events'],
  ['page 20, per_page=10', '/cal/events/v1/events?page=20', '/hu/cal/events/v1/events?page=20'],
  [
    'a month',
    '/cal/events/v1/events?start_date=%2B1%20month&end_date=%2B2%20months',
    '/hu/cal/events/v1/events?start_date=%2B1%20month&end_date=%2B2%20months',
  ],
  ['series=once', '/cal/events/v1/events?series=once', '/hu/cal/events/v1/events?series=once'],
];
const rows = [];
try {
  await waitHealthy(PORT);
  for (const [name, singles, series] of pairs) {
    const row = [name];
    for (const path of [singles, series]) {
      const check = await fetch(`${base}${path}`);
      if (!check.ok) throw new Error(`${path}: ${check.status} ${await check.text()}`);
      await autocannon({ connections: CONNECTIONS, duration: 1, url: `${base}${path}` });
      const r = await autocannon({
        connections: CONNECTIONS,
        duration: DURATION,
        url: `${base}${path}`,
      });
      if (r.errors + r.non2xx) throw new Error(`${path}: ${r.errors + r.non2xx} errors`);
      row.push({ rps: Math.round(r.requests.average), p99: r.latency.p99 });
    }
    rows.push(row);
    console.log(`${name}: singles ${row[1].rps} req/s, series ${row[2].rps} req/s`);
  }
} finally {
  await stopServer(server);
}
console.log(
  [
    '',
    `| computed list (${CONNECTIONS} connections, ${DURATION} s) | single events req/s | p99 ms | series req/s | p99 ms | series / singles |`,
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, a, b]) =>
        `| ${name} | ${a.rps} | ${a.p99} | ${b.rps} | ${b.p99} | ${(b.rps / a.rps).toFixed(2)} |`,
    ),
  ].join('\n'),
);
