import { LRUCache } from 'lru-cache';
import { cacheCounters, type CacheCounters } from '../metrics/cache-stats.js';
import { dependsOn } from './dependencies.js';
import type { Tags } from './dependencies.js';
import type { WriteVersion } from './write-version.js';

interface Entry<V> {
  /** The write version the value was read at (taken before reading). */
  version: number;
  /** What the value depends on (undefined: anything). */
  tags: Tags | undefined;
  expires: number;
  value: V;
}

export interface VersionedCacheOptions<V> {
  /** At most this many entries, or entries of this total `sizeOf` (least recently used go first). */
  max?: number;
  maxSize?: number;
  /** A value larger than this is not stored. */
  maxEntrySize?: number;
  sizeOf?: (value: V) => number;
  /** The `cache` label of its hit, miss, eviction and size metrics. */
  name?: string;
}

/**
 * Values read from the database, kept while nothing they depend on (their tags) has changed
 * since they were read (WriteVersion.fresh: across processes through SharedGeneration) and for
 * `ttlMs` at most (what the clock alone changes). The invalidation every read cache shares:
 * answers, record payloads, list totals, page starts, resolved filters. A hit counts its tags
 * for the read running now (dependsOn), so that an answer built from it depends on them too.
 */
export class VersionedCache<V extends object | number | string> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly stats: CacheCounters;

  constructor(
    private readonly versions: WriteVersion,
    private readonly ttlMs: number,
    options: VersionedCacheOptions<V>,
  ) {
    const { sizeOf, name, ...bounds } = options;
    const stats = (this.stats = cacheCounters(name ?? 'other', this));
    this.entries = new LRUCache<string, Entry<V>>({
      ...bounds,
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') stats.evictions++;
      },
      ...(sizeOf && { sizeCalculation: (entry: Entry<V>) => Math.max(1, sizeOf(entry.value)) }),
    } as LRUCache.Options<string, Entry<V>, unknown>);
  }

  /** The write version now: take it before reading what will be stored. */
  version(): number {
    return this.versions.current();
  }

  /** Whether what was read at `version` and depends on `tags` is still current. */
  fresh(version: number, tags: Tags | undefined): boolean {
    return this.versions.fresh(version, tags);
  }

  /** The value of `key`, if still current and not expired (else forgotten). */
  get(key: string, now = Date.now()): V | undefined {
    const found = this.lookup(key, now);
    return found && !found.expired ? found.value : undefined;
  }

  /**
   * The value of `key` if still current, also for `graceMs` after it expired (then
   * `expired` says so); forgotten otherwise.
   */
  lookup(key: string, now = Date.now(), graceMs = 0): { value: V; expired: boolean } | undefined {
    const hit = this.entries.get(key);
    if (hit && hit.expires + graceMs > now && this.versions.fresh(hit.version, hit.tags)) {
      this.stats.hits++;
      dependsOn(hit.tags);
      return { value: hit.value, expired: hit.expires <= now };
    }
    this.stats.misses++;
    if (hit) this.entries.delete(key);
    return undefined;
  }

  /** Stores `value`, read at write version `version`, depending on `tags` (on anything if none). */
  set(key: string, version: number, value: V, now = Date.now(), tags?: Tags): void {
    this.entries.set(key, { version, tags, expires: now + this.ttlMs, value });
  }

  get size(): number {
    return this.entries.size;
  }
}
