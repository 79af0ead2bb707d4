import { SetMetadata } from '@nestjs/common';

export const CACHED_READS = 'cal:cached-reads';

/** How an opted-in controller's answers are dropped (docs/caches.md). */
export interface CachedReadsOptions {
  /**
   * Whether every read its handlers make says what it depends on (dependsOn, the read caches):
   * an answer is then dropped only when one of those changes. Otherwise any write drops it.
   */
  tracked: boolean;
}

/**
 * Marks a resource controller whose anonymous GET answers may be served from the response
 * cache. Only controllers whose answers depend on nothing but the URL (and the format
 * `Accept` picks, calendarNegotiation), the stored records and the clock opt in (not /health,
 * not the bench ceiling). Their answers are JSON bodies or Rendered ones (pages, feeds).
 */
export const CachedReads = (options: CachedReadsOptions = { tracked: false }) =>
  SetMetadata(CACHED_READS, options);
