import { Injectable } from '@nestjs/common';
import {
  canCreatePosts,
  canEdit,
  canPostUnfilteredHtml,
  canRead,
  canUpload,
  mayAttributeTo,
} from '../auth/post-policy.js';
import { UsersService } from '../auth/users/users.service.js';
import { parseCostInput } from '../common/cost/cost.js';
import {
  ApiError,
  cannotCreateAs,
  cannotUpdateAs,
  forbidden,
  invalidParams,
  t,
  type Text,
} from '../common/errors/api-error.js';
import { PLUGIN_NAMESPACE } from '../common/http/links.js';
import type { RequestContext } from '../common/http/request-context.js';
import { URL_REASON } from '../common/http/validators.js';
import { isWebUrl } from '../common/http/web-url.js';
import { contentFilter } from '../common/text/index.js';
import { buildArchive, type Archive } from '../common/pagination/paginate.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import { effectiveStatus } from '../posts/post-status.js';
import { PostStore } from '../posts/post-store.js';
import { TranslationStore } from '../posts/translation-store.js';
import {
  EVENT_TRANSLATIONS,
  languageTakenReason,
  translationsForbidden,
  type TranslationViewer,
} from '../posts/translations.js';
import { nowUtcSql } from '../database/columns.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { Writes, type WriteScope } from '../database/writes.js';
import type { OrganizerEntity } from '../organizers/organizer.entity.js';
import { OrganizerEventLinks } from '../organizers/organizers.service.js';
import { EventTermLinks } from '../terms/event-term-links.js';
import { TAXONOMIES, type Taxonomy } from '../terms/taxonomy.js';
import type { VenueEntity } from '../venues/venue.entity.js';
import { VenueEventLinks } from '../venues/venues.service.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import type { ListEventsQuery } from './dto/list-events.query.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import type { EventEntity } from './event.entity.js';
import type { ListedChange } from '../cache/dependencies.js';
import { EventQueryResolver } from './event-query.resolver.js';
import {
  applyCost,
  applyDates,
  applyFields,
  applyStatus,
  newEvent,
  siteNow,
  slugBase,
  type ParsedCost,
  type WriteClock,
} from './event-write-rules.js';
import { EventPresenter, isUnlocked, type WrittenLinks } from './event.presenter.js';
import { RecordCache } from '../cache/record-cache.js';
import {
  isRecurrenceProblem,
  parseRecurrence,
  type Recurrence,
} from '../common/recurrence/rules.js';
import {
  expandEvent,
  isProvisionalId,
  materialize,
  OCCURRENCE_ID_BASE,
  recurrenceOf,
  replaceOccurrences,
  SERIES_COMPLETE,
  splitSeries,
  withoutOccurrence,
} from './event-series.js';
import { atFirstOccurrence, atOccurrence } from './event.mapper.js';
import { EventEntity as EventRow } from './event.entity.js';
import { EventsRepository, type StoredOccurrence } from './events.repository.js';

type Plan = Awaited<ReturnType<VenueEventLinks['planReferences']>>;

/** Validated write input: everything checked before anything is written. */
interface WritePlan {
  dto: CreateEventDto | UpdateEventDto;
  venuePlan?: Plan;
  organizerPlan?: Plan;
  categoryItems?: Array<number | string>;
  tagItems?: Array<number | string>;
  cost?: ParsedCost;
  /** The series the write sets (null: removes), when it carries `recurrence`. */
  recurrence?: Recurrence | null;
}

/** An update of one occurrence that takes it (and, `upcoming`, what follows) out of its series. */
interface Split {
  occurrence: StoredOccurrence;
  type: 'single' | 'upcoming';
}

const notFound = (id: number) =>
  new ApiError('rest-event-not-found', 404, {}, t('errors.rest-event-not-found', { id }));
const notAnEvent = () => new ApiError('rest-invalid-event-id', 400);
const viewerOf = (ctx: RequestContext): TranslationViewer => ({
  actor: ctx.actor,
  nowUtc: nowUtcSql(),
});
/** The state an event's term links copy (status, publication date, language). */
type LinkState = Pick<EventEntity, 'status' | 'dateUtc' | 'language'>;

/** The venue and organizers a write left, as it left them (those it wrote itself). */
function writtenLinks(
  scope: WriteScope,
  venueId: number | null,
  { organizerIds, terms }: Pick<WrittenLinks, 'organizerIds' | 'terms'>,
): WrittenLinks {
  const venue = venueId === null ? undefined : scope.written('venue', venueId);
  const organizers = (organizerIds ?? []).flatMap((id) => scope.written('organizer', id) ?? []);
  return {
    venues: venue ? [venue as VenueEntity] : [],
    organizers: organizers as OrganizerEntity[],
    organizerIds,
    terms,
  };
}
const clockOf = (ctx: RequestContext, now = new Date()): WriteClock => ({
  actor: ctx.actor,
  siteZone: ctx.config.siteTimezone,
  now,
});

/**
 * The events of BEHAVIOR §5.2, §6.1 and §7.1-7.3 under CONTRACT.md, in the order WordPress
 * checks a request: validate (everything the request names), authorize, then write in one
 * transaction through the repository, and answer what the presenter shows. The filter parsing
 * lives in EventQueryResolver, the field rules in event-write-rules.ts, the payload in
 * EventPresenter.
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly writes: Writes,
    private readonly query: EventQueryResolver,
    private readonly presenter: EventPresenter,
    private readonly translations: TranslationStore,
    private readonly posts: PostStore,
    private readonly users: UsersService,
    private readonly venues: VenueEventLinks,
    private readonly organizers: OrganizerEventLinks,
    private readonly terms: EventTermLinks,
    private readonly recordCache: RecordCache,
  ) {}

  // ---------------------------------------------------------------- lists

  async list(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<Archive<TecEvent>> {
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

    // Each event is presented once, whatever number of its occurrences the page shows.
    const payloads = await this.presenter.presentIds(
      [...new Set(listed.map((item) => item.eventId))],
      ctx,
      { jsonLd: false, password: ctx.query.password, readAt },
    );
    const byId = new Map(payloads.map((p) => [p.id, p]));
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

  // ---------------------------------------------------------------- reads

  async get(id: number, password: string | undefined, ctx: RequestContext) {
    // BEHAVIOR §15: a provisional id is that occurrence; a stale one is not found.
    if (isProvisionalId(id)) {
      const occurrence = await this.events.findOccurrence(id - OCCURRENCE_ID_BASE);
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
      this.events.firstOccurrences(readable.filter((e) => e.recurrence).map((e) => e.id)),
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
    const first = await this.events.firstOccurrence(event.id);
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

  // ---------------------------------------------------------------- writes

  async create(dto: CreateEventDto, ctx: RequestContext) {
    const plan = await this.validate(dto, ctx);
    const clock = clockOf(ctx);
    // CONTRACT §9: a translation of a series is a series of the same rules, unless it says
    // otherwise (`recurrence`, `{}` for none).
    if (plan.recurrence === undefined && dto.translation_of !== undefined) {
      const source = await this.events.findById(dto.translation_of);
      if (source) plan.recurrence = recurrenceOf(source) ?? undefined;
    }
    // A series over a bound is a 400, before the permission check like every
    // validation; its occurrences are those the event's own dates give.
    let series: ReturnType<typeof expandEvent> | undefined;
    if (plan.recurrence) {
      const draft = Object.assign(new EventRow(), {
        allDay: false,
        recurrence: JSON.stringify(plan.recurrence),
      });
      applyDates(draft, dto, clock, true);
      series = expandEvent(draft, ctx.config.siteTimezone, clock.now);
    }
    if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators create records of others.
    if (dto.author !== undefined && !mayAttributeTo(ctx.actor, dto.author)) throw cannotCreateAs();
    // CONTRACT §6: HTML of writers without `unfiltered_html` is filtered to the allowlists.
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    // The answer is built from the rows as the committed attempt wrote them, not read back. The
    // work answers the id (what a write rider is given, see Writes.alongNextWrite).
    let written: { event: EventEntity; links: WrittenLinks } | undefined;
    await this.writes.run(async (scope) => {
      const { manager } = scope;
      const event = newEvent(0, dto, dto.author ?? ctx.actor.user!.id, ctx.language, html);
      applyDates(event, dto, clock, true);
      applyCost(event, plan.cost);
      applyStatus(event, dto, clock, true);
      if (plan.recurrence && series) {
        event.recurrence = JSON.stringify(plan.recurrence);
        event.occurrencesUntil = series.horizon ?? SERIES_COMPLETE;
      }
      // The venue first (an inline one is created here, with the event's id in the same
      // statement as its own), so that the event's row is written once.
      this.events.announceId(manager);
      await this.applyVenue(event, plan, ctx, scope);
      const id = await this.events.allocateId(manager);
      event.id = id;
      await this.events.insert(manager, event, slugBase(event, dto.slug));
      if (series) await replaceOccurrences(manager, id, series.occurrences);
      scope.changed('event', id, 'created', event, {
        listed: series ? undefined : { dates: [[event.startDate, event.endDate]], moved: 'all' },
      });
      if (dto.translation_of !== undefined) {
        event.translationGroup = await this.translations.join(
          manager,
          EVENT_TRANSLATIONS,
          id,
          dto.translation_of,
          event.language,
          viewerOf(ctx),
        );
      }
      const links = await this.applyLinks(event, plan, ctx, scope);
      written = { event, links: writtenLinks(scope, event.venueId, links) };
      return id;
    });
    const payload = await this.presenter.presentWritten(
      written!.event,
      written!.links,
      ctx,
      dto.password,
    );
    // As a read of the new id shows it: a series at its first occurrence (the first of its day).
    const first = series?.occurrences[0];
    return first ? atFirstOccurrence(payload, { ...first, id: 0, dayIndex: 1 }, ctx) : payload;
  }

  async update(id: number, dto: UpdateEventDto, ctx: RequestContext) {
    // BEHAVIOR §15: a provisional id addresses one occurrence of a series.
    if (isProvisionalId(id)) return this.updateOccurrence(id, dto, ctx);
    const kind = await this.events.kindOf(id);
    if (kind && kind !== 'event') throw notAnEvent();
    const plan = await this.validate(dto, ctx);
    const existing = kind ? await this.events.findById(id) : null;
    if (!existing) {
      // The permission check falls back to the general capability for a missing id (§7.2).
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    return this.applyUpdate(existing, dto, plan, ctx);
  }

  /**
   * An update addressed to an occurrence (CONTRACT §9), by `_tec_update_type`: `all` (default)
   * updates the series as its real id does; `single` makes the occurrence an event of its own and
   * `upcoming` a new series of it and what follows (splitOff), the update applying to that event.
   * `upcoming` from the first occurrence is the whole series. Checked in the order of every
   * update: the body, then whether the occurrence exists, then the permission on the series.
   */
  private async updateOccurrence(id: number, dto: UpdateEventDto, ctx: RequestContext) {
    const occurrence = await this.events.findOccurrence(id - OCCURRENCE_ID_BASE);
    const plan = await this.validate(dto, ctx, true);
    const series = occurrence ? await this.events.findById(occurrence.eventId) : null;
    if (!occurrence || !series) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    const type = dto._tec_update_type ?? 'all';
    if (type === 'all') return this.applyUpdate(series, dto, plan, ctx);
    if (type === 'upcoming' && (await this.events.firstOccurrence(series.id))?.id === occurrence.id)
      return this.applyUpdate(series, dto, plan, ctx);
    return this.applyUpdate(series, dto, plan, ctx, { occurrence, type });
  }

  async updateBySlug(slug: string, dto: UpdateEventDto, ctx: RequestContext) {
    const plan = await this.validate(dto, ctx);
    const existing = await this.events.findBySlug(slug, ctx.language);
    if (!existing) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(0);
    }
    return this.applyUpdate(existing, dto, plan, ctx);
  }

  private async applyUpdate(
    existing: EventEntity,
    dto: UpdateEventDto,
    plan: WritePlan,
    ctx: RequestContext,
    split?: Split,
  ) {
    // CONTRACT §5: a translation moves only to a language its group has no member in (a 400,
    // still before the permission check).
    if (dto.language !== undefined) {
      const problem = await this.translations.languageChangeProblem(
        EVENT_TRANSLATIONS,
        existing,
        dto.language,
        viewerOf(ctx),
      );
      if (problem) throw invalidParams({ language: problem });
    }
    if (!canEdit(ctx.actor, existing)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators give a record to another author.
    if (dto.author !== undefined && !mayAttributeTo(ctx.actor, dto.author)) throw cannotUpdateAs();
    if (
      dto.language !== undefined &&
      !(await this.translations.mayMoveLanguage(
        EVENT_TRANSLATIONS,
        existing,
        dto.language,
        viewerOf(ctx),
      ))
    ) {
      throw translationsForbidden();
    }
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    const clock = clockOf(ctx);
    // The answer is built from the row as the committed attempt wrote it, not read back.
    let written: { event: EventEntity; links: WrittenLinks } | undefined;
    let first: StoredOccurrence | null = null;
    await this.writes.run(async (scope) => {
      const id = split ? await this.splitOff(scope, existing.id, split, ctx, clock) : existing.id;
      written = await this.writeUpdate(scope, id, dto, plan, ctx, html, clock);
      // As a read of the id shows it right after: a series at its first occurrence.
      first = written.event.recurrence
        ? await this.events.firstOccurrence(id, scope.manager)
        : null;
    });
    const payload = await this.presenter.presentWritten(
      written!.event,
      written!.links,
      ctx,
      dto.password,
    );
    return first ? atFirstOccurrence(payload, first, ctx) : payload;
  }

  /** The update of the event `id` in the write's transaction; answers the row as written. */
  private async writeUpdate(
    scope: WriteScope,
    id: number,
    dto: UpdateEventDto,
    plan: WritePlan,
    ctx: RequestContext,
    html: ReturnType<typeof contentFilter>,
    clock: WriteClock,
  ): Promise<{ event: EventEntity; links: WrittenLinks }> {
    const { manager } = scope;
    // Re-read inside the transaction, the row locked until the commit, so that concurrent
    // updates never mix and what it was before this write is what the lists held.
    const event = (await this.events.findForUpdate(id, manager))!;
    const was: Readonly<EventEntity> = { ...event };
    const before: LinkState = {
      status: event.status,
      dateUtc: event.dateUtc,
      language: event.language,
    };
    applyFields(event, dto, html);
    // Slugs are unique per language: a moved event takes its slug along when it is free in
    // the new language, else the next free `slug-2`, ... (assigned after the save).
    const moving = dto.language !== undefined && dto.language !== event.language;
    const movedSlug = moving ? (event.slug ?? undefined) : undefined;
    if (moving) {
      event.language = dto.language!;
      event.slug = null;
    }
    const anchorBefore = [event.startDate, event.endDate, event.allDay, event.timezone].join();
    applyDates(event, dto, clock, false);
    applyCost(event, plan.cost);
    applyStatus(event, dto, clock, false);
    // A new series, or new dates of a series, give new occurrences (a 400 over a
    // bound rolls the whole write back).
    if (plan.recurrence !== undefined) {
      event.recurrence = plan.recurrence ? JSON.stringify(plan.recurrence) : null;
    }
    const anchorAfter = [event.startDate, event.endDate, event.allDay, event.timezone].join();
    if (plan.recurrence !== undefined || (event.recurrence && anchorAfter !== anchorBefore)) {
      await materialize(manager, event, ctx.config.siteTimezone, clock.now);
    }
    await this.applyVenue(event, plan, ctx, scope);
    try {
      await this.events.save(manager, event);
    } catch (error) {
      // A concurrent write gave the group a member in the new language first.
      if (moving && isUniqueViolation(error)) {
        throw invalidParams({ language: languageTakenReason(event.language) });
      }
      throw error;
    }
    // As readers saw it: a scheduled event whose date has passed was published already.
    scope.changed('event', event.id, 'updated', event, {
      previousStatus: effectiveStatus(before, nowUtcSql(clock.now)),
      listed: listedChange(was, event, plan),
    });
    const base = slugBase(event, dto.slug ?? movedSlug);
    if (base !== undefined) event.slug = await this.events.assignSlug(manager, event, base);
    const links = await this.applyLinks(event, plan, ctx, scope, before);
    return { event, links: writtenLinks(scope, event.venueId, links) };
  }

  /**
   * `_tec_update_type` single or upcoming (BEHAVIOR §15, CONTRACT §9), in the update's
   * transaction: the series loses the occurrence (an exclusion date) or ends before it, and a new
   * event takes it — a copy of the series' event (links, terms, status, author) with the
   * occurrence's dates, for `upcoming` with the rest of the series as its own (splitSeries), and
   * linked to the series and the occurrence's start (`series_id`, `series_start`). Answers the new
   * event's id: the update then applies to it.
   */
  private async splitOff(
    scope: WriteScope,
    seriesId: number,
    split: Split,
    ctx: RequestContext,
    clock: WriteClock,
  ): Promise<number> {
    const { manager } = scope;
    const zone = ctx.config.siteTimezone;
    const series = (await this.events.findById(seriesId, manager))!;
    const occurrence = await this.events.findOccurrence(split.occurrence.id, manager);
    if (!occurrence || occurrence.eventId !== series.id || !series.recurrence) {
      throw notFound(OCCURRENCE_ID_BASE + split.occurrence.id);
    }
    let tail: string | null = null;
    if (split.type === 'single') series.recurrence = withoutOccurrence(series, occurrence.start);
    else ({ head: series.recurrence, tail } = splitSeries(series, occurrence, zone, clock.now));
    await materialize(manager, series, zone, clock.now);
    series.modified = siteNow(clock);
    series.modifiedUtc = nowUtcSql(clock.now);
    await this.events.save(manager, series);
    scope.changed('event', series.id, 'updated', series, {
      previousStatus: effectiveStatus(series, nowUtcSql(clock.now)),
    });
    const copy: EventEntity = Object.assign(new EventRow(), series, {
      id: 0,
      slug: null,
      translationGroup: null,
      recurrence: tail,
      occurrencesUntil: null,
      seriesId: series.id,
      seriesStart: occurrence.start,
      startDate: occurrence.start,
      endDate: occurrence.end,
      startUtc: occurrence.startUtc,
      endUtc: occurrence.endUtc,
    });
    const occurrences = tail ? expandEvent(copy, zone, clock.now) : undefined;
    if (occurrences) copy.occurrencesUntil = occurrences.horizon ?? SERIES_COMPLETE;
    const id = await this.events.allocateId(manager);
    copy.id = id;
    await this.events.insert(manager, copy, slugBase(copy, series.slug ?? undefined));
    if (occurrences) await replaceOccurrences(manager, id, occurrences.occurrences);
    scope.changed('event', id, 'created', copy);
    const organizerIds = (await this.events.organizerIds([series.id], manager)).get(series.id);
    await this.events.setOrganizers(id, organizerIds ?? [], manager, true);
    const termIds = await this.events.termIdsOf(manager, series.id);
    await this.events.addTerms(manager, copy, termIds);
    await this.terms.linksCreated(manager, termIds, copy);
    return id;
  }

  async remove(id: number, ctx: RequestContext) {
    // CONTRACT §9: deleting an occurrence cancels it alone.
    if (isProvisionalId(id)) return this.cancelOccurrence(id, ctx);
    const kind = await this.events.kindOf(id);
    if (kind && kind !== 'event') throw notAnEvent();
    const event = kind ? await this.events.findById(id) : null;
    if (!event) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    return this.trash(event, ctx);
  }

  async removeBySlug(slug: string, ctx: RequestContext) {
    const event = await this.events.findBySlug(slug, ctx.language);
    // Unknown slug: 400 before the permission check (§7.3).
    if (!event) throw invalidParams({ slug: t('validation.invalid') });
    return this.trash(event, ctx);
  }

  /**
   * `DELETE /events/{provisional id}` (CONTRACT §9): the series gets an exclusion date for that
   * occurrence, whose provisional id is then gone (404); answers the series' event. Checked as
   * the event's delete: found, permission on the event, not in the trash; the last occurrence of
   * a series is not cancelled alone (delete the event).
   */
  private async cancelOccurrence(id: number, ctx: RequestContext) {
    const occurrence = await this.events.findOccurrence(id - OCCURRENCE_ID_BASE);
    const event = occurrence ? await this.events.findById(occurrence.eventId) : null;
    if (!occurrence || !event) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    if (!canEdit(ctx.actor, event)) throw forbidden(!!ctx.actor.user);
    if (event.status === 'trash') throw new ApiError('event-is-in-trash', 410);
    const clock = clockOf(ctx);
    const zone = ctx.config.siteTimezone;
    await this.writes.run(async ({ manager, changed }) => {
      const series = (await this.events.findById(event.id, manager))!;
      const current = await this.events.findOccurrence(occurrence.id, manager);
      if (!current || !series.recurrence) throw notFound(id);
      if ((await this.events.countOccurrences(manager, series.id)) <= 1) {
        throw invalidParams({ id: t('recurrence.last_occurrence') });
      }
      series.recurrence = withoutOccurrence(series, current.start);
      await materialize(manager, series, zone, clock.now);
      series.modified = siteNow(clock);
      series.modifiedUtc = nowUtcSql(clock.now);
      await this.events.save(manager, series);
      changed('event', series.id, 'updated', series, {
        previousStatus: effectiveStatus(series, nowUtcSql(clock.now)),
      });
    });
    return this.written(event.id, ctx.query.password, ctx);
  }

  /** DELETE moves to trash and answers the record; a second DELETE is 410 (CONTRACT §3). */
  private async trash(event: EventEntity, ctx: RequestContext) {
    if (!canEdit(ctx.actor, event)) throw forbidden(!!ctx.actor.user);
    if (event.status === 'trash') throw new ApiError('event-is-in-trash', 410);
    const clock = clockOf(ctx);
    await this.writes.run(async ({ manager, changed }) => {
      await this.events.trash(manager, event.id, {
        local: siteNow(clock),
        utc: nowUtcSql(clock.now),
      });
      changed('event', event.id, 'trashed', undefined, {
        previousStatus: effectiveStatus(event, nowUtcSql(clock.now)),
        language: event.language,
      });
      await this.events.syncTermLinks(manager, { ...event, status: 'trash' });
      // Its terms count one published event less.
      if (event.status === 'publish') {
        await this.terms.linksChanged(manager, await this.events.termIdsOf(manager, event.id));
      }
      // A trashed event is no translation any more; its translations stay linked (CONTRACT §5).
      await this.translations.leave(manager, EVENT_TRANSLATIONS, event);
    });
    return this.written(event.id, ctx.query.password, ctx);
  }

  /** Everything a write is checked against, before any permission check or write (§1.1). */
  private async validate(
    dto: CreateEventDto | UpdateEventDto,
    ctx: RequestContext,
    occurrence = false,
  ): Promise<WritePlan> {
    const errors: Record<string, Text> = {};
    const invalid = t('validation.invalid');
    if (dto.author !== undefined && !(await this.users.exists(dto.author))) errors.author = invalid;
    // CONTRACT §6: the id of an image record links that image (its URL).
    dto.image = await this.posts.imageInput(dto.image);
    if (dto.image !== undefined && dto.image !== '' && dto.image !== null) {
      // CONTRACT §6: a URL only (no media library), and only for roles that may upload.
      if (!isWebUrl(dto.image)) {
        errors.image =
          typeof dto.image === 'string' && !/^\d+$/.test(dto.image)
            ? t(URL_REASON, { name: 'image' })
            : invalid;
      } else if (!canUpload(ctx.actor)) errors.image = invalid;
    }
    const plan: WritePlan = { dto };
    if (dto.recurrence !== undefined) {
      const recurrence = parseRecurrence(dto.recurrence);
      if (isRecurrenceProblem(recurrence)) errors.recurrence = recurrence;
      else plan.recurrence = recurrence;
    }
    // CONTRACT §9: `single` and `upcoming` apply to an occurrence (its provisional id); a single
    // occurrence made an event of its own takes no series.
    const updateType = (dto as UpdateEventDto)._tec_update_type;
    if (updateType && updateType !== 'all' && !occurrence) {
      errors._tec_update_type = t('recurrence.not_an_occurrence', { value: updateType });
    } else if (updateType === 'single' && plan.recurrence) {
      errors.recurrence = t('recurrence.single_takes_none');
    }
    if (dto.cost !== undefined) {
      const cost = parseCostInput(dto.cost);
      if (cost) plan.cost = cost;
      else errors.cost = invalid;
    }
    // Only the create DTO declares it (the pipe strips it from updates).
    const translationOf = (dto as CreateEventDto).translation_of;
    if (translationOf !== undefined) {
      const problem = await this.translations.translationOfProblem(
        EVENT_TRANSLATIONS,
        translationOf,
        ctx.language,
        viewerOf(ctx),
      );
      if (problem) errors.translation_of = problem;
    }
    if (Object.keys(errors).length) throw invalidParams(errors);
    if (dto.categories !== undefined)
      plan.categoryItems = this.terms.validateWriteItems('categories', dto.categories);
    if (dto.tags !== undefined) plan.tagItems = this.terms.validateWriteItems('tags', dto.tags);
    if (dto.venue !== undefined) plan.venuePlan = await this.venues.planReferences(dto.venue, ctx);
    if (dto.organizer !== undefined)
      plan.organizerPlan = await this.organizers.planReferences(dto.organizer, ctx);
    return plan;
  }

  /** The venue (linked or created inline) goes into the row itself: before it is written. */
  private async applyVenue(
    event: EventEntity,
    plan: WritePlan,
    ctx: RequestContext,
    scope: WriteScope,
  ) {
    if (!plan.venuePlan) return;
    const [venueId] = await this.venues.applyPlan(plan.venuePlan, ctx, scope);
    event.venueId = venueId ?? null;
  }

  /**
   * Organizers, terms and the terms' state copies, in the write's transaction (row written):
   * a new event's links (no `before`) are written with its state; an updated event's links
   * follow what changed since `before`. Answers the event's organizers when it knows them (set
   * now, or none for a new event), and a new event's embedded terms when it knows them
   * (EventTermLinks.resolveListsForNewEvent).
   */
  private async applyLinks(
    event: EventEntity,
    plan: WritePlan,
    ctx: RequestContext,
    scope: WriteScope,
    before?: LinkState,
  ): Promise<Pick<WrittenLinks, 'organizerIds' | 'terms'>> {
    const { manager } = scope;
    const created = !before;
    let organizerIds: number[] | undefined = created ? [] : undefined;
    if (plan.organizerPlan) {
      organizerIds = await this.organizers.applyPlan(plan.organizerPlan, ctx, scope);
      await this.events.setOrganizers(event.id, organizerIds, manager, created);
    }
    const lists: Array<[Taxonomy, Array<number | string>]> = [];
    if (plan.categoryItems) lists.push(['category', plan.categoryItems]);
    if (plan.tagItems) lists.push(['tag', plan.tagItems]);
    if (!before) {
      const { ids, terms } = await this.terms.resolveListsForNewEvent(lists, event, scope, ctx);
      // A created event's links of both taxonomies go in one statement.
      await this.events.addTerms(manager, event, ids.flat());
      await this.terms.linksCreated(manager, ids.flat(), event);
      return { organizerIds, terms };
    }
    const resolved = await this.terms.resolveListsForWrite(lists, event.language, scope);
    const moved = before.status !== event.status || before.language !== event.language;
    // The links copy the event's state; terms count the links of published events: when the
    // event was or is published and its links or their state change, the counts of the terms
    // it carried and carries are taken again.
    const recount =
      (before.status === 'publish' || event.status === 'publish') && (moved || lists.length > 0);
    const carried = recount ? await this.events.termIdsOf(manager, event.id) : [];
    for (const [i, [taxonomy]] of lists.entries()) {
      await this.events.setTerms(manager, event.id, TAXONOMIES[taxonomy].wpName, resolved[i]);
    }
    if (moved || before.dateUtc !== event.dateUtc || lists.length) {
      await this.events.syncTermLinks(manager, event);
    }
    if (recount) await this.terms.linksChanged(manager, [...carried, ...resolved.flat()]);
    return { organizerIds };
  }

  // ---------------------------------------------------------------- mapping

  /** The event `id` as a write answers it: as a read shows it, `json_ld` aside. */
  private async written(id: number, password: unknown, ctx: RequestContext) {
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

/** Columns that no list filters or orders by (BEHAVIOR §5.2): their change moves no list. */
const UNLISTED: ReadonlySet<string> = new Set([
  'slug',
  'modified',
  'modifiedUtc',
  'imageUrl',
  'imageId',
  'translationGroup',
  'startUtc',
  'endUtc',
  'timezone',
  'allDay',
  'cost',
  'currencySymbol',
  'currencyPosition',
  'website',
  'showMap',
  'showMapLink',
  'sticky',
  'seriesId',
  'seriesStart',
]);
/** Columns that only searches read. */
const SEARCHED: ReadonlySet<string> = new Set(['title', 'excerpt', 'description']);

/**
 * Where an update of a single event can move the events lists (docs/caches.md): its dates before
 * and after, and whether a column the lists read changed (any column not known to be unread
 * counts), or only the searched text, or neither. A recurring event (before or after) is listed
 * by its occurrences: undefined, every list.
 */
function listedChange(
  was: Readonly<EventEntity>,
  event: EventEntity,
  plan: Pick<WritePlan, 'organizerPlan' | 'categoryItems' | 'tagItems'>,
): ListedChange | undefined {
  const recurring = (e: Readonly<EventEntity>) =>
    e.recurrence !== null || e.occurrencesUntil !== null;
  if (recurring(was) || recurring(event)) return undefined;
  const dates: Array<[string, string]> = [[was.startDate, was.endDate]];
  if (event.startDate !== was.startDate || event.endDate !== was.endDate)
    dates.push([event.startDate, event.endDate]);
  let moved: ListedChange['moved'] =
    plan.organizerPlan || plan.categoryItems || plan.tagItems ? 'all' : 'none';
  const before = was as unknown as Record<string, unknown>;
  const after = event as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (moved === 'all') break;
    if (UNLISTED.has(key) || sameValue(before[key], after[key])) continue;
    moved = SEARCHED.has(key) ? 'text' : 'all';
  }
  return { dates, moved };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
