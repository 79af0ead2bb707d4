import type { Response } from 'express';
import { httpDate } from '../common/http/conditional.js';
import type { EventPayload } from './ics.js';

/** The newest `modified_utc` of the events, as an HTTP date (Last-Modified of a feed). */
export function newestModified(events: EventPayload[]): string | undefined {
  let newest = '';
  for (const event of events) {
    const modified = typeof event.modified_utc === 'string' ? event.modified_utc : '';
    if (modified > newest) newest = modified;
  }
  return newest ? httpDate(newest) : undefined;
}

/**
 * Sends an iCalendar body. Express adds the strong ETag and answers 304 to a fresh conditional
 * request (conditional.ts).
 */
export function sendCalendar(
  res: Response,
  body: string,
  filename: string,
  lastModified: string | undefined,
): void {
  res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
  res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
  if (lastModified) res.setHeader('Last-Modified', lastModified);
  res.send(body);
}
