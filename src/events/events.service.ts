import { Inject, Injectable } from '@nestjs/common';
import {
  canCreatePosts,
  canEdit,
  canPostUnfilteredHtml,
  mayAttributeTo,
} from '../auth/post-policy.js';
import { cannotCreateAs, forbidden, invalidParams, t } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { contentFilter } from '../common/text/index.js';
import type { Archive } from '../common/pagination/paginate.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { forceOf, notTrashed } from '../posts/force-delete.js';
import { TrashPurger } from '../posts/purge-trash.js';
import { TranslationStore } from '../posts/translation-store.js';
import { leaveSite, refuseTrash } from '../posts/trash-flow.js';
import { EVENT_TRANSLATIONS } from '../posts/translations.js';
import { nowUtcSql } from '../database/columns.js';
import { Writes } from '../database/writes.js';
import { EventTermLinks } from '../terms/event-term-links.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import type { ListEventsQuery } from './dto/list-events.query.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import type { EventEntity } from './event.entity.js';
import { notAnEvent, notFound } from './event-errors.js';
import { EventReads, type DatedList } from './event-reads.js';
import { EventUpdates } from './event-updates.js';
import { EventWritePlanner, viewerOf } from './event-write-plan.js';
import {
  applyCost,
  applyDates,
  applyStatus,
  clockAt,
  newEvent,
  siteNow,
  slugBase,
} from './event-write-rules.js';
import { EventPresenter, type WrittenEvent } from './event.presenter.js';
import { EventsRepository } from './events.repository.js';
import { OccurrenceWrites } from './series/occurrence-writes.js';
import { OccurrencesRepository } from './series/occurrences.repository.js';
import { isProvisionalId, SERIES_COMPLETE } from './series/series-rules.js';
import { SeriesWrites } from './series/series-writes.js';
import { saveWriteFragments } from '../extensions/seams.js';
import { IdAhead } from '../posts/post-store.js';

/**
 * The events of BEHAVIOR §5.2, §6.1 and §7.1-7.3 under CONTRACT.md, the one door the controller,
 * feeds, pages, importers and webhooks use. Writes go in the order WordPress checks a request:
 * validate (everything the request names), authorize, then write in one transaction through the
 * repository, and answer what the presenter shows. The reads live in EventReads, the request's
 * checks and the links beside the row in EventWritePlanner, an update of an event in
 * EventUpdates, what a write does to a series in SeriesWrites, the field rules in
 * event-write-rules.ts. A write addressed to an occurrence (a provisional id) takes the
 * series' own way from the top (OccurrenceWrites).
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly writes: Writes,
    private readonly reads: EventReads,
    private readonly plans: EventWritePlanner,
    private readonly seriesWrites: SeriesWrites,
    private readonly occurrences: OccurrencesRepository,
    private readonly occurrenceWrites: OccurrenceWrites,
    private readonly updates: EventUpdates,
    private readonly presenter: EventPresenter,
    private readonly translations: TranslationStore,
    private readonly terms: EventTermLinks,
    private readonly purger: TrashPurger,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'siteTimezone'>,
  ) {}

  // ---------------------------------------------------------------- reads

  list(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<Archive<TecEvent>> {
    return this.reads.list(query, ctx, presentInQuery);
  }

  /** The items `list` answers placed by their local dates, their payloads built on demand. */
  listDated(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<DatedList> {
    return this.reads.listDated(query, ctx, presentInQuery);
  }

  get(id: number, password: string | undefined, ctx: RequestContext) {
    return this.reads.get(id, password, ctx);
  }

  /** The events `ids` a reader may read by id, as `get` answers each (EventReads.getMany). */
  getMany(ids: readonly number[], ctx: RequestContext): Promise<Map<number, TecEvent>> {
    return this.reads.getMany(ids, ctx);
  }

  getBySlug(slug: string, password: string | undefined, ctx: RequestContext) {
    return this.reads.getBySlug(slug, password, ctx);
  }

  // ---------------------------------------------------------------- writes

  async create(dto: CreateEventDto, ctx: RequestContext) {
    const plan = await this.plans.validate(dto, ctx);
    const clock = clockAt(this.config);
    const series = await this.seriesWrites.ofCreated(plan, dto, clock);
    if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators create records of others.
    if (dto.author !== undefined && !mayAttributeTo(ctx.actor, dto.author)) throw cannotCreateAs();
    // CONTRACT §6: HTML of writers without `unfiltered_html` is filtered to the allowlists.
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    // The answer is built from the rows as the committed attempt wrote them, not read back. The
    // work answers the id (what a write rider is given, see Writes.alongNextWrite).
    let written: WrittenEvent | undefined;
    await this.writes.run(async (scope) => {
      const { manager } = scope;
      const event = newEvent(0, dto, dto.author ?? ctx.actor.user!.id, ctx.language, html);
      if (plan.recurrence && series) {
        event.recurrence = JSON.stringify(plan.recurrence);
        event.occurrencesUntil = series.horizon ?? SERIES_COMPLETE;
      }
      applyDates(event, dto, clock, true);
      applyCost(event, plan.cost);
      applyStatus(event, dto, ctx.actor, clock, true);
      // The venue first (an inline one is created here), so that the event's row is written
      // once; WordPress numbers an inline venue after its event, so the venue's id takes the
      // event's along, before it, in one statement (IdAhead), after its duplicate check.
      const ahead = new IdAhead('event');
      const venues = await this.plans.applyVenue(event, plan, ctx, scope, ahead);
      const id = await this.events.allocateAhead(manager, ahead);
      event.id = id;
      await this.events.insert(manager, event, slugBase(event, dto.slug));
      await saveWriteFragments(plan.extensions, manager, id, true);
      if (series) await this.occurrences.replaceOccurrences(manager, event, series.occurrences);
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
      const links = await this.plans.applyLinks(event, plan, ctx, scope);
      links.inserted = { ...links.inserted, venues };
      // As a read of the new id shows it: a series at its first occurrence (the first of its day).
      const first = series?.occurrences[0];
      written = {
        event,
        links,
        first: first ? { ...first, id: 0, dayIndex: 1 } : null,
        noStoredRows: !plan.extensions,
      };
      return id;
    });
    return this.presenter.presentWritten(written!, ctx, dto.password);
  }

  async update(id: number, dto: UpdateEventDto, ctx: RequestContext) {
    let written: WrittenEvent;
    // BEHAVIOR §15: a provisional id addresses one occurrence of a series: the series' own way.
    if (isProvisionalId(id)) written = await this.occurrenceWrites.updateOccurrence(id, dto, ctx);
    else {
      const kind = await this.events.kindOf(id);
      if (kind && kind !== 'event') throw notAnEvent();
      const plan = await this.plans.validate(dto, ctx);
      const existing = kind ? await this.events.findById(id) : null;
      if (!existing) {
        // The permission check falls back to the general capability for a missing id (§7.2).
        if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
        throw notFound(id);
      }
      written = await this.updates.updateEvent(existing, dto, plan, ctx);
    }
    return this.presenter.presentWritten(written, ctx, dto.password);
  }

  async updateBySlug(slug: string, dto: UpdateEventDto, ctx: RequestContext) {
    const plan = await this.plans.validate(dto, ctx);
    const existing = await this.events.findBySlug(slug, ctx.language);
    if (!existing) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(0);
    }
    const written = await this.updates.updateEvent(existing, dto, plan, ctx);
    return this.presenter.presentWritten(written, ctx, dto.password);
  }

  async remove(id: number, ctx: RequestContext) {
    const force = forceOf(ctx.query);
    // CONTRACT §9: deleting an occurrence cancels it alone (an occurrence is never in the trash).
    if (isProvisionalId(id)) {
      if (force) throw notTrashed();
      return this.occurrenceWrites.cancelOccurrence(id, ctx);
    }
    const kind = await this.events.kindOf(id);
    if (kind && kind !== 'event') throw notAnEvent();
    const event = kind ? await this.events.findById(id) : null;
    if (!event) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    return force ? this.deleteForGood(event, ctx) : this.trash(event, ctx);
  }

  async removeBySlug(slug: string, ctx: RequestContext) {
    const event = await this.events.findBySlug(slug, ctx.language);
    // Unknown slug: 400 before the permission check (§7.3).
    if (!event) throw invalidParams({ slug: t('validation.invalid') });
    return forceOf(ctx.query) ? this.deleteForGood(event, ctx) : this.trash(event, ctx);
  }

  /**
   * `DELETE ?force=true` of a trashed event: deleted for good, as the trash purge deletes it
   * (CONTRACT §3), by those who may trash it; answers WordPress's `{deleted, previous}`.
   */
  private async deleteForGood(event: EventEntity, ctx: RequestContext) {
    // As for the trash (below), checked against the status it had before.
    if (!canEdit(ctx.actor, { ...event, status: 'draft' })) throw forbidden(!!ctx.actor.user);
    if (event.status !== 'trash') throw notTrashed();
    const previous = await this.reads.written(event.id, ctx.query.password, ctx);
    await this.purger.purgeRecords('event', [event.id]);
    return { deleted: true, previous };
  }

  /** DELETE moves to trash and answers the record; a second DELETE is 410 (CONTRACT §3). */
  private async trash(event: EventEntity, ctx: RequestContext) {
    refuseTrash(canEdit(ctx.actor, event), ctx.actor, event, 'event');
    const clock = clockAt(this.config);
    await this.writes.run(async (scope) => {
      const { manager } = scope;
      const utc = nowUtcSql(clock.now);
      await leaveSite(scope, this.translations, event, {
        kind: 'event',
        scope: EVENT_TRANSLATIONS,
        action: 'trashed',
        nowUtc: utc,
        remove: async () => {
          const status = event.status;
          await this.events.trash(manager, event.id, { local: siteNow(clock), utc });
          await this.events.syncTermLinks(manager, { ...event, status: 'trash' });
          // Its terms count one published event less.
          if (status === 'publish') {
            await this.terms.linksChanged(manager, await this.events.termIdsOf(manager, event.id));
          }
        },
      });
    });
    return this.reads.written(event.id, ctx.query.password, ctx);
  }
}
