import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/http/request-context.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import { EventsService } from '../events/events.service.js';

/**
 * The most events one iCalendar feed carries (with MAX_FEED_BYTES, CONTRACT §7): a feed without
 * `page`/`per_page` holds the first MAX_FEED_EVENTS events of its query in the list's order
 * (start date first).
 */
const MAX_FEED_EVENTS = 1000;

/** The events of a feed, and how many the query matches. */
export interface FeedEvents {
  events: TecEvent[];
  /** Events the query matches (X-TEC-Total). */
  total: number;
  /** Pages of the query at its `per_page`, when the feed is one page of it. */
  totalPages?: number;
}

/**
 * Events for feeds, always through EventsService.list with the reader's RequestContext: the
 * same filters, validation, permissions and language as `GET /events`.
 */
@Injectable()
export class EventSource {
  constructor(private readonly events: EventsService) {}

  /**
   * The feed of a query: with `page` or `per_page`, that page of `GET /events` (at most
   * MAX_PER_PAGE events); without, every event of the query up to MAX_FEED_EVENTS. `accept`
   * takes each page's events as they are read and says whether the feed has room for more: once
   * it says no, no further page is read (a feed full of long descriptions reads a few pages, not
   * a thousand events it would leave out).
   */
  async feed(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
    accept: (events: readonly TecEvent[]) => boolean | Promise<boolean> = () => true,
  ): Promise<FeedEvents> {
    if (presentInQuery.has('page') || presentInQuery.has('per_page')) {
      const page = await this.page(query, ctx, presentInQuery);
      await accept(page.events);
      return page;
    }
    const perPage = ctx.config.maxPerPage;
    const found: TecEvent[] = [];
    let total = 0;
    for (let page = 1; found.length < MAX_FEED_EVENTS; page++) {
      const archive = await this.events.list(
        { ...query, page, per_page: perPage },
        ctx,
        presentInQuery,
      );
      total = archive.total;
      const events = archive.items.slice(0, MAX_FEED_EVENTS - found.length);
      found.push(...events);
      if (!(await accept(events)) || page >= archive.totalPages) break;
    }
    return { events: found, total };
  }

  /** One page of the query, with its totals. */
  async page(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<Required<FeedEvents>> {
    const archive = await this.events.list(query, ctx, presentInQuery);
    return {
      events: [...archive.items],
      total: archive.total,
      totalPages: archive.totalPages,
    };
  }
}
