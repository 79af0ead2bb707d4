import { VersionedCache } from './versioned-cache.js';
import type { WriteVersion } from './write-version.js';

/**
 * Archive totals and term counts by query. Counting tens of thousands of index entries is the
 * most expensive part of a list request, and a total changes with a write, a scheduled record
 * going live (both bump the WriteVersion, see ScheduledPublications) or, for filters relative to now
 * such as `only_with_upcoming`, with the clock alone: an entry is used while no write has been
 * committed since it was counted and for one second at most.
 *
 * Concurrent requests that miss the same key share one count (counted while the write version
 * was the same), so an expiring entry does not send every request in flight to the database.
 */
export class TotalsCache {
  /** At most maxEntries totals; the least recently used go first. */
  private readonly entries: VersionedCache<number>;
  private readonly inflight = new Map<
    string,
    { version: number; total: Promise<number | undefined> }
  >();

  constructor(versions: WriteVersion, ttlMs = 1_000, maxEntries = 1_000) {
    this.entries = new VersionedCache(versions, ttlMs, { max: maxEntries });
  }

  async get(key: string, count: () => Promise<number>): Promise<number> {
    const totals = await this.getMany([key], async () => new Map([[key, await count()]]));
    return totals.get(key)!;
  }

  /**
   * Totals of `keys`; those neither cached nor being counted are counted together by
   * `countMany` (one query), which may leave out keys that have no total.
   */
  async getMany(
    keys: string[],
    countMany: (missing: string[]) => Promise<Map<string, number>>,
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const waiting: Array<[string, Promise<number | undefined>]> = [];
    const missing: string[] = [];
    const version = this.entries.version();
    for (const key of new Set(keys)) {
      const hit = this.peek(key);
      const pending = this.inflight.get(key);
      if (hit !== undefined) out.set(key, hit);
      else if (pending?.version === version) waiting.push([key, pending.total]);
      else missing.push(key);
    }
    if (missing.length) {
      const batch = countMany(missing);
      for (const key of missing) {
        const total = batch.then((totals) => {
          const value = totals.get(key);
          if (value !== undefined) this.entries.set(key, version, value);
          return value;
        });
        const flight = { version, total };
        this.inflight.set(key, flight);
        void total
          .finally(() => {
            if (this.inflight.get(key) === flight) this.inflight.delete(key);
          })
          .catch(() => undefined);
        waiting.push([key, total]);
      }
    }
    for (const [key, total] of waiting) {
      const value = await total;
      if (value !== undefined) out.set(key, value);
    }
    return out;
  }

  /** The cached total of `key`, if still valid. */
  peek(key: string): number | undefined {
    return this.entries.get(key);
  }
}
