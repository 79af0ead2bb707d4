import cluster from 'node:cluster';

/** Set in the environment of the workers that the primary of WORKERS > 1 forks. */
export const WORKER_FLAG = 'CAL_CLUSTER_WORKER';

/**
 * Whether this process is a worker of our own primary (cluster.ts), which relays what the
 * workers share (login failures, metrics) — not a worker of some other cluster manager.
 */
export const isClusterWorker = () => cluster.isWorker && process.env[WORKER_FLAG] === '1';
