import { In, type EntityManager } from 'typeorm';
import { invalidParams } from '../common/errors/api-error.js';
import { utcToLocal } from '../common/dates/index.js';
import { expandSeries, horizonFrom, type Occurrence } from '../common/recurrence/expand.js';
import type { Recurrence } from '../common/recurrence/rules.js';
import { nowUtcSql } from '../database/columns.js';
import { insertRows } from '../database/plain-insert.js';
import { EventEntity, OccurrenceEntity } from './event.entity.js';

/**
 * Provisional ids of occurrences (BEHAVIOR §15): the base plus the occurrence id, as the
 * plugin's Pro add-on numbers them by default; real ids stay below it.
 */
export const OCCURRENCE_ID_BASE = 10_000_000;

/** `occurrences_until` of a series that is complete (every rule ends). */
export const SERIES_COMPLETE = '9999-12-31 23:59:59';

export const isProvisionalId = (id: number) => id > OCCURRENCE_ID_BASE;

/** The stored recurrence of an event, or null for a single event. */
export function recurrenceOf(event: Pick<EventEntity, 'recurrence'>): Recurrence | null {
  if (!event.recurrence) return null;
  try {
    return JSON.parse(event.recurrence) as Recurrence;
  } catch {
    return null;
  }
}

/** The anchor of an event's series: its own dates, all-day flag and zone. */
export function anchorOf(event: EventEntity, siteZone: string) {
  return {
    start: event.startDate,
    end: event.endDate,
    allDay: event.allDay,
    zone: event.timezone || siteZone,
  };
}

/** The local wall clock up to which a series is materialized when written at `now`. */
function horizonFor(event: EventEntity, siteZone: string, now: Date): string {
  const nowLocal = utcToLocal(nowUtcSql(now), event.timezone || siteZone);
  return horizonFrom(nowLocal > event.startDate ? nowLocal : event.startDate);
}

/**
 * The occurrences of `event`'s series, or a 400 naming the bound the series goes over (nothing is
 * written then: the caller's transaction rolls back).
 */
export function expandEvent(event: EventEntity, siteZone: string, now: Date) {
  const recurrence = recurrenceOf(event)!;
  const out = expandSeries(recurrence, anchorOf(event, siteZone), {
    horizon: horizonFor(event, siteZone, now),
  });
  if ('key' in out) throw invalidParams({ recurrence: out });
  return out;
}

/**
 * Writes the occurrences of a recurring event (caller's transaction): rows whose start stays
 * keep their id (and so their provisional id), the others are removed or added; the event's
 * `occurrencesUntil` says how far they go. A single event has none.
 */
export async function materialize(
  manager: EntityManager,
  event: EventEntity,
  siteZone: string,
  now: Date,
): Promise<void> {
  if (!event.recurrence) {
    await manager.delete(OccurrenceEntity, { eventId: event.id });
    event.occurrencesUntil = null;
    return;
  }
  const { occurrences, horizon } = expandEvent(event, siteZone, now);
  await replaceOccurrences(manager, event.id, occurrences);
  event.occurrencesUntil = horizon ?? SERIES_COMPLETE;
}

/** Writes `occurrences` as the event's rows, keeping the ids of those whose start stays. */
export async function replaceOccurrences(
  manager: EntityManager,
  eventId: number,
  occurrences: Occurrence[],
): Promise<void> {
  const existing = await manager.find(OccurrenceEntity, { where: { eventId } });
  const byStart = new Map(existing.map((o) => [o.startDate, o]));
  const wanted = new Set(occurrences.map((o) => o.start));
  const gone = existing.filter((o) => !wanted.has(o.startDate)).map((o) => o.id);
  for (let i = 0; i < gone.length; i += 500) {
    await manager.delete(OccurrenceEntity, { id: In(gone.slice(i, i + 500)) });
  }
  const perDay = new Map<string, number>();
  const added: OccurrenceEntity[] = [];
  for (const o of occurrences) {
    const day = o.start.slice(0, 10);
    const dayIndex = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, dayIndex);
    const row = byStart.get(o.start);
    if (!row) {
      added.push(
        Object.assign(new OccurrenceEntity(), {
          eventId,
          startDate: o.start,
          endDate: o.end,
          startUtc: o.startUtc,
          endUtc: o.endUtc,
          dayIndex,
        }),
      );
    } else if (
      row.endDate !== o.end ||
      row.startUtc !== o.startUtc ||
      row.endUtc !== o.endUtc ||
      row.dayIndex !== dayIndex
    ) {
      await manager.update(
        OccurrenceEntity,
        { id: row.id },
        { endDate: o.end, startUtc: o.startUtc, endUtc: o.endUtc, dayIndex },
      );
    }
  }
  for (let i = 0; i < added.length; i += 200) {
    await insertRows(manager, OccurrenceEntity, added.slice(i, i + 200));
  }
}
