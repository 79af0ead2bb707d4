import { MemoryThrottleStore } from './throttle-store.js';

describe('MemoryThrottleStore', () => {
  it('counts in a fixed window from the first hit', async () => {
    const store = new MemoryThrottleStore(10);
    expect(await store.increment([{ key: 'k', ttlMs: 1000 }], 0)).toEqual([
      { count: 1, expiresAt: 1000 },
    ]);
    expect(await store.increment([{ key: 'k', ttlMs: 1000 }], 500)).toEqual([
      { count: 2, expiresAt: 1000 },
    ]);
    expect(await store.get(['k', 'other'], 999)).toEqual([{ count: 2, expiresAt: 1000 }, null]);
    expect(await store.get(['k'], 1000)).toEqual([null]);
    expect(await store.increment([{ key: 'k', ttlMs: 1000 }], 1000)).toEqual([
      { count: 1, expiresAt: 2000 },
    ]);
  });

  it('sets and deletes marks', async () => {
    const store = new MemoryThrottleStore(10);
    await store.set('m', 50, 0);
    expect(await store.get(['m'], 49)).toEqual([{ count: 1, expiresAt: 50 }]);
    await store.delete('m');
    expect(await store.get(['m'], 0)).toEqual([null]);
  });

  it('holds at most maxEntries keys, dropping the one written longest ago', async () => {
    const store = new MemoryThrottleStore(1000);
    for (let i = 0; i < 300_000; i++) await store.increment([{ key: `x${i}`, ttlMs: 60_000 }], 0);
    expect(store.size).toBe(1000);
    expect(await store.get(['x0', 'x299999'], 0)).toEqual([null, { count: 1, expiresAt: 60_000 }]);
    // A key written again moves to the newest end and survives the next evictions.
    await store.increment([{ key: 'x299000', ttlMs: 60_000 }], 0);
    for (let i = 0; i < 999; i++) await store.set(`y${i}`, 60_000, 0);
    expect((await store.get(['x299000'], 0))[0]?.count).toBe(2);
    expect((await store.get(['x299001'], 0))[0]).toBeNull();
  });
});
