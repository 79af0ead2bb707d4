// Profiles the computed path, the reusable half of `npm run bench --profile`; `npm run bench:profile -- --help`.
import {
  createEditor,
  createRequests,
  migrate,
  parseArgs,
  profileLoad,
  resetDatabase,
  seed,
} from './lib.mjs';

const USAGE = `Usage: npm run bench:profile -- [options]
  --path P        the request profiled (default /cal/events/v1/events)
  --duration S    seconds of load, after 1 s of warm-up (default 10)
  --connections N autocannon connections (default 10)
  --port P        (default 3941)
  --reuse         keep the seeded database (BENCH_DATABASE_URL) instead of seeding it again
  --top N         also list the N functions with the most self time (default 25)
  --create        profile event creation (an editor, an inline venue and terms) instead of a read
Starts the built server with RESPONSE_CACHE_TTL_MS=0 under node --cpu-prof, loads one path,
and prints where the CPU time went: by part of the stack, then by function.`;
const args = parseArgs(process.argv.slice(2), {
  path: 'P',
  duration: 'S',
  connections: 'N',
  port: 'P',
  reuse: null,
  top: 'N',
  create: null,
  help: null,
});
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const url = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306/cal_profile_bench';
const port = Number(args.port ?? 3941);
if (!args.reuse) {
  await resetDatabase(url);
  migrate(url);
  await seed(url, {
    events: 100_000,
    venues: 5_000,
    organizers: 2_000,
    categories: 200,
    tags: 1_000,
  });
}
const origin = `http://127.0.0.1:${port}`;
const connections = Number(args.connections ?? 10);
const load = args.create
  ? {
      url: `${origin}/cal/events/v1/events`,
      connections,
      ...createRequests(
        createEditor(url, `profile-editor-${Date.now()}`),
        `profile ${Date.now()} `,
      ),
    }
  : { url: `${origin}${args.path ?? '/cal/events/v1/events'}`, connections };
const { result, file, summary } = await profileLoad({
  url,
  port,
  env: {
    RESPONSE_CACHE_TTL_MS: '0',
    RECORD_CACHE_MB: process.env.RECORD_CACHE_MB ?? '64',
    BENCH_ROUTES: 'true',
  },
  load,
  duration: Number(args.duration ?? 10),
  top: Number(args.top ?? 25),
});
console.log(
  `${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${result.non2xx + result.errors} errors`,
);
console.log(
  `CPU per request: ${(summary.busyMs / result.requests.total).toFixed(2)} ms (busy ${Math.round(summary.busyMs)} ms, ${result.requests.total} requests)`,
);
for (const [part, ms] of summary.parts)
  console.log(`${part.padEnd(34)} ${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)} %`);
console.log('\nself time by function:');
for (const f of summary.top)
  console.log(`${((100 * f.ms) / summary.busyMs).toFixed(1).padStart(5)} %  ${f.name}`);
console.log(`\nprofile: ${file}`);
