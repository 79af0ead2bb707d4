import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, redisAddress, type AppConfig } from '../config/config.js';
import { createRedis, describeRedisError } from '../database/redis.js';
import type { ThrottleStores } from './login-throttle.js';
import { MemoryThrottleStore, type Counter, type ThrottleStore } from './throttle-store.js';
import { ClusterThrottleStore, ThrottleChannel } from './cluster-throttle-store.js';
import { isClusterWorker } from '../common/cluster-worker.js';

/** INCR, the expiry set by the first hit only (a fixed window), and the time left: one round trip. */
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/** The bounds of the fallback used while Redis does not answer. */
const FALLBACK_KEYS = 10_000;

/**
 * The login throttle's counters in Redis (REDIS_URL), shared by every server process: keys
 * `cal:throttle:<store>:<key>` with Redis's own expiry. Times come from Redis's clock (the
 * time left, PTTL) added to the caller's `now`. While Redis does not answer, a per-process
 * in-memory store stands in (logins keep working, counted per process), and a warning is logged
 * once per outage.
 */
export class RedisThrottleStore implements ThrottleStore {
  private readonly fallback = new MemoryThrottleStore(FALLBACK_KEYS);

  /**
   * `outage` is shared by the stores of one connection (failures and trusted addresses), so that
   * one outage is one warning, not one per store (a failed login reads both).
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly outage: { failing: boolean } = { failing: false },
  ) {}

  get(keys: readonly string[], now: number): Promise<(Counter | null)[]> {
    return this.guard(
      async () => {
        const pipeline = this.redis.pipeline();
        for (const key of keys) pipeline.get(this.prefix + key).pttl(this.prefix + key);
        const results = (await pipeline.exec()) ?? [];
        return keys.map((_, i) => {
          const [countError, count] = results[2 * i] ?? [];
          const [ttlError, ttl] = results[2 * i + 1] ?? [];
          if (countError || ttlError) throw countError ?? ttlError;
          if (count === null || typeof ttl !== 'number' || ttl <= 0) return null;
          return { count: Number(count), expiresAt: now + ttl };
        });
      },
      () => this.fallback.get(keys, now),
    );
  }

  increment(hits: readonly { key: string; ttlMs: number }[], now: number): Promise<Counter[]> {
    return this.guard(
      async () => {
        const pipeline = this.redis.pipeline();
        for (const { key, ttlMs } of hits) {
          pipeline.eval(INCREMENT, 1, this.prefix + key, String(Math.max(1, Math.round(ttlMs))));
        }
        const results = (await pipeline.exec()) ?? [];
        return hits.map((_, i) => {
          const [error, reply] = results[i] ?? [];
          if (error) throw error;
          const [count, ttl] = reply as [number, number];
          return { count, expiresAt: now + Math.max(0, ttl) };
        });
      },
      () => this.fallback.increment(hits, now),
    );
  }

  set(key: string, ttlMs: number, now: number): Promise<void> {
    return this.guard(
      async () => {
        await this.redis.set(this.prefix + key, '1', 'PX', Math.max(1, Math.round(ttlMs)));
      },
      () => this.fallback.set(key, ttlMs, now),
    );
  }

  delete(key: string): Promise<void> {
    return this.guard(
      async () => {
        await this.redis.del(this.prefix + key);
      },
      () => this.fallback.delete(key),
    );
  }

  private async guard<T>(work: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      if (this.outage.failing) {
        this.logger.log('Redis answers again: login failures are shared again');
      }
      this.outage.failing = false;
      return result;
    } catch (error) {
      if (!this.outage.failing) {
        this.logger.warn(
          `${describeRedisError(this.redis, error)}; login failures are counted in this process meanwhile`,
        );
      }
      this.outage.failing = true;
      return fallback();
    }
  }
}

/**
 * The throttle's stores: in Redis with REDIS_URL; else, in a worker of WORKERS > 1, the primary
 * process's (cluster-throttle-store.ts), so that the limits are the server's; otherwise none
 * (LoginThrottle keeps its own).
 */
@Injectable()
export class SharedThrottleStores implements OnApplicationShutdown {
  readonly stores: ThrottleStores | undefined;
  private readonly redis: Redis | undefined;
  private readonly channel: ThrottleChannel | undefined;

  /**
   * Whether REDIS_URL is in use, where it points (without its password) and whether it answers
   * now, for `/health`: every process with REDIS_URL holds this connection, whatever the engine.
   */
  redisStatus(): { status: 'off' } | { status: 'up' | 'down'; address: string } {
    if (!this.redis || !this.redisUrl) return { status: 'off' };
    return {
      status: this.redis.status === 'ready' ? 'up' : 'down',
      address: redisAddress(this.redisUrl),
    };
  }

  /**
   * Whether REDIS_URL answers at start-up, for the start-up line: the connection is still being
   * made when the server starts listening, so this waits for its first outcome (a refusal comes
   * at once; at most a little more than the client's 2 s connect timeout).
   */
  redisAtStartup(): Promise<'up' | 'down'> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return Promise.resolve('up');
    return new Promise((resolve) => {
      const settle = (state: 'up' | 'down') => {
        clearTimeout(timer);
        redis.off('ready', up);
        redis.off('error', down);
        resolve(state);
      };
      const up = () => settle('up');
      const down = () => settle('down');
      const timer = setTimeout(down, 2_500);
      redis.once('ready', up);
      redis.once('error', down);
    });
  }

  private readonly redisUrl: string | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const logger = new Logger('LoginThrottle');
    this.redisUrl = config.redisUrl;
    if (config.redisUrl) {
      this.redis = createRedis(config.redisUrl, 'cal-throttle');
      const outage = { failing: false };
      this.stores = {
        failures: new RedisThrottleStore(this.redis, 'cal:throttle:f:', logger, outage),
        trusted: new RedisThrottleStore(this.redis, 'cal:throttle:t:', logger, outage),
      };
    } else if (isClusterWorker() && process.send) {
      const send = process.send.bind(process);
      this.channel = new ThrottleChannel((message, done) => send(message, undefined, {}, done));
      process.on('message', this.channel.receive);
      // One warning per outage, not one per store (a failed login asks both).
      let warned = false;
      const onFailure = (error: Error, recovered: boolean) => {
        if (recovered === !warned) return;
        warned = !recovered;
        if (recovered) logger.log('the primary process answers again: login failures are shared');
        else logger.warn(`login failures counted in this worker meanwhile: ${error.message}`);
      };
      this.stores = {
        failures: new ClusterThrottleStore(
          this.channel,
          'failures',
          new MemoryThrottleStore(FALLBACK_KEYS),
          onFailure,
        ),
        trusted: new ClusterThrottleStore(
          this.channel,
          'trusted',
          new MemoryThrottleStore(FALLBACK_KEYS),
          onFailure,
        ),
      };
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
    if (this.channel) {
      process.off('message', this.channel.receive);
      this.channel.close();
    }
  }
}
