import { SetMetadata } from '@nestjs/common';

export const CACHED_READS = 'cal:cached-reads';

/**
 * Marks a resource controller whose anonymous GET answers may be served from the response
 * cache. Only controllers whose answers depend on nothing but the URL (and the format
 * `Accept` picks, calendarNegotiation), the stored records and the clock opt in (not /health,
 * not the bench ceiling). Their answers are JSON bodies or Rendered ones (pages, feeds).
 */
export const CachedReads = () => SetMetadata(CACHED_READS, true);
