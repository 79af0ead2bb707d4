import type { RequestContext } from '../common/http/request-context.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import type { EventsService } from '../events/events.service.js';
import { EventSource } from './event-source.js';

/** An EventsService whose query matches `total` events, `perPage` a page; it counts the pages read. */
function fakeEvents(total: number) {
  const pagesRead: number[] = [];
  const service = {
    list: async (query: { page: number; per_page: number }) => {
      pagesRead.push(query.page);
      const from = (query.page - 1) * query.per_page;
      const count = Math.max(0, Math.min(query.per_page, total - from));
      return {
        items: Array.from({ length: count }, (_, i) => ({ id: from + i + 1 }) as TecEvent),
        total,
        totalPages: Math.ceil(total / query.per_page),
      };
    },
  };
  return { service: service as unknown as EventsService, pagesRead };
}

const ctx = { config: { maxPerPage: 50 } } as RequestContext;
const query = {} as ListEventsQuery;

describe('EventSource.feed', () => {
  it('reads pages until the query ends, at most 1,000 events', async () => {
    const { service, pagesRead } = fakeEvents(1_234);
    const feed = await new EventSource(service).feed(query, ctx, new Set());
    expect(feed.events).toHaveLength(1_000);
    expect(feed.total).toBe(1_234);
    expect(pagesRead).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('reads no further page once the feed has no room', async () => {
    const { service, pagesRead } = fakeEvents(1_000);
    const accepted: number[] = [];
    const feed = await new EventSource(service).feed(query, ctx, new Set(), (events) =>
      events.every((event) => event.id <= 70 && accepted.push(event.id) > 0),
    );
    expect(pagesRead).toEqual([1, 2]);
    expect(accepted).toHaveLength(70);
    expect(feed.total).toBe(1_000);
  });

  it('hands a requested page to the feed whole', async () => {
    const { service, pagesRead } = fakeEvents(120);
    let seen = 0;
    const feed = await new EventSource(service).feed(
      { page: 3, per_page: 50 },
      ctx,
      new Set(['page', 'per_page']),
      (events) => (seen += events.length) > 0,
    );
    expect(pagesRead).toEqual([3]);
    expect(seen).toBe(20);
    expect(feed.totalPages).toBe(3);
  });
});
