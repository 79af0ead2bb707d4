#!/usr/bin/env node
// Issue 53's memory scenario: one server process (or WORKERS of them) on the embedded database
// with the caches at their defaults, EVENTS events created through the API by 4 editors' clients
// at once, then SECONDS of mixed anonymous reads by 12 clients (list pages and filters, single
// events, public pages, the iCalendar feed). Prints the resident memory of the server's processes
// (summed over the primary and its workers), sampled every 20 ms: the peak through the creates,
// the peak through the reads and at the end.
//
//   npm run build && node bench/memory.mjs [--events 5000] [--seconds 20] [--workers 2]
//       [--snapshot]   (a heap snapshot of the worker at the end, in the working directory)
//       [--reads N]   (end the reads after N answers: a fixed load to compare settings)
//       [--node-flag a=1,b]   (V8/Node flags for the server, without their leading dashes)
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import {
  createUser,
  migrate,
  parseArgs,
  rssMb,
  startServer,
  stopServer,
  waitHealthy,
} from './lib.mjs';
import { benchDatabaseUrl } from './lib.mjs';
import { createMemoryEvents, memoryReadPaths, readMemoryPaths } from './memory-load.mjs';

const args = parseArgs(process.argv.slice(2), {
  events: 'count',
  seconds: 'seconds',
  workers: 'count',
  port: 'port',
  snapshot: null,
  inspect: null,
  'semi-space': 'MB',
  'node-flag': 'flag',
  reads: 'count',
});
const EVENTS = Number(args.events ?? 5000);
const SECONDS = Number(args.seconds ?? 20);
/** With --reads, the read phase ends after that many answers (or SECONDS): a fixed load to compare. */
const READS = Number(args.reads ?? Infinity);
const PORT = Number(args.port ?? 3953);
const origin = `http://127.0.0.1:${PORT}`;
const url = benchDatabaseUrl({ sqlite: true }, 'cal-memory');
migrate(url);
const auth = createUser(url, 'memory-editor', 'editor');

const env = args.workers ? { WORKERS: String(args.workers) } : {};
const INSPECT_PORT = PORT + 1000;
const server = startServer(url, PORT, env, [
  ...(args.snapshot ? ['--heapsnapshot-signal=SIGUSR2'] : []),
  ...(args.inspect ? [`--inspect=127.0.0.1:${INSPECT_PORT}`] : []),
  ...(args['semi-space'] ? [`--max-semi-space-size=${args['semi-space']}`] : []),
  ...(args['node-flag']
    ? String(args['node-flag'])
        .split(',')
        .map((f) => `--${f}`)
    : []),
]);
await waitHealthy(PORT);

/** The server's process and its children (cluster workers), by /proc's parent ids. */
function tree(root) {
  const pids = [root];
  for (const entry of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === root) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}
let pids = tree(server.pid);
const total = () => pids.reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0);
/**
 * The memory the processes take together (/proc smaps_rollup's Pss, in MB): pages they share,
 * the `node` binary's above all, counted once between them, not once in each as RSS does.
 */
const pssMb = () =>
  Math.round(
    pids.reduce((sum, pid) => {
      try {
        const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
        return sum + Number(kb ?? 0);
      } catch {
        return sum;
      }
    }, 0) / 1024,
  );
/** CPU time (user + system) of the server's processes, in ms (/proc, 100 ticks a second). */
const cpuMs = () =>
  pids.reduce((sum, pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 13);
      return sum + (Number(utime) + Number(stime)) * 10;
    } catch {
      return sum;
    }
  }, 0);
let peak = total();
const sampler = setInterval(() => (peak = Math.max(peak, total())), 20);
setInterval(() => (pids = tree(server.pid)), 1000).unref();

const started = Date.now();
const createCpu = cpuMs();
const slugs = await createMemoryEvents(origin, auth, EVENTS);
const createsPeak = peak;
const createsS = (Date.now() - started) / 1000;
console.log(
  `${EVENTS} creates in ${createsS.toFixed(1)} s (${((cpuMs() - createCpu) / EVENTS).toFixed(2)} ms of server CPU each, load ${loadavg()[0].toFixed(2)}): peak ${createsPeak} MB, now ${total()} MB (proportional: ${pssMb()} MB)`,
);

const paths = memoryReadPaths(slugs, { pages: 20, records: 500 });
peak = 0;
let sent = 0;
const end = Date.now() + SECONDS * 1000;
const readStarted = Date.now();
const readCpu = cpuMs();
await readMemoryPaths(origin, 12, () =>
  Date.now() < end && sent < READS ? paths[(sent++ * 7919) % paths.length] : undefined,
);
const readS = (Date.now() - readStarted) / 1000;
clearInterval(sampler);
console.log(
  `${sent} reads in ${readS.toFixed(1)} s (${Math.round(sent / readS)} req/s, ${((cpuMs() - readCpu) / sent).toFixed(2)} ms of server CPU each, load ${loadavg()[0].toFixed(2)}): peak ${peak} MB, end ${total()} MB (proportional: ${pssMb()} MB; ${pids.length} processes)`,
);
console.log(rssParts(pids.at(-1)));
if (args.inspect) console.log(`${anonymousMaps(pids.at(-1))}\n${await breakdown()}`);
if (args.snapshot) {
  for (const pid of pids.slice(-1)) process.kill(pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 15_000));
}
await stopServer(server);

/** The server's own account of its memory (through the inspector): RSS, heap spaces, external. */
async function breakdown() {
  const [{ webSocketDebuggerUrl }] = await (
    await fetch(`http://127.0.0.1:${INSPECT_PORT}/json/list`)
  ).json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener('open', r, { once: true }));
  const expression = `(() => { const v8 = require('node:v8'); const mb = (n) => Math.round(n / 2 ** 20); const m = process.memoryUsage(); return JSON.stringify({ rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), spaces: v8.getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_size), mb(s.space_used_size)]) }); })()`;
  const call = (id, method, params) => {
    ws.send(JSON.stringify({ id, method, params }));
    return new Promise((r) => {
      const on = (e) => {
        const m = JSON.parse(e.data);
        if (m.id !== id) return;
        ws.removeEventListener('message', on);
        r(m);
      };
      ws.addEventListener('message', on);
    });
  };
  const before = await call(1, 'Runtime.evaluate', { expression, includeCommandLineAPI: true });
  await call(2, 'HeapProfiler.collectGarbage', {});
  const after = await call(3, 'Runtime.evaluate', { expression, includeCommandLineAPI: true });
  ws.close();
  return `before a full GC: ${before.result?.result?.value}\nafter: ${after.result?.result?.value}\n${rssParts(pids.at(-1))}\n${anonymousMaps(pids.at(-1))}`;
}

/** The kinds of resident memory of a process (Linux /proc): anonymous, file-backed, shared. */
function rssParts(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return ['RssAnon', 'RssFile', 'RssShmem']
    .map(
      (k) =>
        `${k} ${Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1]) / 1024)} MB`,
    )
    .join(', ');
}

/**
 * Where a process's anonymous resident memory lies (/proc smaps): malloc's main heap, the
 * 64 MB regions of its per-thread arenas (by their alignment: an estimate), and the other
 * anonymous mappings (V8's heap pages, its code space, large buffers).
 */
function anonymousMaps(pid) {
  const parts = { 'malloc main heap': 0, 'malloc thread arenas': 0, other: 0 };
  let head = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) head = line;
    const m = /^Anonymous:\s+(\d+) kB/.exec(line);
    if (!m) continue;
    // A thread arena's heap starts on a 64 MB boundary (glibc's HEAP_MAX_SIZE).
    const from = parseInt(head.split('-')[0], 16);
    const kind = head.includes('[heap]')
      ? 'malloc main heap'
      : from % (64 * 2 ** 20) === 0
        ? 'malloc thread arenas'
        : 'other';
    parts[kind] += Number(m[1]);
  }
  return Object.entries(parts)
    .map(([k, kb]) => `${k} ${Math.round(kb / 1024)} MB`)
    .join(', ');
}
