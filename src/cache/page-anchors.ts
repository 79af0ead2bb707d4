import { VersionedCache } from './versioned-cache.js';
import type { WriteVersion } from './write-version.js';

/** How long a page start is trusted, writes aside (filters relative to the clock). */
export const ANCHOR_TTL_MS = 1_000;

/**
 * Where pages of a list start: the sort values (one per column of the order) of the row at an
 * offset, remembered by list (the filters and the reader) and offset. With them a page seeks to
 * its first row through the index instead of skipping every entry before it, so a deep page
 * costs what page 1 does the second time it is asked for, and a crawler walking the pages in
 * order seeks every one (each page remembers where the next one starts). Valid under the same
 * rules as the list totals (TotalsCache): no write committed since; for a second, then for one
 * more second while one request finds the start again behind its answer (database/page-ids.ts),
 * so that a deep page never waits for its thousands of index entries to be skipped again.
 */
export class PageAnchors extends VersionedCache<Array<string | number>> {
  /** The starts being found again, by key. */
  readonly refreshing = new Set<string>();

  constructor(versions: WriteVersion, name: string) {
    super(versions, ANCHOR_TTL_MS, { max: 10_000, name, graceMs: ANCHOR_TTL_MS });
  }
}
