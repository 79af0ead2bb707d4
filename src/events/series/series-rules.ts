import { invalidParams } from '../../common/errors/api-error.js';
import { utcToLocal } from '../../common/dates/index.js';
import { expandSeries, horizonFrom } from '../../common/recurrence/expand.js';
import {
  isRecurrenceProblem,
  parseRecurrence,
  RECURRENCE_LIMITS,
  type Recurrence,
} from '../../common/recurrence/rules.js';
import { threadCpuMs } from '../../common/cpu.js';
import { nowUtcSql } from '../../database/columns.js';
import type { EventEntity } from '../event.entity.js';

// The rules of recurring events as pure functions (expansion, split, anchor, horizon): they take
// values and answer values; what is stored is OccurrencesRepository's and SeriesWrites'.

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

/** Where a series' horizon starts at `now`: now on its wall clock, or its start when later. */
function horizonStart(event: EventEntity, siteZone: string, now: Date): string {
  const nowLocal = utcToLocal(nowUtcSql(now), event.timezone || siteZone);
  return nowLocal > event.startDate ? nowLocal : event.startDate;
}

/** The local wall clock up to which a series is materialized when written at `now`. */
export function horizonFor(event: EventEntity, siteZone: string, now: Date): string {
  const start = horizonStart(event, siteZone, now);
  return horizonFrom(start);
}

/**
 * The occurrences of `event`'s series, or a 400 naming the bound the series goes over (nothing is
 * written then: the caller's transaction rolls back). The bound of occurrences counts every one
 * the series stores, from its start to its horizon (a series that started in 1900 is as big as
 * what it stores, not as what is left of it), and the CPU budget covers the whole expansion:
 * stepping the rules (cut as soon as it goes over), then placing and sorting what they made.
 * `extending` (the horizon job): only the occurrences from now on count against the bound.
 */
export function expandEvent(
  event: EventEntity,
  siteZone: string,
  now: Date,
  { extending = false }: { extending?: boolean } = {},
) {
  const recurrence = recurrenceOf(event)!;
  const deadline = threadCpuMs() + RECURRENCE_LIMITS.ms;
  const anchor = anchorOf(event, siteZone);
  const horizon = horizonFor(event, siteZone, now);
  // The horizon job extends a series a write accepted: what it already stores was counted
  // then, so only what lies ahead of now counts here. An unbounded daily series keeps its
  // horizon after its first 1,000 days; a write that changes its rule or dates counts all.
  const countFrom = extending ? horizonStart(event, siteZone, now) : undefined;
  const out = expandSeries(recurrence, anchor, { horizon, countFrom });
  if ('key' in out) throw invalidParams({ recurrence: out });
  if (threadCpuMs() > deadline) {
    throw invalidParams({
      recurrence: { key: 'recurrence.too_slow', args: { max: RECURRENCE_LIMITS.ms } },
    });
  }
  return out;
}

/** The stored form of `recurrence`, re-read (normal form, bounds), or a 400 naming the problem. */
function normalized(recurrence: Recurrence): Recurrence | null {
  const out = parseRecurrence(recurrence);
  if (isRecurrenceProblem(out)) throw invalidParams({ recurrence: out });
  return out;
}

/** The exclusion that removes exactly the occurrence starting at `start` (local wall clock). */
const exclusionOf = (event: Pick<EventEntity, 'allDay'>, start: string) =>
  event.allDay ? start.slice(0, 10) : start;

/**
 * `event`'s series without its occurrence starting at `start` (an exclusion date added): what
 * cancelling an occurrence, or making it an event of its own, leaves of the series.
 */
export function withoutOccurrence(event: EventEntity, start: string): string {
  const recurrence = recurrenceOf(event)!;
  const out = normalized({
    ...recurrence,
    exdates: [...recurrence.exdates, exclusionOf(event, start)],
  });
  return JSON.stringify(out);
}

/** `YYYYMMDD` or `YYYYMMDDTHHMMSS` of a local wall clock one second before `start`. */
function untilBefore(start: string, allDay: boolean): string {
  const ms =
    Date.UTC(+start.slice(0, 4), +start.slice(5, 7) - 1, +start.slice(8, 10)) +
    ((+start.slice(11, 13) || 0) * 3600 +
      (+start.slice(14, 16) || 0) * 60 +
      (+start.slice(17, 19) || 0)) *
      1000 -
    (allDay ? 86_400_000 : 1000);
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10).replaceAll('-', '');
  return allDay ? date : `${date}T${iso.slice(11, 19).replaceAll(':', '')}`;
}

/** A rule with its end (COUNT, UNTIL) replaced by `end` (`COUNT=n` or `UNTIL=...`). */
function withEnd(rule: string, end: string): string {
  const parts = rule.split(';').filter((p) => !p.startsWith('COUNT=') && !p.startsWith('UNTIL='));
  return [...parts, end].join(';');
}

/**
 * Splits `event`'s series at its occurrence starting at `at` (`_tec_update_type=upcoming`): the
 * head is the series ending just before it (each rule given an UNTIL, the dates before it kept),
 * the tail the series of a new event whose first occurrence is `at`, carrying every occurrence
 * from it on: each rule with what is left of its COUNT (or its UNTIL), the dates from `at` on.
 * Where restarting a rule at `at` would not give the same dates (an INTERVAL whose phase is that
 * of another rule), the tail adds or excludes those dates, so that it lists exactly what the
 * series listed from `at` on (within the materialized horizon for an unbounded series). Either
 * part over a bound is a 400 naming it.
 */
export function splitSeries(
  event: EventEntity,
  at: { start: string; end: string },
  siteZone: string,
  now: Date,
): { head: string | null; tail: string | null } {
  const recurrence = recurrenceOf(event)!;
  const anchor = anchorOf(event, siteZone);
  const day = at.start.slice(0, 10);
  const before = (d: string) => (d.length === 10 ? d < day : d < at.start);
  // Null when nothing of the series is left before `at` but the event's own dates.
  const headDates = recurrence.rdates.filter(before);
  const head =
    recurrence.rules.length || headDates.length
      ? normalized({
          rules: recurrence.rules.map((r) =>
            withEnd(r, `UNTIL=${untilBefore(at.start, event.allDay)}`),
          ),
          exdates: recurrence.exdates.filter(before),
          rdates: headDates,
        })
      : null;
  const rules: string[] = [];
  for (const rule of recurrence.rules) {
    const count = /(?:^|;)COUNT=(\d+)/.exec(rule);
    if (!count) {
      rules.push(rule);
      continue;
    }
    const alone = expandSeries({ rules: [rule], exdates: [], rdates: [] }, anchor, {
      horizon: SERIES_COMPLETE,
    });
    if ('key' in alone) throw invalidParams({ recurrence: alone });
    const left = alone.occurrences.filter((o) => o.start >= at.start).length;
    if (left > 0) rules.push(withEnd(rule, `COUNT=${left}`));
  }
  const tail: Recurrence = {
    rules,
    exdates: recurrence.exdates.filter((d) => !before(d) && d !== at.start),
    rdates: recurrence.rdates.filter((d) => !before(d) && d !== at.start),
  };
  // What the series listed from `at` on, and what the tail gives when restarted there.
  const window = { horizon: horizonFor(event, siteZone, now) };
  const wanted = expandSeries(recurrence, anchor, window);
  const given = expandSeries(tail, { ...anchor, start: at.start, end: at.end }, window);
  if ('key' in wanted) throw invalidParams({ recurrence: wanted });
  if ('key' in given) throw invalidParams({ recurrence: given });
  const wantedStarts = new Set(wanted.occurrences.map((o) => o.start).filter((s) => s >= at.start));
  const givenStarts = new Set(given.occurrences.map((o) => o.start));
  const last = wanted.horizon ?? SERIES_COMPLETE;
  for (const start of wantedStarts) if (!givenStarts.has(start)) tail.rdates.push(start);
  for (const start of givenStarts) {
    if (!wantedStarts.has(start) && start <= last) tail.exdates.push(exclusionOf(event, start));
  }
  // Nothing after `at` but `at` itself: the new event does not recur.
  const out = tail.rules.length || tail.rdates.length ? normalized(tail) : null;
  return { head: head && JSON.stringify(head), tail: out && JSON.stringify(out) };
}
