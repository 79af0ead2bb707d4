import { LRUCache } from 'lru-cache';
import { cacheCounters, type CacheCounters } from '../metrics/cache-stats.js';
import type { WriteVersion } from './write-version.js';

interface Entry<V> {
  /** The write version the value was read at (taken before reading). */
  version: number;
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
 * Values read from the database, kept while no write has been committed since they were read
 * (their write version is the current one: across processes through SharedGeneration) and for
 * `ttlMs` at most (what the clock alone changes). The invalidation every read cache shares:
 * answers, record payloads, list totals, page starts, resolved filters.
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

  /** The value of `key`, if read since the last write and not expired (else forgotten). */
  get(key: string, now = Date.now()): V | undefined {
    const found = this.lookup(key, now);
    return found && !found.expired ? found.value : undefined;
  }

  /**
   * The value of `key` if read since the last write, also for `graceMs` after it expired (then
   * `expired` says so); forgotten otherwise.
   */
  lookup(key: string, now = Date.now(), graceMs = 0): { value: V; expired: boolean } | undefined {
    const hit = this.entries.get(key);
    if (hit && hit.version === this.versions.current() && hit.expires + graceMs > now) {
      this.stats.hits++;
      return { value: hit.value, expired: hit.expires <= now };
    }
    this.stats.misses++;
    if (hit) this.entries.delete(key);
    return undefined;
  }

  /** Stores `value`, read at write version `version`. */
  set(key: string, version: number, value: V, now = Date.now()): void {
    this.entries.set(key, { version, expires: now + this.ttlMs, value });
  }

  get size(): number {
    return this.entries.size;
  }
}
