import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Redis, RedisOptions } from 'ioredis';
import { PROJECT_ROOT } from '../paths.js';

/** ioredis is loaded only when REDIS_URL is set: it costs a few hundred ms of start-up. */
const load = () =>
  createRequire(join(PROJECT_ROOT, 'package.json'))('ioredis') as typeof import('ioredis');

/**
 * A Redis connection for REDIS_URL. Commands fail at once while Redis is unreachable (no offline
 * queue, one try): callers fall back to what works without Redis instead of waiting; the client
 * reconnects by itself in the background.
 */
export function createRedis(url: string, name: string, options: RedisOptions = {}): Redis {
  const client = new (load().Redis)(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...options,
  });
  // Errors surface through the failed commands; an unhandled 'error' event would be logged raw.
  client.on('error', () => undefined);
  return client;
}
