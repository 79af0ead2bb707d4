import { Injectable } from '@nestjs/common';
import { canCreatePosts, canEdit } from '../auth/post-policy.js';
import { ApiError, forbidden, invalidParams, t } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { nowUtcSql } from '../database/columns.js';
import { Writes, type WriteScope } from '../database/writes.js';
import { effectiveStatus } from '../posts/post-status.js';
import { EventTermLinks } from '../terms/event-term-links.js';
import { notFound } from './event-errors.js';
import { EventEntity } from './event.entity.js';
import { EventReads } from './event-reads.js';
import {
  expandEvent,
  materialize,
  OCCURRENCE_ID_BASE,
  recurrenceOf,
  replaceOccurrences,
  SERIES_COMPLETE,
  splitSeries,
  withoutOccurrence,
} from './event-series.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import { clockOf, type WritePlan } from './event-write-plan.js';
import { applyDates, siteNow, slugBase, type WriteClock } from './event-write-rules.js';
import { EventsRepository, type StoredOccurrence } from './events.repository.js';

/** An update of one occurrence that takes it (and, `upcoming`, what follows) out of its series. */
export interface Split {
  occurrence: StoredOccurrence;
  type: 'single' | 'upcoming';
}

/**
 * The writes that take occurrences out of a recurring event (CONTRACT §9): an occurrence split off
 * as an event of its own (or the head of a new series), and an occurrence cancelled alone. The
 * series' rules change, its occurrences are written again, and the lists learn of it.
 */
@Injectable()
export class SeriesWrites {
  constructor(
    private readonly events: EventsRepository,
    private readonly writes: Writes,
    private readonly reads: EventReads,
    private readonly terms: EventTermLinks,
  ) {}

  /**
   * `_tec_update_type` single or upcoming (BEHAVIOR §15, CONTRACT §9), in the update's
   * transaction: the series loses the occurrence (an exclusion date) or ends before it, and a new
   * event takes it — a copy of the series' event (links, terms, status, author) with the
   * occurrence's dates, for `upcoming` with the rest of the series as its own (splitSeries), and
   * linked to the series and the occurrence's start (`series_id`, `series_start`). Answers the new
   * event's id: the update then applies to it.
   */
  /**
   * The series a created event sets, expanded (undefined: none). A series over a bound is a 400,
   * before the permission check like every validation; its occurrences are those the event's own
   * dates give. CONTRACT §9: a translation of a series is a series of the same rules, unless it
   * says otherwise (`recurrence`, `{}` for none): the plan takes the source's.
   */
  async ofCreated(plan: WritePlan, dto: CreateEventDto, ctx: RequestContext, clock: WriteClock) {
    if (plan.recurrence === undefined && dto.translation_of !== undefined) {
      const source = await this.events.findById(dto.translation_of);
      if (source) plan.recurrence = recurrenceOf(source) ?? undefined;
    }
    if (!plan.recurrence) return undefined;
    const draft = Object.assign(new EventEntity(), {
      allDay: false,
      recurrence: JSON.stringify(plan.recurrence),
    });
    applyDates(draft, dto, clock, true);
    return expandEvent(draft, ctx.config.siteTimezone, clock.now);
  }

  /**
   * CONTRACT §9: a translation of a series is a series of the same rules. When an update changed
   * `event`'s `recurrence` (from `previous`, as stored), the members of its translation group
   * that had the same series follow (each expanded from its own dates), in the update's
   * transaction; a member whose series was its own (a different one, or none) keeps it, and so
   * does one the actor may not edit.
   */
  async followTranslations(
    scope: WriteScope,
    event: EventEntity,
    previous: string | null,
    ctx: RequestContext,
    clock: WriteClock,
  ): Promise<void> {
    if (event.translationGroup === null || event.recurrence === previous) return;
    const { manager } = scope;
    const members = await this.events.groupMembers(manager, event.translationGroup, event.id);
    for (const member of members) {
      if (member.status === 'trash' || member.recurrence !== previous) continue;
      if (!canEdit(ctx.actor, member)) continue;
      member.recurrence = event.recurrence;
      await this.rewrite(scope, member, ctx.config.siteTimezone, clock);
    }
  }

  /**
   * Writes `series` with the recurrence it has been given (caller's transaction): its
   * occurrences, its modification date and its row; the write names it as updated.
   */
  private async rewrite(
    scope: Pick<WriteScope, 'manager' | 'changed'>,
    series: EventEntity,
    zone: string,
    clock: WriteClock,
  ): Promise<void> {
    const previousStatus = effectiveStatus(series, nowUtcSql(clock.now));
    await materialize(scope.manager, series, zone, clock.now);
    series.modified = siteNow(clock);
    series.modifiedUtc = nowUtcSql(clock.now);
    await this.events.save(scope.manager, series);
    scope.changed('event', series.id, 'updated', series, { previousStatus });
  }

  async splitOff(
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
    await this.rewrite(scope, series, zone, clock);
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
    });
    const occurrences = tail ? expandEvent(copy, zone, clock.now) : undefined;
    if (occurrences) copy.occurrencesUntil = occurrences.horizon ?? SERIES_COMPLETE;
    const id = await this.events.allocateId(manager);
    copy.id = id;
    await this.events.insert(manager, copy, slugBase(copy, series.slug ?? undefined));
    if (occurrences) await replaceOccurrences(manager, copy, occurrences.occurrences);
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
    await this.writes.run(async (scope) => {
      const { manager } = scope;
      const series = (await this.events.findById(event.id, manager))!;
      const current = await this.events.findOccurrence(occurrence.id, manager);
      if (!current || !series.recurrence) throw notFound(id);
      if ((await this.events.countOccurrences(manager, series.id)) <= 1) {
        throw invalidParams({ id: t('recurrence.last_occurrence') });
      }
      series.recurrence = withoutOccurrence(series, current.start);
      await this.rewrite(scope, series, zone, clock);
    });
    return this.reads.written(event.id, ctx.query.password, ctx);
  }
}
