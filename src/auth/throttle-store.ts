import { LRUCache } from 'lru-cache';
import { lruBounds } from '../common/lru-bounds.js';

/** Bounds of the in-memory stores: about 200 bytes a key, so some 30 MB at worst. */
export const MAX_FAILURE_KEYS = 100_000;
export const MAX_TRUSTED_KEYS = 50_000;

/** A counter that lives until `expiresAt` (milliseconds since the epoch). */
export interface Counter {
  count: number;
  expiresAt: number;
}

/**
 * Where the login throttle keeps its counters. Every operation is one round trip so that a
 * shared implementation (Redis, for several server processes) maps onto it directly:
 * `get` → a pipeline of `GET` + `PTTL`, `increment` → `INCR` + `PEXPIRE … NX` + `PTTL` in one
 * `MULTI`, `set` → `SET … PX`, `delete` → `DEL`. Times are passed in so tests can use a fake clock.
 */
export interface ThrottleStore {
  /** The live counters of `keys`, in order (`null` where a key is absent or expired). */
  get(keys: readonly string[], now: number): Promise<(Counter | null)[]>;
  /**
   * Adds one to each key. A key that does not exist (or has expired) starts at 1 and lives
   * `ttlMs`; an existing key keeps its expiry (a fixed window from its first hit).
   */
  increment(hits: readonly { key: string; ttlMs: number }[], now: number): Promise<Counter[]>;
  /** Creates or replaces `key` with a count of 1 that lives `ttlMs`. */
  set(key: string, ttlMs: number, now: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * The in-process store: an LRU cache holding at most `maxEntries` keys. When it is full, the key
 * written longest ago is dropped (reads use `peek`, which leaves the order alone, and every write
 * re-inserts), so any number of distinct made-up logins costs bounded memory; expired keys are
 * dropped when met.
 */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly entries: LRUCache<string, Counter>;

  constructor(maxEntries: number) {
    this.entries = new LRUCache(lruBounds<string, Counter>(maxEntries));
  }

  get size(): number {
    return this.entries.size;
  }

  get(keys: readonly string[], now: number): Promise<(Counter | null)[]> {
    return Promise.resolve(keys.map((key) => this.live(key, now)));
  }

  increment(hits: readonly { key: string; ttlMs: number }[], now: number): Promise<Counter[]> {
    return Promise.resolve(
      hits.map(({ key, ttlMs }) => {
        const current = this.live(key, now);
        const next = current
          ? { count: current.count + 1, expiresAt: current.expiresAt }
          : { count: 1, expiresAt: now + ttlMs };
        this.entries.set(key, next);
        return { ...next };
      }),
    );
  }

  set(key: string, ttlMs: number, now: number): Promise<void> {
    this.entries.set(key, { count: 1, expiresAt: now + ttlMs });
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  private live(key: string, now: number): Counter | null {
    const entry = this.entries.peek(key);
    if (!entry) return null;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }
}
