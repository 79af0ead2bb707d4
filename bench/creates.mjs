// The bench's event create alone, against its floor (bench/create-floor.mjs) and, with --against,
// against another build: alternating rounds on one database, each with its rate, p99 and the
// server's CPU time per create. `npm run bench:creates -- --help`.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  benchArgs,
  benchDatabaseUrl,
  cpuMs,
  createEditor,
  createRequests,
  migrate,
  resetDatabase,
  seed,
  seedCounts,
  startCreateFloor,
  startServer,
  stopServer,
  useBuild,
  waitHealthy,
} from './lib.mjs';

const USAGE = `Usage: npm run bench:creates -- [options]
  --rounds N       rounds of each server, alternated (default 3)
  --duration S     seconds measured per round, after the server's warm-up (default 8)
  --warm-up S      seconds of creates before a server's first round (default 10)
  --connections N  autocannon connections (default 10)
  --port P         the service's port; the floor P+1, the --against build P+2 (default 3951)
  --against DIR    also measure the compiled server in DIR (e.g. another checkout's dist/)
  --build DIR      the compiled server measured (default dist/, from npm run build)
  --reuse          keep the seeded database (BENCH_DATABASE_URL) instead of seeding it again
  --help           this help
Seeds BENCH_DATABASE_URL (default mariadb://root@127.0.0.1:3306/cal_creates_bench; its name must
contain "bench" or "test": it is dropped and recreated) at scale 1, starts each server once, warms
it up, then measures rounds of the bench's creates (an editor's event with an inline venue, a
category and two tags) on each in turn. Per round: req/s, p99 and the server process's CPU time
per create (from /proc: steadier than the rate on a shared machine); the medians last, the rates
as shares of the floor's. MySQL/MariaDB only.`;
const args = benchArgs(
  USAGE,
  {
    rounds: 'N',
    duration: 'S',
    'warm-up': 'S',
    connections: 'N',
    port: 'P',
    against: 'DIR',
    build: 'DIR',
    reuse: null,
    help: null,
  },
  ['rounds', 'duration', 'warm-up', 'connections', 'port'],
);
const url = benchDatabaseUrl(args, 'cal_creates_bench');
if (url.startsWith('sqlite:')) throw new Error('bench/creates.mjs needs MySQL/MariaDB');
const rounds = Number(args.rounds ?? 3);
const duration = Number(args.duration ?? 8);
const warmUp = Number(args['warm-up'] ?? 10);
const connections = Number(args.connections ?? 10);
const port = Number(args.port ?? 3951);
if (args.build) useBuild(resolve(process.cwd(), String(args.build)));

if (!args.reuse) {
  await resetDatabase(url);
  migrate(url);
  await seed(url, seedCounts(1));
}
const auth = createEditor(url, `creates-editor-${Date.now()}`);
const run = Date.now();
const here = dirname(fileURLToPath(import.meta.url));
const build = resolve(process.cwd(), String(args.build ?? join(here, '..', 'dist')));

/** A server to measure: how it starts, on which port. */
const servers = [
  { name: 'service', port, start: () => (useBuild(build), startServer(url, port)) },
  {
    name: 'floor',
    port: port + 1,
    start: (bodyBytes) => startCreateFloor(url, port + 1, bodyBytes),
  },
];
if (args.against) {
  const against = resolve(process.cwd(), String(args.against));
  servers.push({
    name: `against ${String(args.against)}`,
    port: port + 2,
    start: () => (useBuild(against), startServer(url, port + 2)),
  });
}

const createUrl = (server) => `http://127.0.0.1:${server.port}/cal/events/v1/events`;
const load = (server, label, seconds) =>
  autocannon({
    url: createUrl(server),
    connections,
    duration: seconds,
    ...createRequests(auth, `${run} ${label} `),
  });

try {
  // The floor answers a body as long as the service's answer.
  let bodyBytes = 0;
  for (const server of servers) {
    server.child = server.start(bodyBytes);
    await waitHealthy(server.port);
    if (server.name === 'service') {
      const sample = await fetch(createUrl(server), {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: createRequests(auth, `${run} sample `).requests[0].setupRequest({}).body,
      });
      if (sample.status !== 201) throw new Error(`create: ${sample.status} ${await sample.text()}`);
      bodyBytes = (await sample.text()).length;
    }
    // V8 keeps optimizing the write path for about ten seconds (docs/benchmarks.md).
    await load(server, `${server.name} warm-up`, warmUp);
    server.rounds = [];
  }
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      const cpu0 = cpuMs(server.child.pid);
      const r = await load(server, `${server.name} ${round}`, duration);
      const cpu = (cpuMs(server.child.pid) - cpu0) / r.requests.total;
      const errors = r.errors + r.non2xx;
      server.rounds.push({ rps: r.requests.average, p99: r.latency.p99, cpu });
      console.log(
        `round ${round} ${server.name}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ` +
          `CPU ${cpu.toFixed(2)} ms/create${errors ? `, ${errors} errors` : ''}`,
      );
      if (errors) throw new Error(`${server.name} answered errors: see its stderr`);
    }
  }
} finally {
  for (const server of servers) if (server.child) await stopServer(server.child);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const floor = median(servers[1].rounds.map((r) => r.rps));
for (const server of servers) {
  const rps = median(server.rounds.map((r) => r.rps));
  console.log(
    `${server.name.padEnd(24)} median ${Math.round(rps)} req/s (${(rps / floor).toFixed(2)} of the floor), ` +
      `p99 ${median(server.rounds.map((r) => r.p99))} ms, CPU ${median(server.rounds.map((r) => r.cpu)).toFixed(2)} ms/create`,
  );
}
