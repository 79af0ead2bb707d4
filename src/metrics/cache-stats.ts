/** What the caches of one kind have counted since the process started. */
export interface CacheCounters {
  hits: number;
  misses: number;
  evictions: number;
}

interface Kind {
  counters: CacheCounters;
  /** The caches of this kind alive now, held weakly (a test builds and drops whole apps). */
  caches: Set<WeakRef<{ readonly size: number }>>;
}

const kinds = new Map<string, Kind>();

/**
 * The counters of the caches named `name` (the `cache` label of the metrics), shared by every
 * cache of that name: plain numbers bumped on the hot path (no label look-up, no allocation),
 * read when the metrics are scraped. They only grow, whichever instance counted. `cache`, when
 * given, is counted in the kind's size while it is alive.
 */
export function cacheCounters(name: string, cache?: { readonly size: number }): CacheCounters {
  let kind = kinds.get(name);
  if (!kind) {
    kind = { counters: { hits: 0, misses: 0, evictions: 0 }, caches: new Set() };
    kinds.set(name, kind);
  }
  if (cache) kind.caches.add(new WeakRef(cache));
  return kind.counters;
}

/** Every kind of cache: its counters and the entries its live caches hold. */
export function cacheTotals(): Array<{ name: string; size: number } & CacheCounters> {
  return [...kinds].map(([name, kind]) => {
    let size = 0;
    for (const ref of kind.caches) {
      const cache = ref.deref();
      if (cache) size += cache.size;
      else kind.caches.delete(ref);
    }
    return { name, size, ...kind.counters };
  });
}
