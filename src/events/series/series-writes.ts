import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { nowUtcSql } from '../../database/columns.js';
import type { WriteScope } from '../../database/writes.js';
import { effectiveStatus } from '../../posts/post-status.js';
import type { CreateEventDto } from '../dto/create-event.dto.js';
import { EventEntity } from '../event.entity.js';
import type { WritePlan } from '../event-write-plan.js';
import { applyDates, siteNow, type WriteClock } from '../event-write-rules.js';
import { EventsRepository } from '../events.repository.js';
import { OccurrencesRepository } from './occurrences.repository.js';
import { expandEvent, recurrenceOf, SERIES_COMPLETE } from './series-rules.js';

/** What an update did to its event that its series answers (SeriesWrites.afterUpdate). */
export interface SeriesChange {
  /** New rules or new dates of a series: its occurrences are written again. */
  reexpand: boolean;
  /** The event's `recurrence` before the update, as stored. */
  previous: string | null;
  /** Whether the update's actor may edit a translation (the update's permission rule). */
  mayEdit: (member: EventEntity) => boolean;
}

/**
 * What the writes of an event do to its series (CONTRACT §9): a created event's series expanded,
 * a series written again with its occurrences (`materialize`, `rewrite`), and the translations
 * that share a changed series following it, each on the site's clock (WriteClock): nothing of
 * it depends on who writes. The writes addressed to one occurrence are OccurrenceWrites'.
 */
@Injectable()
export class SeriesWrites {
  constructor(
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
  ) {}

  /**
   * The series a created event sets, expanded (undefined: none). A series over a bound is a 400,
   * before the permission check like every validation; its occurrences are those the event's own
   * dates give. CONTRACT §9: a translation of a series is a series of the same rules, unless it
   * says otherwise (`recurrence`, `{}` for none): the plan takes the source's.
   */
  async ofCreated(plan: WritePlan, dto: CreateEventDto, clock: WriteClock) {
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
    return expandEvent(draft, clock.siteZone, clock.now);
  }

  /**
   * What an update of `event` does to its series, in the update's transaction: its occurrences
   * written again when its rules or dates changed, then the translations that shared a changed
   * series following it (followTranslations).
   */
  async afterUpdate(
    scope: WriteScope,
    event: EventEntity,
    change: SeriesChange,
    clock: WriteClock,
  ): Promise<void> {
    if (change.reexpand) await this.materialize(scope.manager, event, clock);
    await this.followTranslations(scope, event, change.previous, change.mayEdit, clock);
  }

  /**
   * CONTRACT §9: a translation of a series is a series of the same rules. When an update changed
   * `event`'s `recurrence` (from `previous`, as stored), the members of its translation group
   * that had the same series follow (each expanded from its own dates), in the update's
   * transaction; a member whose series was its own (a different one, or none) keeps it, and so
   * does one the actor may not edit (`mayEdit`, the caller's permission rule).
   */
  private async followTranslations(
    scope: WriteScope,
    event: EventEntity,
    previous: string | null,
    mayEdit: (member: EventEntity) => boolean,
    clock: WriteClock,
  ): Promise<void> {
    if (event.translationGroup === null || event.recurrence === previous) return;
    const { manager } = scope;
    const members = await this.events.groupMembers(manager, event.translationGroup, event.id);
    for (const member of members) {
      if (member.status === 'trash' || member.recurrence !== previous) continue;
      if (!mayEdit(member)) continue;
      member.recurrence = event.recurrence;
      await this.rewrite(scope, member, clock);
    }
  }

  /**
   * Writes `series` with the recurrence it has been given (caller's transaction): its
   * occurrences, its modification date and its row; the write names it as updated.
   */
  async rewrite(
    scope: Pick<WriteScope, 'manager' | 'changed'>,
    series: EventEntity,
    clock: WriteClock,
  ): Promise<void> {
    await this.materialize(scope.manager, series, clock);
    // Its status as readers saw it (the occurrences leave it as it was).
    const previousStatus = effectiveStatus(series, nowUtcSql(clock.now));
    series.modified = siteNow(clock);
    series.modifiedUtc = nowUtcSql(clock.now);
    await this.events.save(scope.manager, series);
    scope.changed('event', series.id, 'updated', series, { previousStatus });
  }

  /**
   * Writes the occurrences of a recurring event (caller's transaction): rows whose start stays
   * keep their id (and so their provisional id), the others are removed or added; the event's
   * `occurrencesUntil` says how far they go. A single event has none.
   */
  private async materialize(
    manager: EntityManager,
    event: EventEntity,
    clock: WriteClock,
  ): Promise<void> {
    if (!event.recurrence) {
      await this.occurrences.clearOccurrences(manager, event.id);
      event.occurrencesUntil = null;
      return;
    }
    const { occurrences, horizon } = expandEvent(event, clock.siteZone, clock.now);
    await this.occurrences.replaceOccurrences(manager, event, occurrences);
    event.occurrencesUntil = horizon ?? SERIES_COMPLETE;
  }
}
