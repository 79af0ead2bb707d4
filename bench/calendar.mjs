// The calendar views against the single event page (issue 50), CPU per request in the same server process: `npm run bench:calendar -- --help`.
import {
  benchDatabaseUrl,
  cpuMs,
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
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

const USAGE = `Usage: npm run bench:calendar -- [options]
  --scale N        size of the calendar: 1 = 100,000 events (default)
  --duration S     seconds measured per view and round, after 1 s of warm-up (default 3)
  --rounds N       rounds, each measuring every page in turn (default 3)
  --connections N  autocannon connections (default 4)
  --port P         the computed server (response cache off) on P, the served one on P+1 (default 3951)
  --build DIR      the compiled server to run (default dist/, from npm run build)
  --identity       ask for the pages uncompressed (Accept-Encoding: identity) instead of gzip
  --reuse          keep the seeded database (BENCH_DATABASE_URL) instead of seeding it again
  --help           this help
Starts the built server twice, computed (RESPONSE_CACHE_TTL_MS=0, record cache on) and served
(every cache on), loads the single event page and the month and week views of next month one
after another on each, and prints each one's CPU per request (the server process's CPU time over
the requests answered), rate and p99, and the views' ratios to the event page of the same server:
on a loaded machine the CPU ratio is the steady figure, the rates move with the load. p99 and
the load average are the rounds' medians. Beside them, the bytes of each answer on the wire
(headers included) and of its page uncompressed, and the CPU the client (autocannon, in this
process) spent a request: on two cores the client's reading of a large page takes from the
server's share, so a served page's rate follows its bytes. Every request asks for gzip, as
browsers do (the server compresses pages of 1 KB or more, CONTRACT §7), unless --identity.`;

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const args = benchArgs(USAGE, {
  scale: 'N',
  duration: 'S',
  rounds: 'N',
  connections: 'N',
  port: 'P',
  reuse: null,
  build: 'DIR',
  identity: null,
  help: null,
});
if (args.build) useBuild(resolve(process.cwd(), String(args.build)));
const url = benchDatabaseUrl(args, 'cal_calendar_bench');
const scale = Number(args.scale ?? 1);
const duration = Number(args.duration ?? 3);
const connections = Number(args.connections ?? 4);
const rounds = Number(args.rounds ?? 3);
const port = Number(args.port ?? 3951);
const counts = seedCounts(scale);
const encoding = args.identity ? 'identity' : 'gzip';
const headers = { 'accept-encoding': encoding };
if (!args.reuse) {
  await resetDatabase(url);
  migrate(url);
  const { lastId } = await seed(url, counts);
  await seedSeries(url, counts, lastId);
}
const autocannon = (await import('autocannon')).default;

/** Next month (`YYYY-MM`), in UTC: inside the seeded window, busy with events. */
const d = new Date();
d.setUTCDate(1);
d.setUTCMonth(d.getUTCMonth() + 1);
const month = d.toISOString().slice(0, 7);

/** @type {Array<{ variant: string, p: number, env: Record<string, string> }>} */
const servers = [
  { variant: 'computed', p: port, env: { RESPONSE_CACHE_TTL_MS: '0', RECORD_CACHE_MB: '64' } },
  { variant: 'served', p: port + 1, env: {} },
];
const rows = [];
for (const { variant, p, env } of servers) {
  const server = startServer(url, p, env);
  try {
    await waitHealthy(p);
    const origin = `http://127.0.0.1:${p}`;
    const list = await (await fetch(`${origin}/cal/events/v1/events?per_page=1`)).json();
    const eventPath = new URL(list.events[0].url).pathname;
    const views = [
      ['single event page', eventPath],
      ['month view', `/events/month/${month}/`],
      ['week view', `/events/week/${month}-10/`],
    ];
    /** @type {Record<string, number>} the bytes of each page, uncompressed */
    const plain = {};
    for (const [name, path] of views) {
      const check = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'identity' } });
      if (!check.ok) throw new Error(`${name}: ${check.status}`);
      plain[name] = (await check.arrayBuffer()).byteLength;
      // What the measured requests get: fetch sends the header as given (and decompresses).
      const sent = (await fetch(`${origin}${path}`, { headers })).headers.get('content-encoding');
      if ((sent ?? 'identity') !== encoding) throw new Error(`${name}: ${sent ?? 'identity'}`);
      await autocannon({ url: `${origin}${path}`, connections, duration: 1, headers });
    }
    // The pages take turns, round after round: a change of the machine's load falls on each.
    /** @type {Record<string, { cpu: number, client: number, bytes: number, requests: number, seconds: number, p99: number[], load: number[] }>} */
    const perRound = Object.fromEntries(
      views.map(([name]) => [
        name,
        { cpu: 0, client: 0, bytes: 0, requests: 0, seconds: 0, p99: [], load: [] },
      ]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of views) {
        const m = perRound[name];
        m.load.push(loadavg()[0]);
        const before = cpuMs(server.pid);
        const client = process.cpuUsage();
        const result = await autocannon({
          url: `${origin}${path}`,
          connections,
          duration,
          headers,
        });
        m.cpu += cpuMs(server.pid) - before;
        const spent = process.cpuUsage(client);
        m.client += (spent.user + spent.system) / 1000;
        m.bytes += result.throughput.total;
        if (result.non2xx || result.errors) {
          const { non2xx, errors, timeouts, statusCodeStats } = result;
          throw new Error(
            `${name}: ${JSON.stringify({ non2xx, errors, timeouts, statusCodeStats })}`,
          );
        }
        m.requests += result.requests.total;
        m.seconds += result.duration;
        m.p99.push(result.latency.p99);
      }
    }
    /** @type {Record<string, { cpu: number, client: number, kb: number, plainKb: number, rps: number, p99: number, load: number }>} */
    const measured = {};
    for (const [name, m] of Object.entries(perRound)) {
      measured[name] = {
        cpu: m.cpu / m.requests,
        client: m.client / m.requests,
        kb: m.bytes / m.requests / 1024,
        plainKb: plain[name] / 1024,
        rps: m.requests / m.seconds,
        p99: median(m.p99),
        load: median(m.load),
      };
    }
    const single = measured['single event page'];
    for (const [name] of views) {
      const m = measured[name];
      rows.push(
        `| ${variant} | ${name} | ${m.cpu.toFixed(2)} | ${(single.cpu / m.cpu).toFixed(2)} | ` +
          `${Math.round(m.rps)} | ${(m.rps / single.rps).toFixed(2)} | ${m.p99} | ` +
          `${(m.p99 / single.p99).toFixed(2)}× | ${m.kb.toFixed(1)} | ${m.plainKb.toFixed(1)} | ` +
          `${m.client.toFixed(3)} | ` +
          `${m.load.toFixed(2)} |`,
      );
    }
  } finally {
    await stopServer(server);
  }
}
console.log(
  [
    `Calendar views of ${month} on ${counts.events.toLocaleString('en')} events, ${connections} connections, ${rounds} rounds of ${duration} s each, Accept-Encoding: ${encoding}:`,
    '',
    '| server | page | CPU ms/request | CPU rate of the event page | req/s | rate of the event page | p99 ms | p99 of the event page | KB on the wire/answer | KB of the page | client CPU ms/request | load (1 min) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n'),
);
