import { LRUCache } from 'lru-cache';
import { lruBounds } from '../common/lru-bounds.js';
import { cacheCounters, type CacheCounters } from '../metrics/cache-stats.js';
import { dependsOn } from './dependencies.js';
import type { Tags } from './dependencies.js';
import type { WriteVersion } from './write-version.js';

interface Entry<V> {
  /** The write version the value was read at (taken before reading). */
  version: number;
  /** What the value depends on (undefined: anything). */
  tags: Tags | undefined;
  /**
   * What it depends on as well, one array shared with the other values read in the same batch
   * (a page's records): kept once, not copied into every entry.
   */
  shared: Tags | undefined;
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
  /**
   * How long after it expires an entry may still be looked up (the longest `graceMs` the cache's
   * readers pass to `lookup`); past that the sweep drops it. Default 0.
   */
  graceMs?: number;
}

/** How often at most a cache drops what can no longer be served (on a `set`). */
const SWEEP_EVERY_MS = 1_000;

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
  private readonly graceMs: number;
  /** When the last sweep ran, and at which write version. */
  private swept = { at: 0, version: -1 };

  constructor(
    private readonly versions: WriteVersion,
    private readonly ttlMs: number,
    options: VersionedCacheOptions<V>,
  ) {
    const { sizeOf, name, graceMs = 0, max, maxSize, maxEntrySize } = options;
    this.graceMs = graceMs;
    const stats = (this.stats = cacheCounters(name ?? 'other', this));
    const size = sizeOf && ((entry: Entry<V>) => Math.max(1, sizeOf(entry.value)));
    this.entries = new LRUCache<string, Entry<V>>({
      // Bounded by entries (lruBounds: without preallocating them), by size, or both.
      ...(max !== undefined
        ? lruBounds(max, maxSize, size)
        : { maxSize, ...(size && { sizeCalculation: size }) }),
      ...(maxEntrySize !== undefined && { maxEntrySize }),
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') stats.evictions++;
      },
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

  /**
   * The value of `key`, if still current and not expired. Otherwise it is forgotten, unless
   * `keep`: then it stays stored until a `set` replaces it or the sweep drops it, so that the
   * value computed again can be compared with it (`stored`).
   */
  get(key: string, now = Date.now(), keep = false): V | undefined {
    const found = this.lookup(key, now, 0, keep);
    return found && !found.expired ? found.value : undefined;
  }

  /**
   * The value stored under `key` whatever its state (expired, or stale since a write), without
   * counting a hit or a miss or making it recently used: what a value computed again may equal.
   * Never a value to serve.
   */
  stored(key: string): V | undefined {
    return this.entries.peek(key)?.value;
  }

  /**
   * The value of `key` if still current, also for `graceMs` after it expired (then
   * `expired` says so); forgotten otherwise (unless `keep`: see `get`).
   */
  lookup(
    key: string,
    now = Date.now(),
    graceMs = 0,
    keep = false,
  ): { value: V; expired: boolean } | undefined {
    const hit = this.entries.get(key);
    if (
      hit &&
      hit.expires + graceMs > now &&
      this.versions.fresh(hit.version, hit.tags) &&
      (!hit.shared || this.versions.fresh(hit.version, hit.shared))
    ) {
      this.stats.hits++;
      dependsOn(hit.tags);
      if (hit.shared) dependsOn(hit.shared);
      return { value: hit.value, expired: hit.expires <= now };
    }
    this.stats.misses++;
    if (hit && !keep) this.entries.delete(key);
    return undefined;
  }

  /**
   * Stores `value`, read at write version `version`, depending on `tags` (on anything if none)
   * and on `shared`, tags that values read together share (the array itself is kept, not copied).
   */
  set(key: string, version: number, value: V, now = Date.now(), tags?: Tags, shared?: Tags): void {
    this.entries.set(key, { version, tags, shared, expires: now + this.ttlMs, value });
    if (now - this.swept.at >= SWEEP_EVERY_MS) this.sweep(now);
  }

  /**
   * Drops the entries that can no longer be served: expired (and past their grace), or stale
   * since a write changed what they depend on. Without it they would stay until the least
   * recently used went beyond the bounds: a response cache with a TTL of a second held its whole
   * 64 MB of answers long expired (issue 53: 33 of 51 MB of buffers after the memory scenario's
   * reads were such answers). At most once a second, on a `set` (a cache nobody writes to holds
   * what it held); an entry's freshness is only looked at when a write came since the last sweep.
   */
  private sweep(now: number): void {
    const versionMoved = this.swept.version !== this.versions.current();
    this.swept = { at: now, version: this.versions.current() };
    const gone: string[] = [];
    for (const [key, entry] of this.entries.entries()) {
      const usable =
        entry.expires + this.graceMs > now &&
        (!versionMoved ||
          (this.versions.fresh(entry.version, entry.tags) &&
            (!entry.shared || this.versions.fresh(entry.version, entry.shared))));
      if (!usable) gone.push(key);
    }
    for (const key of gone) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
