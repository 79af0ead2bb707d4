/**
 * Options for lru-cache bounding a cache to `maxEntries` entries (and, with `maxSize`, to that
 * total of `sizeOf` its entries) without allocating for all of them up front. lru-cache's own
 * `max` preallocates two arrays of `max` slots and three typed arrays as long as soon as the cache
 * is made: the throttle stores, the credential cache and the text memos held about 6 MB of them
 * in an idle server (a third of its heap beyond code and module sources), most never used. A
 * cache bounded by `maxSize` alone grows with what it holds, so the count is made a size here:
 * every entry counts for at least `maxSize / maxEntries`, which keeps both bounds.
 */
export function lruBounds<K, V>(
  maxEntries: number,
  maxSize?: number,
  sizeOf?: (value: V, key: K) => number,
): { maxSize: number; sizeCalculation: (value: V, key: K) => number } {
  const entries = Math.max(1, Math.floor(maxEntries));
  if (maxSize === undefined || !sizeOf) return { maxSize: entries, sizeCalculation: () => 1 };
  const least = Math.max(1, Math.ceil(maxSize / entries));
  return {
    maxSize,
    sizeCalculation: (value, key) => Math.max(least, Math.ceil(sizeOf(value, key))),
  };
}
