import { Injectable } from '@nestjs/common';
import { ANCHOR_TTL_MS, PageAnchors } from './page-anchors.js';
import { TotalsCache } from './totals-cache.js';
import { VersionedCache } from './versioned-cache.js';
import { WriteVersion } from './write-version.js';

/** How long a list total or a term count is answered without counting again, writes aside. */
const TOTALS_TTL_MS = 1_000;

/**
 * Where the repositories get their read caches: every cache is made here, under the one
 * invalidation (WriteVersion) and with the name its metrics carry, so that a repository holds
 * a cache without knowing how it is dropped. docs/caches.md lists them all.
 */
@Injectable()
export class Caches {
  constructor(private readonly versions: WriteVersion) {}

  /** List totals or counts by query (`max` of them, least recently used go first). */
  totals(name: string, max = 1_000): TotalsCache {
    return new TotalsCache(this.versions, TOTALS_TTL_MS, max, name);
  }

  /** Where the pages of a list start (database/page-ids.ts). */
  pageAnchors(): PageAnchors {
    return new PageAnchors(this.versions, 'page_anchors');
  }

  /**
   * The rows of list pages by list and page (`maxRows` rows in all), trusted as long as page
   * starts are: what a page shows beyond its records (which records, in which order) survives
   * a write that changes none of that, as an edit of a listed record's description.
   */
  pageRows<V extends object>(name: string, maxRows = 50_000): VersionedCache<V[]> {
    return new VersionedCache<V[]>(this.versions, ANCHOR_TTL_MS, {
      maxSize: maxRows,
      sizeOf: (rows) => rows.length,
      name,
      graceMs: ANCHOR_TTL_MS,
    });
  }

  /** Answers read from the database, kept until what they depend on changes (`max` of them). */
  untilChanged<V extends object>(name: string, max: number): VersionedCache<V> {
    return new VersionedCache<V>(this.versions, Infinity, { max, name });
  }
}
