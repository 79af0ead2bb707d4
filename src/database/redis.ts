import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Redis, RedisOptions } from 'ioredis';
import { PROJECT_ROOT } from '../config/paths.js';

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

/**
 * A failed Redis command as an operator reads it: which variable, which address, and the reason
 * in words (ioredis says "Stream isn't writeable and enableOfflineQueue options is false" while it
 * is not connected, and "Reached the max retries per request limit (which is 0). Refer to
 * "maxRetriesPerRequest" option for details." for a command sent as the connection dropped).
 */
export function describeRedisError(redis: Redis, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = /Stream isn't writeable|Connection is closed|maxRetriesPerRequest/.test(message)
    ? 'no connection'
    : message;
  const { host, port } = redis.options;
  return `Redis at ${host ?? '127.0.0.1'}:${port ?? 6379} (REDIS_URL) does not answer: ${reason}`;
}
