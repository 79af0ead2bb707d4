#!/usr/bin/env node
// npm run bench:extensions [-- --scale 0.1 --rounds 5 --duration 3 --connections 10 --port 3961 --sqlite --reuse]
//
// What the extension modules cost the events list, on its own: seeds a calendar into
// BENCH_DATABASE_URL (default MariaDB, cal_extensions_bench) unless --reuse, then compares two
// servers of the same build side by side, with and without the modules
// (bench/extensions-lib.mjs). `npm run bench` runs the same comparison.
import { benchArgs, benchDatabaseUrl, migrate, resetDatabase, seed, seedCounts } from './lib.mjs';
import {
  compareExtensions,
  extensionLines,
  missedExtensionTargets,
  seedVirtual,
} from './extensions-lib.mjs';

const USAGE = `Usage: npm run bench:extensions -- [options]
  --scale N        size of the calendar (default 0.1: 10,000 events)
  --rounds N       rounds per scenario, each loading the two servers in turn (default 5)
  --duration S     seconds per server and round (default 3)
  --connections N  autocannon connections (default 10)
  --port P         the servers take P and P+1 (default 3961)
  --sqlite         an SQLite file in a temporary directory instead of MariaDB
  --reuse          keep the seeded database instead of seeding it again
  --help           this help
Exit code 1 when the modules cost the list more than 5 % of its CPU per request.`;
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
const url = benchDatabaseUrl(args, 'cal_extensions_bench');
const scale = Number(args.scale ?? 0.1);
if (!args.reuse) {
  await resetDatabase(url);
  migrate(url);
  await seed(url, seedCounts(scale));
  await seedVirtual(url);
}
const runs = await compareExtensions({
  url,
  port: Number(args.port ?? 3961),
  rounds: Number(args.rounds ?? 5),
  duration: Number(args.duration ?? 3),
  connections: Number(args.connections ?? 10),
});
console.log(`\nScale ${scale}.\n${extensionLines(runs).join('\n')}`);
const missed = missedExtensionTargets(runs);
for (const m of missed) console.log(`MISSED TARGET: ${m}`);
if (missed.length) process.exitCode = 1;
