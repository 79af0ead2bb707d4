import { Logger } from '@nestjs/common';
import { createRedis } from '../database/redis.js';
import { RedisThrottleStore } from './redis-throttle-store.js';

/** Nothing listens on port 1: every command fails at once (no offline queue). */
describe('RedisThrottleStore while Redis does not answer', () => {
  const redis = createRedis('redis://127.0.0.1:1', 'test');
  const warn = vi.fn();
  const store = new RedisThrottleStore(redis, 'cal:test:', {
    warn,
    log: vi.fn(),
  } as unknown as Logger);
  afterAll(() => redis.disconnect());

  it('counts in memory instead, and says so once', async () => {
    const now = 1_000_000;
    expect(await store.increment([{ key: 'k', ttlMs: 60_000 }], now)).toEqual([
      { count: 1, expiresAt: now + 60_000 },
    ]);
    expect(await store.increment([{ key: 'k', ttlMs: 60_000 }], now + 1)).toEqual([
      { count: 2, expiresAt: now + 60_000 },
    ]);
    expect(await store.get(['k', 'other'], now + 2)).toEqual([
      { count: 2, expiresAt: now + 60_000 },
      null,
    ]);
    await store.set('t', 1000, now);
    await store.delete('k');
    expect(await store.get(['k', 't'], now + 3)).toEqual([
      null,
      { count: 1, expiresAt: now + 1000 },
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
