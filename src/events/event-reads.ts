import { Injectable } from '@nestjs/common';
import { canRead } from '../auth/post-policy.js';
import { ApiError, invalidParams, t } from '../common/errors/api-error.js';
import { PLUGIN_NAMESPACE } from '../common/http/links.js';
import type { RequestContext } from '../common/http/request-context.js';
import { buildArchive, type Archive } from '../common/pagination/paginate.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import { RecordCache } from '../cache/record-cache.js';
import { nowUtcSql } from '../database/columns.js';
import { effectiveStatus } from '../posts/post-status.js';
import type { ListEventsQuery } from './dto/list-events.query.js';
import { notAnEvent, notFound } from './event-errors.js';
import type { EventEntity } from './event.entity.js';
import type { ListedEvent } from './event-list-sql.js';
import { atFirstOccurrence, atOccurrence } from './series/series.mapper.js';
import { EventPresenter, isUnlocked } from './event.presenter.js';
import { EventQueryResolver } from './event-query.resolver.js';
import { EventsRepository } from './events.repository.js';
import { OccurrencesRepository } from './series/occurrences.repository.js';
import { isProvisionalId, OCCURRENCE_ID_BASE } from './series/series-rules.js';

/** An item of a list with the local dates it shows (`YYYY-MM-DD HH:MM:SS`), its payload not built. */
export interface DatedItem extends Omit<ListedEvent, 'start' | 'end'> {
  start: string;
  end: string;
}

/** A list's items placed by their dates, and the payloads of those a reader shows. */
export interface DatedList {
  items: DatedItem[];
  total: number;
  /** The payloads of some of `items` by their listed `id` (those gone meanwhile left out). */
  present(items: readonly DatedItem[]): Promise<Map<number, TecEvent>>;
}

/**
 * The reads of events (BEHAVIOR §5.2, §6.1, §15): lists, one event by id or slug, many by id,
 * and the answer of a write as a read shows it. Each read is checked in WordPress' order
 * (trashed, readable, unlocked) before the presenter builds its payload.
 */
@Injectable()
export class EventReads {
  constructor(
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
    private readonly query: EventQueryResolver,
    private readonly presenter: EventPresenter,
    private readonly recordCache: RecordCache,
  ) {}

  async list(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<Archive<TecEvent>> {
    const { filters, page, echo, readAt, listed, total } = await this.listedPage(
      query,
      ctx,
      presentInQuery,
    );
    const byId = await this.eventPayloads(listed, ctx, readAt);
    // CONTRACT §9: `series=once` says, under our namespace, how many occurrences follow.
    const remaining = filters.seriesOnce && !ctx.restBase.endsWith(`/${PLUGIN_NAMESPACE}`);
    const items = listed.flatMap((item) => {
      const payload = byId.get(item.eventId);
      if (!payload) return [];
      const shown = item.occurrence ? atOccurrence(payload, item.occurrence, ctx) : payload;
      return [
        remaining ? { ...shown, occurrences_remaining: item.occurrence?.remaining ?? 0 } : shown,
      ];
    });
    return buildArchive({
      key: 'events',
      items,
      total,
      page,
      layout: 'posts',
      collectionUrl: `${ctx.restBase}/events`,
      query: echo,
    });
  }

  /**
   * The items `list` would answer, placed by the local dates each shows (an occurrence's, or its
   * event's) before any payload is built: for a reader that places many and shows a few (the
   * calendar's month shows about a hundred of a busy month's thousand). The same range query as
   * `list` (its rows hold the dates); `present` reads and builds the payloads of those shown
   * only, as `list` shows each.
   */
  async listDated(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<DatedList> {
    const { readAt, listed, total } = await this.listedPage(query, ctx, presentInQuery);
    const items: DatedItem[] = [];
    for (const { id, eventId, occurrence, start, end } of listed) {
      const dates = occurrence ?? { start, end };
      if (dates.start && dates.end)
        items.push({ id, eventId, occurrence, start: dates.start, end: dates.end });
    }
    const present = async (shown: readonly DatedItem[]): Promise<Map<number, TecEvent>> => {
      // As `list` presents its page.
      const byId = await this.eventPayloads(shown, ctx, readAt);
      const out = new Map<number, TecEvent>();
      for (const item of shown) {
        const payload = byId.get(item.eventId);
        if (payload) {
          out.set(item.id, item.occurrence ? atOccurrence(payload, item.occurrence, ctx) : payload);
        }
      }
      return out;
    };
    return { items, total, present };
  }

  /**
   * The rows of the page a list query asks for (404 past the last page), with what resolving the
   * query gave and the cache version read before the rows.
   */
  private async listedPage(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ) {
    const now = new Date();
    const { filters, page, echo } = await this.query.resolve(query, ctx, presentInQuery, now);
    const readAt = this.recordCache.version();
    const { items: listed, total } = await this.events.list(
      filters,
      page,
      ctx.actor,
      ctx.language,
      nowUtcSql(now),
    );
    if (!listed.length && page.page > 1) throw new ApiError('event-archive-page-not-found', 404);
    return { filters, page, echo, readAt, listed, total };
  }

  /**
   * The payloads of the events of listed `items` by event id: each event presented once, whatever
   * number of its occurrences the items are; a record gone meanwhile left out.
   */
  private async eventPayloads(
    items: ReadonlyArray<{ eventId: number }>,
    ctx: RequestContext,
    readAt: number,
  ): Promise<Map<number, TecEvent>> {
    const payloads = await this.presenter.presentIds(
      [...new Set(items.map((item) => item.eventId))],
      ctx,
      { jsonLd: false, password: ctx.query.password, readAt },
    );
    return new Map(payloads.map((p) => [p.id, p]));
  }

  // ---------------------------------------------------------------- reads

  async get(id: number, password: string | undefined, ctx: RequestContext) {
    // BEHAVIOR §15: a provisional id is that occurrence; a stale one is not found.
    if (isProvisionalId(id)) {
      const occurrence = await this.occurrences.findOccurrence(id - OCCURRENCE_ID_BASE);
      if (!occurrence) throw notFound(id);
      const event = await this.events.findById(occurrence.eventId);
      if (!event) throw notFound(id);
      const payload = await this.readable(event, password, ctx, this.recordCache.version());
      return atOccurrence(payload, occurrence, ctx);
    }
    const readAt = this.recordCache.version();
    const event = await this.recordCache.row('event', String(id), () => this.loadEvent(id));
    if (!event) throw notFound(id);
    return this.atFirst(event, await this.readable(event, password, ctx, readAt), ctx);
  }

  /**
   * The events `ids` as `get` answers each to `ctx`'s reader without a password, by id; those
   * that reader may not read by id (missing, trashed, not readable, password-protected) are left
   * out. A fixed number of queries whatever the number of ids: the rows the RecordCache does not
   * keep in one, the payloads it does not keep built together, the first occurrences of the
   * recurring ones in one.
   */
  async getMany(ids: readonly number[], ctx: RequestContext): Promise<Map<number, TecEvent>> {
    const out = new Map<number, TecEvent>();
    // An occurrence's provisional id names no row of its own: read one by one, as by `get`.
    for (const id of ids.filter(isProvisionalId)) {
      try {
        out.set(id, await this.get(id, undefined, ctx));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    }
    const readAt = this.recordCache.version();
    const rows = await this.recordCache.rowsOf(
      'event',
      ids.filter((id) => !isProvisionalId(id)),
      (missing) => this.events.findByIds(missing),
    );
    const nowUtc = nowUtcSql();
    // The checks of `readable`, in its order.
    const readable = rows.filter((event) => {
      const status = effectiveStatus(event, nowUtc);
      return (
        status !== 'trash' &&
        canRead(ctx.actor, { authorId: event.authorId, status }) &&
        isUnlocked(event, undefined, ctx)
      );
    });
    if (!readable.length) return out;
    const [payloads, firsts] = await Promise.all([
      this.presenter.present(readable, ctx, { jsonLd: true, password: undefined, readAt }),
      this.occurrences.firstOccurrences(readable.filter((e) => e.recurrence).map((e) => e.id)),
    ]);
    readable.forEach((event, i) => {
      const first = event.recurrence ? firsts.get(event.id) : undefined;
      out.set(event.id, first ? atFirstOccurrence(payloads[i], first, ctx) : payloads[i]);
    });
    return out;
  }

  /**
   * BEHAVIOR §15: the real id (or slug) of a recurring event answers the event with its first
   * occurrence's dates and dated url (its own id kept); one query more, for recurring events only.
   */
  private async atFirst(event: Readonly<EventEntity>, payload: TecEvent, ctx: RequestContext) {
    if (!event.recurrence) return payload;
    const first = await this.occurrences.firstOccurrence(event.id);
    return first ? atFirstOccurrence(payload, first, ctx) : payload;
  }

  async getBySlug(slug: string, password: string | undefined, ctx: RequestContext) {
    const readAt = this.recordCache.version();
    const event = await this.recordCache.row('event-slug', `${ctx.language}:${slug}`, () =>
      this.events.findBySlug(slug, ctx.language),
    );
    if (!event) throw invalidParams({ slug: t('validation.invalid') });
    return this.atFirst(event, await this.readable(event, password, ctx, readAt), ctx);
  }

  /** BEHAVIOR §6.1, checked in this order. */
  private async readable(
    event: Readonly<EventEntity>,
    password: string | undefined,
    ctx: RequestContext,
    readAt: number,
  ) {
    const status = effectiveStatus(event, nowUtcSql());
    if (status === 'trash') throw new ApiError('event-no-longer-available', 403);
    if (!canRead(ctx.actor, { authorId: event.authorId, status }))
      throw new ApiError('event-not-accessible', 403);
    if (!isUnlocked(event, password, ctx)) throw new ApiError('event-password-protected', 403);
    const [item] = await this.presenter.present([event], ctx, { jsonLd: true, password, readAt });
    return item;
  }

  /** The event `id` as a write answers it: as a read shows it, `json_ld` aside. */
  async written(id: number, password: unknown, ctx: RequestContext) {
    const event = (await this.events.findById(id))!;
    const [item] = await this.presenter.present([event], ctx, { jsonLd: false, password });
    return this.atFirst(event, item, ctx);
  }

  /** The event `id`: one query when it exists; the id's kind tells the error otherwise. */
  private async loadEvent(id: number): Promise<EventEntity | null> {
    const event = await this.events.findById(id);
    if (event) return event;
    const kind = await this.events.kindOf(id);
    if (kind && kind !== 'event') throw notAnEvent();
    return null;
  }
}
