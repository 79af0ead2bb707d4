import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context.js';
import type { TecEvent } from '../../common/payload/tec-payload.js';
import type { ListEventsQuery } from '../../events/dto/list-events.query.js';
import type { DatedList } from '../../events/event-reads.js';
import { EventsService } from '../../events/events.service.js';
import { read } from '../page-reads.js';
import { daysBetween, nextDay, strictBound } from './calendar-dates.js';

/**
 * The most events one grid shows (a month of a busy calendar holds about 1,300): beyond, the
 * first ones in the list's order, and the view says how many more there are.
 */
export const MAX_VIEW_EVENTS = 2_000;

/** The filters a view narrows the calendar by (its category or tag, `?venue=`, …). */
export type ViewFilter = Pick<
  ListEventsQuery,
  'categories' | 'tags' | 'venue' | 'organizer' | 'search'
>;

/** The events of a window, in the list's order, and how many the window holds. */
export interface WindowEvents {
  events: TecEvent[];
  total: number;
}

/**
 * The date filters of `GET /events` that list the events shown on the days `first` to `last`
 * of the site's calendar: those whose local start is before the day after `last` and whose
 * local end is not before `first` (strict bounds, read as UTC and compared in the site's zone:
 * see strictBound). The same query string asked of the API lists what a day's cell shows.
 */
export function windowQuery(first: string, last: string | undefined, zone: string) {
  return {
    ...(last !== undefined && { starts_before: strictBound(nextDay(last), zone) }),
    ends_after: strictBound(first, zone, 1),
    strict_dates: 'true',
  };
}

/**
 * The reads of the calendar views: a window of the events list through EventsService.list, as
 * `GET /events` answers the same reader (statuses, passwords, hidden events, language), in one
 * page: one range query and one read of the page's records with what they embed.
 */
@Injectable()
export class CalendarReads {
  constructor(private readonly events: EventsService) {}

  /**
   * The events shown from `first` to `last`, placed by their dates; undefined when a filter
   * names nothing. Their payloads are built for those the view shows (`present`).
   */
  async window(
    first: string,
    last: string,
    filter: ViewFilter,
    ctx: RequestContext,
  ): Promise<DatedList | undefined> {
    const query = {
      ...filter,
      ...windowQuery(first, last, ctx.config.siteTimezone),
      page: 1,
      per_page: MAX_VIEW_EVENTS,
    } as ListEventsQuery;
    // The page's size is the view's, not MAX_PER_PAGE's (which bounds what clients ask for).
    const wide = { ...ctx, config: { ...ctx.config, maxPerPage: MAX_VIEW_EVENTS } };
    const found = await read(() => this.events.listDated(query, wide, new Set(Object.keys(query))));
    return found.kind === 'found' ? found.record : undefined;
  }

  /** A page of the events from `first` on (the list view); undefined when none is there. */
  async from(
    first: string,
    filter: ViewFilter,
    page: number,
    perPage: number,
    ctx: RequestContext,
  ): Promise<(WindowEvents & { pages: number }) | undefined> {
    const query = {
      ...filter,
      ...windowQuery(first, undefined, ctx.config.siteTimezone),
      page,
      per_page: perPage,
    } as ListEventsQuery;
    const found = await read(() => this.events.list(query, ctx, new Set(Object.keys(query))));
    if (found.kind !== 'found') return undefined;
    const archive = found.record;
    return { events: [...archive.items], total: archive.total, pages: archive.totalPages };
  }
}

/**
 * The events of each day from `first` to `last`: an event on every day from its local start date
 * to its local end date (its own zone's, as the list compares them: `start`, `end`), in the
 * list's order. The dates are compared as strings: no date is parsed per event.
 */
export function placeByDay<E extends { start: string; end: string }>(
  events: readonly E[],
  first: string,
  last: string,
): Map<string, E[]> {
  const days = daysBetween(first, last);
  const lists = days.map(() => [] as E[]);
  const index = new Map(days.map((day, i) => [day, i]));
  for (const event of events) {
    const start = event.start.slice(0, 10);
    const end = event.end.slice(0, 10);
    const from = index.get(start > first ? start : first);
    const to = index.get(end < last ? end : last);
    if (from === undefined || to === undefined) continue;
    for (let i = from; i <= to; i++) lists[i].push(event);
  }
  return new Map(days.map((day, i) => [day, lists[i]]));
}
