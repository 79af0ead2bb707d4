import { getHeapStatistics } from 'node:v8';
import { LRUCache } from 'lru-cache';
import { lruBounds } from './lru-bounds.js';

describe('lruBounds', () => {
  it('keeps at most maxEntries entries, the least recently used going first', () => {
    const cache = new LRUCache<string, number>(lruBounds<string, number>(3));
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    cache.get('a');
    cache.set('d', 3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    for (let i = 0; i < 1_000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
  });

  it('keeps both bounds: at most maxEntries small values, at most maxSize of large ones', () => {
    const bounds = lruBounds<string, string>(4, 100, (value) => value.length);
    const cache = new LRUCache<string, string>(bounds);
    for (let i = 0; i < 10; i++) cache.set(`small${i}`, 'x');
    expect(cache.size).toBe(4);
    for (let i = 0; i < 10; i++) cache.set(`large${i}`, 'y'.repeat(40));
    expect(cache.size).toBe(2);
    expect(cache.calculatedSize).toBeLessThanOrEqual(100);
    // A value larger than the whole budget is not kept.
    cache.set('huge', 'z'.repeat(101));
    expect(cache.has('huge')).toBe(false);
  });

  it('allocates nothing for entries the cache does not hold yet', () => {
    const before = getHeapStatistics().used_heap_size;
    // With lru-cache's `max` these would be 2 million slots each: above 30 MB at once.
    const caches = Array.from(
      { length: 2 },
      () => new LRUCache<string, number>(lruBounds<string, number>(2_000_000)),
    );
    caches[0].set('one', 1);
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(4 * 1024 * 1024);
    expect(caches[0].get('one')).toBe(1);
  });
});
