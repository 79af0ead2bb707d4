#!/usr/bin/env node
// npm run bench:overhead [-- --scale 0.1 --rounds 5 --duration 3 --connections 10 --port 3951 --reuse]
//
// What METRICS_PORT and OpenTelemetry tracing cost, on its own: seeds a calendar
// into BENCH_DATABASE_URL (default MariaDB, cal_overhead_bench) unless --reuse, then compares
// three servers of the same build side by side (bench/overhead-lib.mjs), as served (response
// cache on) and computed (RESPONSE_CACHE_TTL_MS=0). `npm run bench` runs the same comparison.
import { benchArgs, benchDatabaseUrl, migrate, resetDatabase, seed, seedCounts } from './lib.mjs';
import { missedOverheadTargets } from './targets.mjs';
import {
  compareOverhead,
  INSTRUMENTATION_HEADER,
  instrumentationCost,
  instrumentationLine,
  overheadLines,
  TENTH_SAMPLED,
} from './overhead-lib.mjs';

const USAGE = `Usage: npm run bench:overhead -- [options]
  --scale N        size of the calendar (default 0.1: 10,000 events)
  --rounds N       rounds per scenario, each loading the three servers in turn (default 5)
  --duration S     seconds per server and round (default 3)
  --connections N  autocannon connections (default 10)
  --port P         the servers take P, P+1 and P+2 (default 3951)
  --sqlite         an SQLite file in a temporary directory instead of MariaDB
  --reuse          keep the seeded database instead of seeding it again
  --help           this help
Exit code 1 when metrics (tracing off) cost more than 3 % of a scenario's throughput.`;
const OPTIONS = {
  scale: 'N',
  rounds: 'N',
  duration: 'S',
  connections: 'N',
  port: 'P',
  sqlite: null,
  reuse: null,
  help: null,
};
const args = benchArgs(USAGE, OPTIONS, ['scale', 'rounds', 'duration', 'connections', 'port']);
const url = benchDatabaseUrl(args, 'cal_overhead_bench');
const scale = Number(args.scale ?? 0.1);
if (!args.reuse) {
  await resetDatabase(url);
  migrate(url);
  await seed(url, seedCounts(scale));
}
const options = {
  url,
  port: Number(args.port ?? 3951),
  rounds: Number(args.rounds ?? 5),
  duration: Number(args.duration ?? 3),
  connections: Number(args.connections ?? 10),
};
const served = await compareOverhead({
  ...options,
  paths: [
    ['events: default list, served', '/cal/events/v1/events'],
    ['venues list, served', '/cal/events/v1/venues'],
  ],
});
const computed = await compareOverhead({
  ...options,
  env: { RESPONSE_CACHE_TTL_MS: '0' },
  paths: [
    ['events: default list, computed', '/cal/events/v1/events'],
    ['events: page 1, per_page=10, computed', '/cal/events/v1/events?page=1&per_page=10'],
  ],
});
// Where the CPU goes in a server with both on: the instrumentation's own share.
const profiled = [];
const COMPUTED = { RESPONSE_CACHE_TTL_MS: '0' };
for (const [name, path, env, sampling] of [
  ['events: default list, served', '/cal/events/v1/events', {}, 'all'],
  ['events: default list, served', '/cal/events/v1/events', TENTH_SAMPLED, 'a tenth'],
  ['events: default list, computed', '/cal/events/v1/events', COMPUTED, 'all'],
  [
    'events: default list, computed',
    '/cal/events/v1/events',
    { ...COMPUTED, ...TENTH_SAMPLED },
    'a tenth',
  ],
]) {
  const cost = await instrumentationCost({ ...options, env, path, duration: 10 });
  profiled.push(instrumentationLine(name, sampling, cost));
  console.log(profiled.at(-1));
}
const lines = [
  ...overheadLines(
    served,
    `Metrics and tracing, served (response cache on), scale ${scale}, ${options.connections} connections, ${options.duration} s per run:`,
  ),
  '',
  ...overheadLines(computed, 'Computed (RESPONSE_CACHE_TTL_MS=0):'),
  '',
  'CPU profile of a server with METRICS_PORT and tracing on, 1 s of warm-up and 10 s of load (start-up left out): ' +
    'the time spent in prom-client and src/metrics, and in @opentelemetry and src/tracing, Node work they ask for included:',
  '',
  ...INSTRUMENTATION_HEADER,
  ...profiled,
];
console.log(`\n${lines.join('\n')}`);
const missed = [...missedOverheadTargets(served), ...missedOverheadTargets(computed)];
for (const m of missed) console.log(`MISSED TARGET: ${m}`);
if (missed.length) process.exitCode = 1;
