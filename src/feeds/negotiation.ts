import type { NextFunction, Request, Response } from 'express';
import { NAMESPACE } from '../common/http/links.js';

const LIST = `/${NAMESPACE}/events`;

/**
 * Express middleware: `GET /events` asked for with `Accept: text/calendar` (and not preferring
 * JSON) is answered by the iCalendar feed of the same query, `GET /events.ics`.
 */
export function calendarNegotiation(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const accept = req.headers.accept;
  if (!accept || !accept.toLowerCase().includes('text/calendar')) return next();
  const path = req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
  if (
    !path.endsWith(LIST) ||
    req.accepts(['application/json', 'text/calendar']) !== 'text/calendar'
  ) {
    return next();
  }
  const query = req.url.indexOf('?');
  req.url = `${path}.ics${query >= 0 ? req.url.slice(query) : ''}`;
  next();
}
