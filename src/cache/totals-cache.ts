import { VersionedCache } from './versioned-cache.js';
import { dependsOn } from './dependencies.js';
import type { Tags } from './dependencies.js';
import type { WriteVersion } from './write-version.js';

type CountMany = (missing: string[]) => Promise<Map<string, number>>;
/** What the total of a key depends on (docs/caches.md; undefined: anything). */
type TagsOf = (key: string) => Tags | undefined;
const anything: TagsOf = () => undefined;

/**
 * Archive totals and term counts by query. Counting tens of thousands of index entries is the
 * most expensive part of a list request, and a total changes with a write that changes one of
 * its tags (what its list depends on), a scheduled record going live (both bump the
 * WriteVersion, see ScheduledPublications) or, for filters relative to now such as
 * `only_with_upcoming`, with the clock alone.
 *
 * - After such a write, a total is counted again before it is answered: a read reflects the
 *   writes committed before it.
 * - With no write since, a total is answered for `ttlMs`; for one more `ttlMs` after that, the
 *   last total is answered at once while it is counted again (one count at a time), so what the
 *   clock alone changes shows within about two `ttlMs`. Before, the requests that came while a
 *   total was being counted again, about once a second, all waited for it: the slowest
 *   hundredth of computed list requests took three times the mean.
 *
 * Concurrent requests that miss the same key share one count (one still current), so an
 * expiring entry does not send every request in flight to the database.
 */
export class TotalsCache {
  /** At most maxEntries totals; the least recently used go first. */
  private readonly entries: VersionedCache<number>;
  private readonly inflight = new Map<
    string,
    { version: number; tags: Tags | undefined; total: Promise<number | undefined> }
  >();

  constructor(
    versions: WriteVersion,
    private readonly ttlMs = 1_000,
    maxEntries = 1_000,
    name = 'totals',
  ) {
    this.entries = new VersionedCache(versions, ttlMs, { max: maxEntries, name, graceMs: ttlMs });
  }

  async get(key: string, count: () => Promise<number>, tags?: Tags): Promise<number> {
    const totals = await this.getMany(
      [key],
      async () => new Map([[key, await count()]]),
      () => tags,
    );
    return totals.get(key)!;
  }

  /**
   * Totals of `keys`; those neither cached nor being counted are counted together by
   * `countMany` (one query), which may leave out keys that have no total. `tagsOf` says what
   * each total depends on (by default: anything); the read running now depends on them all.
   */
  async getMany(
    keys: string[],
    countMany: CountMany,
    tagsOf: TagsOf = anything,
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const waiting: Array<[string, Promise<number | undefined>]> = [];
    const missing: string[] = [];
    const stale: string[] = [];
    const version = this.entries.version();
    const now = Date.now();
    for (const key of new Set(keys)) {
      const tags = tagsOf(key);
      dependsOn(tags);
      const found = this.entries.lookup(key, now, this.ttlMs);
      const pending = this.inflight.get(key);
      const counting = pending !== undefined && this.entries.fresh(pending.version, pending.tags);
      if (found) {
        out.set(key, found.value);
        if (found.expired && !counting) stale.push(key);
      } else if (counting) waiting.push([key, pending.total]);
      else missing.push(key);
    }
    // Counted again behind the answer: a failure leaves the entry to expire.
    if (stale.length) {
      for (const [, total] of this.count(stale, version, countMany, tagsOf)) {
        total.catch(() => undefined);
      }
    }
    if (missing.length) waiting.push(...this.count(missing, version, countMany, tagsOf));
    for (const [key, total] of waiting) {
      const value = await total;
      if (value !== undefined) out.set(key, value);
    }
    return out;
  }

  /** Starts one count of `keys` (read at `version`), shared by whoever asks meanwhile. */
  private count(
    keys: string[],
    version: number,
    countMany: CountMany,
    tagsOf: TagsOf,
  ): Array<[string, Promise<number | undefined>]> {
    const batch = countMany(keys);
    return keys.map((key) => {
      const tags = tagsOf(key);
      const total = batch.then((totals) => {
        const value = totals.get(key);
        if (value !== undefined) this.entries.set(key, version, value, Date.now(), tags);
        return value;
      });
      const flight = { version, tags, total };
      this.inflight.set(key, flight);
      void total
        .finally(() => {
          if (this.inflight.get(key) === flight) this.inflight.delete(key);
        })
        .catch(() => undefined);
      return [key, total];
    });
  }
}
