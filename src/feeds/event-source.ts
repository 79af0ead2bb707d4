import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/http/request-context.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import { EventsService } from '../events/events.service.js';
import type { EventPayload } from './ics.js';

/**
 * The most events one feed carries. A feed pages through its whole query up to this bound
 * (then it holds the first MAX_FEED_EVENTS in the list's order, start date first); documented
 * in README.md (ICS feeds).
 */
export const MAX_FEED_EVENTS = 1000;

/**
 * Events for feeds, always through EventsService.list with the reader's RequestContext: the
 * same filters, validation, permissions and language as `GET /events`.
 */
@Injectable()
export class EventSource {
  constructor(private readonly events: EventsService) {}

  /** Every event of the query (up to MAX_FEED_EVENTS), whatever its `page`/`per_page`. */
  async all(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<EventPayload[]> {
    const perPage = ctx.config.maxPerPage;
    const found: EventPayload[] = [];
    for (let page = 1; found.length < MAX_FEED_EVENTS; page++) {
      const archive = await this.events.list(
        { ...query, page, per_page: perPage },
        ctx,
        presentInQuery,
      );
      found.push(...((archive.body.events as EventPayload[] | undefined) ?? []));
      if (page >= archive.totalPages) break;
    }
    return found.slice(0, MAX_FEED_EVENTS);
  }

  /** One page of the query, with its totals. */
  async page(query: ListEventsQuery, ctx: RequestContext, presentInQuery: Set<string>) {
    const archive = await this.events.list(query, ctx, presentInQuery);
    return {
      events: (archive.body.events as EventPayload[] | undefined) ?? [],
      total: archive.total,
      totalPages: archive.totalPages,
    };
  }
}
