// What metrics and tracing cost. The same build runs three times side by side on the
// same database, as configured by default apart from the operator's switches, and the three are
// loaded in turns, round after round, so that what the machine does meanwhile (other processes,
// frequency changes) falls on all three alike. Shared by bench/run.mjs and bench/overhead.mjs.
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs, lastCpuProfile, smokeLoad, startServer, stopServer, waitHealthy } from './lib.mjs';

/**
 * A collector that accepts OTLP/HTTP trace exports and drops them: the traced server pays for
 * building, batching, serializing and sending its spans, as it would to a real collector.
 */
async function startOtlpSink() {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Loads `paths` on three servers (no metrics nor tracing; METRICS_PORT; METRICS_PORT and
 * tracing to a sink, every request sampled) started with `env` on ports port..port+2, for
 * `rounds` rounds of `duration` seconds each per server and path, the order of the servers
 * turning each round. Answers per path and variant the median req/s, p99 and server CPU per
 * request, and per round the ratio of each variant to the server without either.
 */
export async function compareOverhead({
  url,
  port,
  env = {},
  paths,
  rounds,
  duration,
  connections,
  smoke = false,
  log = console.log,
  variants: given,
}) {
  const sink = await startOtlpSink();
  // `variants` ([name, env, nodeFlags?], the first the reference) compares other servers instead.
  const variants = given ?? [
    ['off', {}],
    ['metrics', { METRICS_PORT: '0' }],
    [
      'metrics + tracing',
      {
        METRICS_PORT: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint,
        OTEL_SERVICE_NAME: 'cal-bench',
      },
    ],
  ];
  const servers = variants.map(([, extra, flags = []], i) =>
    startServer(url, port + i, { ...env, ...extra }, flags),
  );
  const load = (target) =>
    autocannon({
      connections,
      url: target,
      ...(smoke ? smokeLoad(connections) : { duration }),
    });
  const loadBefore = loadavg()[0];
  const results = {};
  try {
    for (let i = 0; i < servers.length; i++) await waitHealthy(port + i);
    for (const [name, path] of paths) {
      const runs = variants.map(() => []);
      for (let i = 0; i < servers.length; i++) {
        const check = await fetch(`http://127.0.0.1:${port + i}${path}`);
        if (!check.ok) throw new Error(`${name}: ${check.status} ${await check.text()}`);
        // Warm-up, not measured: the JIT, the pools and the caches.
        if (!smoke)
          await autocannon({
            connections,
            duration: 2,
            url: `http://127.0.0.1:${port + i}${path}`,
          });
      }
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < servers.length; k++) {
          const i = (round + k) % servers.length;
          const before = cpuMs(servers[i].pid);
          const r = await load(`http://127.0.0.1:${port + i}${path}`);
          const after = cpuMs(servers[i].pid);
          runs[i].push({
            rps: r.requests.average,
            p99: r.latency.p99,
            errors: r.errors + r.non2xx,
            cpuUs:
              before === null || after === null
                ? null
                : ((after - before) * 1000) / r.requests.total,
          });
        }
      }
      results[name] = variants.map(([variant], i) => {
        const own = runs[i];
        const ratios = own.map((run, round) => run.rps / runs[0][round].rps);
        const cpu = own.map((run) => run.cpuUs).filter((v) => v !== null);
        const cpuRatios = own
          .map((run, round) =>
            run.cpuUs !== null && runs[0][round].cpuUs ? run.cpuUs / runs[0][round].cpuUs : null,
          )
          .filter((v) => v !== null);
        return {
          variant,
          rps: Math.round(median(own.map((run) => run.rps))),
          p99: median(own.map((run) => run.p99)),
          errors: own.reduce((n, run) => n + run.errors, 0),
          ratio: median(ratios),
          ratioMin: Math.min(...ratios),
          ratioMax: Math.max(...ratios),
          cpuUs: cpu.length ? median(cpu) : null,
          cpuRatio: cpuRatios.length ? median(cpuRatios) : null,
        };
      });
      log(
        `${name}: ${results[name].map((r) => `${r.variant} ${r.rps} req/s (×${r.ratio.toFixed(3)})${r.cpuUs === null ? '' : ` ${Math.round(r.cpuUs)} µs CPU/req`}`).join(', ')}`,
      );
    }
  } finally {
    for (const server of servers) await stopServer(server);
    await sink.close();
  }
  if (!given && !smoke && sink.exports() === 0) {
    throw new Error('the traced server sent no spans to the sink: tracing did not run');
  }
  return { results, rounds, loadBefore, loadAfter: loadavg()[0], spanExports: sink.exports() };
}

/** Markdown lines of a comparison: one table row per path and variant. */
export function overheadLines({ results, rounds, loadBefore, loadAfter }, heading) {
  const pct = (ratio) => `${ratio >= 1 ? '+' : '−'}${(Math.abs(ratio - 1) * 100).toFixed(1)} %`;
  return [
    heading,
    '',
    `Load average of the machine (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after; ${rounds} rounds, ` +
      'the three servers loaded in turn, in a different order each round. "Change" is the median over the rounds of each ' +
      "round's req/s against the server without metrics or tracing in the same round, with the smallest and largest; " +
      "CPU is the server process's user + system time per request.",
    '',
    '| scenario | server | req/s (median) | p99 ms | change (median, range) | CPU µs/request | CPU change | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(results).flatMap(([name, rows]) =>
      rows.map(
        (r) =>
          `| ${name} | ${r.variant} | ${r.rps} | ${r.p99} | ${r.variant === 'off' ? '–' : `${pct(r.ratio)} (${pct(r.ratioMin)} … ${pct(r.ratioMax)})`} | ` +
          `${r.cpuUs === null ? '–' : Math.round(r.cpuUs)} | ${r.variant === 'off' || r.cpuRatio === null ? '–' : pct(r.cpuRatio)} | ${r.errors} |`,
      ),
    ),
  ];
}

/** Which instrumentation a profiled frame belongs to, by its script; null: neither. */
function instrumentationOf(url) {
  if (url.includes('/node_modules/prom-client/') || url.includes('/dist/metrics/'))
    return 'metrics';
  if (url.includes('/node_modules/@opentelemetry/') || url.includes('/dist/tracing/'))
    return 'tracing';
  return null;
}

/**
 * The CPU the instrumentation itself costs per request, from a CPU profile of a server with
 * METRICS_PORT and tracing on (`env` added) under load on `path`: every sample counts for the
 * nearest frame outside Node's own modules (so Node work a hook asks for, an event listener,
 * a timer, counts for the hook), and the samples of prom-client and src/metrics, and of
 * @opentelemetry and src/tracing, are summed, from the start of the load on (warm-up included,
 * start-up not). A share of one process's own time, so what else the machine runs changes it
 * far less than it changes throughput.
 */
export async function instrumentationCost({ url, port, env = {}, path, duration, connections }) {
  const sink = await startOtlpSink();
  const dir = mkdtempSync(join(tmpdir(), 'cal-overhead-prof-'));
  const server = startServer(
    url,
    port,
    {
      ...env,
      METRICS_PORT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint,
      OTEL_SERVICE_NAME: 'cal-bench',
    },
    ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  );
  let requests = 0;
  // The load's start on the monotonic clock, which the profile's timestamps use too (Linux).
  let loadStartUs = 0;
  try {
    await waitHealthy(port);
    loadStartUs = Number(process.hrtime.bigint() / 1000n);
    const target = `http://127.0.0.1:${port}${path}`;
    requests += (await autocannon({ connections, duration: 1, url: target })).requests.total;
    requests += (await autocannon({ connections, duration, url: target })).requests.total;
  } finally {
    await stopServer(server);
    await sink.close();
  }
  // Not the first process's few milliseconds: it took the first profile found for the whole
  // run, and a scale-1 run stopped on it ("ends before the load started").
  const profile = JSON.parse(readFileSync(lastCpuProfile(dir), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ms = { metrics: 0, tracing: 0, busy: 0 };
  // Only the samples taken under load: start-up (loading the SDK too) is not a request's cost.
  let at = profile.startTime;
  if (at + profile.timeDeltas.reduce((a, b) => a + b, 0) < loadStartUs) {
    throw new Error('the CPU profile ends before the load started: clocks differ');
  }
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < loadStartUs) return;
    const sampleMs = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let node = byId.get(id);
    if (node.callFrame.functionName === '(idle)') return;
    ms.busy += sampleMs;
    while ((!node.callFrame.url || node.callFrame.url.startsWith('node:')) && parent.has(node.id))
      node = byId.get(parent.get(node.id));
    const part = instrumentationOf(node.callFrame.url);
    if (part) ms[part] += sampleMs;
  });
  return {
    requests,
    busyUs: (ms.busy * 1000) / requests,
    metricsUs: (ms.metrics * 1000) / requests,
    tracingUs: (ms.tracing * 1000) / requests,
  };
}

/** One table row of what instrumentationCost found. */
export function instrumentationLine(name, sampling, cost) {
  const share = (us) => `${((100 * us) / cost.busyUs).toFixed(1)} %`;
  return `| ${name} | ${sampling} | ${share(cost.metricsUs)} | ${share(cost.tracingUs)} | ${cost.requests} |`;
}

export const INSTRUMENTATION_HEADER = [
  '| scenario | traces sampled | metrics code, share of the busy CPU | tracing code, share | requests |',
  '|---|---|---:|---:|---:|',
];

/** OTEL_TRACES_SAMPLER for a tenth of the traces a caller did not decide on. */
export const TENTH_SAMPLED = {
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: '0.1',
};
