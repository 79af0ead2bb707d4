import { writeVersion } from './write-version.js';

/**
 * Archive totals by query. Counting tens of thousands of index entries is the most expensive
 * part of a list request, and a total changes with a write, a scheduled record going live (both
 * bump writeVersion, see ScheduledPublications) or, for filters relative to now such as
 * `only_with_upcoming`, with the clock alone: an entry is used while no write has been committed
 * since it was counted and for one second at most.
 */
export class TotalsCache {
  private readonly entries = new Map<string, { version: number; expires: number; total: number }>();

  constructor(
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 1_000,
  ) {}

  async get(key: string, count: () => Promise<number>): Promise<number> {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const version = writeVersion();
    const total = await count();
    this.put(key, version, total);
    return total;
  }

  /** The cached total of `key`, if still valid. */
  peek(key: string): number | undefined {
    const hit = this.entries.get(key);
    return hit && hit.version === writeVersion() && hit.expires > Date.now()
      ? hit.total
      : undefined;
  }

  /** Stores a total counted while writeVersion() was `version` (read before counting). */
  put(key: string, version: number, total: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { version, expires: Date.now() + this.ttlMs, total });
  }
}

/** The clock at the grain totals are cached with: `2026-11-23 10:5` (ten minutes). */
export const totalsClock = (nowUtc: string) => nowUtc.slice(0, 15);
