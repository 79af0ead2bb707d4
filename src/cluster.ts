import cluster, { type Worker } from 'node:cluster';
import { WORKER_FLAG } from './common/cluster-worker.js';
import { createLogger } from './common/http/request-logger.js';
import type { AppConfig } from './config/config.js';
import { startupSummary } from './config/startup.js';
import { serveThrottleStores, ThrottleStoreHost } from './auth/cluster-throttle-store.js';

/** A worker that dies sooner than this after starting is replaced only after this long. */
const CRASH_LOOP_MS = 1_000;

/** In a worker: tells the primary that this worker listens. */
export function reportListening(): void {
  process.send?.({ cal: 'listening' });
}

/**
 * The primary of WORKERS > 1 (node:cluster): forks the workers, which share the port. The first
 * worker starts alone (it runs the pending migrations), the others once it listens; the
 * start-up line is printed once every worker listens. A worker that dies is replaced (after a
 * pause when it died young, so a crash loop does not spin). SIGTERM or SIGINT stops them all:
 * each fails its readiness, keeps accepting for SHUTDOWN_DELAY_MS, drains its requests in flight
 * (main.ts), and any left SHUTDOWN_DELAY_MS + SHUTDOWN_DRAIN_MS after the signal is killed.
 */
export function runPrimary(config: AppConfig): void {
  let stopping = false;
  let listening = 0;
  let announced = false;
  const started = new Map<Worker, number>();
  // Without Redis, the workers count login failures here, together (LoginThrottle).
  const throttle = new ThrottleStoreHost();
  const logger = createLogger();

  const fork = () => {
    const worker = cluster.fork({ [WORKER_FLAG]: '1' });
    started.set(worker, Date.now());
    serveThrottleStores(worker, throttle);
    worker.on('message', (message: { cal?: string }) => {
      if (message?.cal !== 'listening') return;
      listening++;
      if (!announced && listening === 1) {
        for (let i = 1; i < config.workers; i++) fork();
      }
      if (!announced && listening >= config.workers) {
        announced = true;
        console.log(`${startupSummary(config)} | ${config.workers} workers`);
      }
    });
  };

  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? 0;
    started.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // The first worker failed to start: its one-line reason is on standard error already.
    if (!announced && listening === 0) process.exit(code || 1);
    // A JSON line like every other log line, so that log collectors parse it too.
    logger.warn(
      { context: 'Cluster', worker: worker.process.pid, exit: signal ?? code },
      `worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`,
    );
    setTimeout(fork, Date.now() - since < CRASH_LOOP_MS ? CRASH_LOOP_MS : 0);
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(0);
    }, config.shutdownDelayMs + config.shutdownDrainMs).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (config.metrics) void serveWorkersMetrics(config.metrics);

  fork();
}

/** METRICS_PORT under WORKERS > 1: the primary serves the sum of its workers' metrics. */
async function serveWorkersMetrics(metrics: NonNullable<AppConfig['metrics']>): Promise<void> {
  try {
    const { serveClusterMetrics } = await import('./metrics/cluster-metrics.js');
    await serveClusterMetrics(metrics);
  } catch (error) {
    console.error(`Failed to start: metrics on ${metrics.host}:${metrics.port}: ${String(error)}`);
    process.exit(1);
  }
}
