import type { Response } from 'express';
import { Rendered } from '../common/http/body-bytes.adapter.js';
import { httpDate } from '../common/http/conditional.js';
import type { TecEvent } from '../common/payload/tec-payload.js';

/** The Last-Modified of a calendar: its newest event's `modified_utc` as an HTTP date. */
export function lastModifiedOf(calendar: { newestModifiedUtc: string }): string | undefined {
  return calendar.newestModifiedUtc ? httpDate(calendar.newestModifiedUtc) : undefined;
}

/** The newest `modified_utc` of the events, as an HTTP date (Last-Modified of a feed). */
export function newestModified(events: readonly TecEvent[]): string | undefined {
  let newest = '';
  for (const event of events) {
    const modified = event.modified_utc;
    if (modified > newest) newest = modified;
  }
  return newest ? httpDate(newest) : undefined;
}

/**
 * An iCalendar answer. Returned, not sent: the response cache keeps it for anonymous readers;
 * the adapter gives it Express's strong ETag and answers 304 to a fresh conditional request
 * (conditional.ts).
 */
export function calendarAnswer(
  res: Response,
  body: Buffer,
  filename: string,
  lastModified: string | undefined,
): Rendered {
  res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
  res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
  if (lastModified) res.setHeader('Last-Modified', lastModified);
  return new Rendered(200, body);
}
