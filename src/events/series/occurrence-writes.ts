import { Inject, Injectable } from '@nestjs/common';
import { canCreatePosts, canEdit } from '../../auth/post-policy.js';
import { ApiError, forbidden, invalidParams, t } from '../../common/errors/api-error.js';
import type { RequestContext } from '../../common/http/request-context.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Writes, type WriteScope } from '../../database/writes.js';
import { EventTermLinks } from '../../terms/event-term-links.js';
import type { UpdateEventDto } from '../dto/update-event.dto.js';
import { notFound } from '../event-errors.js';
import { EventEntity } from '../event.entity.js';
import { EventReads } from '../event-reads.js';
import { EventUpdates } from '../event-updates.js';
import type { WrittenEvent } from '../event.presenter.js';
import { EventWritePlanner } from '../event-write-plan.js';
import { clockAt, siteNow, slugBase, type WriteClock } from '../event-write-rules.js';
import { nowUtcSql } from '../../database/columns.js';
import { EventsRepository } from '../events.repository.js';
import { OccurrencesRepository, type StoredOccurrence } from './occurrences.repository.js';
import {
  expandEvent,
  OCCURRENCE_ID_BASE,
  SERIES_COMPLETE,
  splitSeries,
  withoutOccurrence,
} from './series-rules.js';
import { SeriesWrites } from './series-writes.js';

/** An update of one occurrence that takes it (and, `upcoming`, what follows) out of its series. */
interface Split {
  occurrence: StoredOccurrence;
  type: 'single' | 'upcoming';
}

/**
 * The writes addressed to one occurrence by its provisional id (CONTRACT §9), the way an update
 * or a delete of a provisional id takes from the top: an update of the whole series goes on as
 * the event's own (EventUpdates); one that takes the occurrence (and, `upcoming`, what follows)
 * out of its series splits it off first, then updates what was split off; a delete cancels the
 * occurrence alone. The series' rules change, its occurrences are written again, and the lists
 * learn of it.
 */
@Injectable()
export class OccurrenceWrites {
  constructor(
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
    private readonly writes: Writes,
    private readonly plans: EventWritePlanner,
    private readonly updates: EventUpdates,
    private readonly series: SeriesWrites,
    private readonly reads: EventReads,
    private readonly terms: EventTermLinks,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'siteTimezone'>,
  ) {}

  /**
   * An update addressed to an occurrence (CONTRACT §9), by `_tec_update_type`: `all` (default)
   * updates the series as its real id does; `single` makes the occurrence an event of its own and
   * `upcoming` a new series of it and what follows (splitOff), the update applying to that event.
   * `upcoming` from the first occurrence is the whole series. Checked in the order of every
   * update: the body, then whether the occurrence exists, then the permission on the series (the
   * checks and the write are those of any update: EventUpdates). Answers the event as written.
   */
  async updateOccurrence(
    id: number,
    dto: UpdateEventDto,
    ctx: RequestContext,
  ): Promise<WrittenEvent> {
    const occurrence = await this.occurrences.findOccurrence(id - OCCURRENCE_ID_BASE);
    const plan = await this.plans.validate(dto, ctx, true);
    const series = occurrence ? await this.events.findById(occurrence.eventId) : null;
    if (!occurrence || !series) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    const type = dto._tec_update_type ?? 'all';
    // `upcoming` from the first occurrence is the whole series, as `all`.
    const split: Split | undefined =
      type === 'all' ||
      (type === 'upcoming' &&
        (await this.occurrences.firstOccurrence(series.id))?.id === occurrence.id)
        ? undefined
        : { occurrence, type };
    await this.updates.checkUpdate(series, dto, ctx);
    const clock = clockAt(this.config);
    let written: WrittenEvent | undefined;
    await this.writes.run(async (scope) => {
      const target = split ? await this.splitOff(scope, series.id, split, clock) : series.id;
      written = await this.updates.writeUpdate(scope, target, dto, plan, ctx, clock);
    });
    return written!;
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
    clock: WriteClock,
  ): Promise<number> {
    const { manager } = scope;
    const series = (await this.events.findById(seriesId, manager))!;
    const occurrence = await this.occurrences.findOccurrence(split.occurrence.id, manager);
    if (!occurrence || occurrence.eventId !== series.id || !series.recurrence) {
      throw notFound(OCCURRENCE_ID_BASE + split.occurrence.id);
    }
    // The rules first: what the series keeps, and what the new event takes (its occurrences).
    let tail: string | null = null;
    if (split.type === 'single') series.recurrence = withoutOccurrence(series, occurrence.start);
    else
      ({ head: series.recurrence, tail } = splitSeries(
        series,
        occurrence,
        clock.siteZone,
        clock.now,
      ));
    const copy: EventEntity = Object.assign(new EventEntity(), series, {
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
      // Modified now, as the series it leaves (SeriesWrites.rewrite).
      modified: siteNow(clock),
      modifiedUtc: nowUtcSql(clock.now),
    });
    const occurrences = tail ? expandEvent(copy, clock.siteZone, clock.now) : undefined;
    if (occurrences) copy.occurrencesUntil = occurrences.horizon ?? SERIES_COMPLETE;
    // Then the writes: the series with its new rules, and the new event.
    await this.series.rewrite(scope, series, clock);
    const id = await this.events.allocateId(manager);
    copy.id = id;
    await this.events.insert(manager, copy, slugBase(copy, series.slug ?? undefined));
    if (occurrences)
      await this.occurrences.replaceOccurrences(manager, copy, occurrences.occurrences);
    scope.changed('event', id, 'created', copy);
    const organizerIds = (await this.events.organizerIds([series.id], manager)).get(series.id);
    await this.events.setOrganizers(id, organizerIds ?? [], manager, true);
    const termIds = await this.events.termIdsOf(manager, series.id);
    await this.events.addTerms(manager, copy, termIds);
    await this.terms.linksCreated(manager, termIds, copy);
    return id;
  }

  /**
   * `DELETE /events/{provisional id}` (CONTRACT §9): the series gets an exclusion date for that
   * occurrence, whose provisional id is then gone (404); answers the series' event. Checked as
   * the event's delete: found, permission on the event, not in the trash; the last occurrence of
   * a series is not cancelled alone (delete the event).
   */
  async cancelOccurrence(id: number, ctx: RequestContext) {
    const occurrence = await this.occurrences.findOccurrence(id - OCCURRENCE_ID_BASE);
    const event = occurrence ? await this.events.findById(occurrence.eventId) : null;
    if (!occurrence || !event) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    if (!canEdit(ctx.actor, event)) throw forbidden(!!ctx.actor.user);
    if (event.status === 'trash') throw new ApiError('event-is-in-trash', 410);
    const clock = clockAt(this.config);
    await this.writes.run(async (scope) => {
      const { manager } = scope;
      const series = (await this.events.findById(event.id, manager))!;
      const current = await this.occurrences.findOccurrence(occurrence.id, manager);
      if (!current || !series.recurrence) throw notFound(id);
      if ((await this.occurrences.countOccurrences(manager, series.id)) <= 1) {
        throw invalidParams({ id: t('recurrence.last_occurrence') });
      }
      series.recurrence = withoutOccurrence(series, current.start);
      await this.series.rewrite(scope, series, clock);
    });
    return this.reads.written(event.id, ctx.query.password, ctx);
  }
}
