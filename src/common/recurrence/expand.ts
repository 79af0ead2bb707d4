import { RRuleTemporal } from 'rrule-temporal';
import type { Text } from '../errors/api-error.js';
import { threadCpuMs } from '../cpu.js';
import { localToUtc, placeSpan, utcToLocal } from '../dates/index.js';
import { parseRule, RECURRENCE_LIMITS, type Recurrence, type Rule } from './rules.js';

/** Where a series starts: the event's own dates, which are its first occurrence. */
export interface SeriesAnchor {
  /** Local wall clocks of the event's zone, `YYYY-MM-DD HH:MM:SS`. */
  start: string;
  end: string;
  allDay: boolean;
  zone: string;
}

/** One occurrence: local wall clocks of the event's zone and their instants. */
export interface Occurrence {
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
}

export interface Expansion {
  occurrences: Occurrence[];
  /**
   * The local wall clock up to which the occurrences are complete; null when the series ends
   * (every rule has COUNT or UNTIL): nothing is left to add as time passes.
   */
  horizon: string | null;
}

export interface ExpandOptions {
  /** The local wall clock up to which an unbounded series is expanded. */
  horizon: string;
  /** Stop after this many occurrences without a problem (the next few of a payload). */
  take?: number;
  /** Occurrences starting at or before this local wall clock are skipped (with `take`). */
  after?: string;
  limits?: { occurrences: number; steps: number; ms: number };
  /**
   * An unbounded series counts against `limits.occurrences` only its occurrences from this local
   * wall clock on; a bounded one counts all. The API's writes pass none (every stored occurrence
   * counts, so that the cost of a series follows its size, not its age); the horizon job passes
   * now, extending a series a write accepted.
   */
  countFrom?: string;
}

const reason = (key: string, args?: Record<string, string | number>): Text => ({
  key: `recurrence.${key}`,
  args,
});

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const compact = (sql: string) => sql.replace(/[-: ]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2');

/** Wall clock arithmetic on `YYYY-MM-DD HH:MM:SS` (no zone: DST never shifts a wall clock). */
const wallMs = (sql: string) =>
  Date.UTC(
    +sql.slice(0, 4),
    +sql.slice(5, 7) - 1,
    +sql.slice(8, 10),
    +sql.slice(11, 13) || 0,
    +sql.slice(14, 16) || 0,
    +sql.slice(17, 19) || 0,
  );
function wallOf(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A horizon `days` ahead of `fromLocal` (a wall clock). */
export function horizonFrom(fromLocal: string, days: number = RECURRENCE_LIMITS.horizonDays) {
  return wallOf(wallMs(fromLocal) + days * 86_400_000);
}

/** Does every rule end (COUNT or UNTIL)? Then the series is finite. */
function isBounded(recurrence: Recurrence): boolean {
  return recurrence.rules.every((text) => {
    const rule = parseRule(text) as Rule;
    return rule.count !== undefined || rule.until !== undefined;
  });
}

/**
 * The UNTIL of `rule` as the wall-clock expansion reads it: a wall clock of the zone, or a date.
 * A timed UNTIL in UTC is an instant (RFC 5545 §3.3.10): the wall clock given the library is a
 * day past it, and `untilUtc` the instant each start is compared with.
 */
function untilPart(rule: Rule, anchor: SeriesAnchor): { wall: string; untilUtc?: string } | null {
  if (!rule.until) return null;
  if (anchor.allDay) {
    const local = rule.untilUtc ? utcToLocal(rule.until, anchor.zone) : rule.until;
    return { wall: local.slice(0, 10).replaceAll('-', '') };
  }
  const wall = rule.until.length === 10 ? `${rule.until} 23:59:59` : rule.until;
  if (!rule.untilUtc) return { wall: `${compact(wall)}Z` };
  const dayLater = wallOf(wallMs(utcToLocal(wall, anchor.zone)) + 86_400_000);
  return { wall: `${compact(dayLater)}Z`, untilUtc: wall };
}

class Cut extends Error {
  constructor(readonly problem: Text) {
    super(problem.key);
  }
}

/**
 * The occurrences of a series, in order: the event's own start, each rule's, the added dates,
 * less the excluded ones (a date excludes every occurrence of that local day, a date-time the one
 * starting at the instant it names). Rules are expanded on wall clocks (rrule-temporal, in UTC as
 * a zone without daylight saving) from the start as given, each wall clock then placed in the
 * event's zone as RFC 5545 §3.3.5 reads it (CONTRACT §9 "Time"): 19:00 stays 19:00 across DST
 * changes; only an occurrence whose start a change skips moves forward, by the gap; a repeated
 * time is its first occurrence. A local UNTIL compares wall clocks, a UTC one instants. Each
 * occurrence lasts exactly what the event lasts (placeSpan); all-day series stay all-day.
 * Bounded by RECURRENCE_LIMITS: over a bound, the problem names it.
 */
export function expandSeries(
  recurrence: Recurrence,
  anchor: SeriesAnchor,
  options: ExpandOptions,
): Expansion | Text {
  const limits = options.limits ?? RECURRENCE_LIMITS;
  const bounded = isBounded(recurrence);
  const starts = new Set<string>([anchor.start]);
  const wanted = options.take;
  const countFrom = bounded ? '' : (options.countFrom ?? '');
  const problem = addRuleStarts(starts, recurrence, anchor, options, {
    limits,
    bounded,
    countFrom,
  });
  if (problem) return problem;
  addDates(starts, recurrence.rdates, anchor);
  const kept = placeStarts(starts, recurrence.exdates, anchor);
  const counted = countFrom ? kept.filter((o) => o.start >= countFrom).length : kept.length;
  if (counted > limits.occurrences && wanted === undefined) {
    return reason('too_many_occurrences', { max: limits.occurrences });
  }
  const takeAfter = options.after ?? '';
  const chosen =
    wanted === undefined ? kept : kept.filter((o) => o.start > takeAfter).slice(0, wanted);
  return { occurrences: withEnds(chosen, anchor), horizon: bounded ? null : options.horizon };
}

/**
 * Adds to `starts` the wall clocks each rule makes, up to the horizon of an unbounded series;
 * each rule stops once it has made `take` occurrences after `after` (the rest come later).
 * Answers the problem when a rule goes over a bound or cannot be used, else null.
 */
function addRuleStarts(
  starts: Set<string>,
  recurrence: Recurrence,
  anchor: SeriesAnchor,
  options: ExpandOptions,
  run: { limits: NonNullable<ExpandOptions['limits']>; bounded: boolean; countFrom: string },
): Text | null {
  const { limits, bounded, countFrom } = run;
  const deadline = threadCpuMs() + limits.ms;
  const takeAfter = options.after ?? '';
  const wanted = options.take;
  try {
    for (const text of recurrence.rules) {
      const rule = parseRule(text) as Rule;
      const dtstart = anchor.allDay
        ? `DTSTART;VALUE=DATE:${anchor.start.slice(0, 10).replaceAll('-', '')}`
        : `DTSTART;TZID=UTC:${compact(anchor.start)}`;
      const until = untilPart(rule, anchor);
      const rrule = formatForLibrary(text, until?.wall ?? null);
      let made = 0;
      let later = 0;
      new RRuleTemporal({
        rruleString: `${dtstart}\nRRULE:${rrule}`,
        maxIterations: limits.steps,
        cache: false,
      }).all((dt) => {
        if (threadCpuMs() >= deadline) throw new Cut(reason('too_slow', { max: limits.ms }));
        if (dt.year > 9999) return false;
        const wall = `${pad(dt.year, 4)}-${pad(dt.month)}-${pad(dt.day)} ${anchor.allDay ? '00:00:00' : `${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}`}`;
        if (!bounded && wall > options.horizon) return false;
        if (until?.untilUtc && localToUtc(wall, anchor.zone) > until.untilUtc) return true;
        starts.add(wall);
        if (wall >= countFrom && ++made > limits.occurrences) {
          throw new Cut(reason('too_many_occurrences', { max: limits.occurrences }));
        }
        if (wall > takeAfter) later++;
        return wanted === undefined || later < wanted + recurrence.exdates.length;
      });
    }
  } catch (error) {
    if (error instanceof Cut) return error.problem;
    if (error instanceof Error && /maximum iterations/i.test(error.message)) {
      return reason('too_many_steps', { max: limits.steps });
    }
    return reason('rule_unusable', { value: recurrence.rules.join(' ').slice(0, 80) });
  }
  return null;
}

/** Adds the added dates: a date at the event's time of day (or all day), a date-time as given. */
function addDates(starts: Set<string>, rdates: readonly string[], anchor: SeriesAnchor): void {
  const time = anchor.start.slice(11, 19) || '00:00:00';
  for (const date of rdates) {
    starts.add(
      anchor.allDay
        ? `${date.slice(0, 10)} 00:00:00`
        : date.length === 10
          ? `${date} ${time}`
          : date,
    );
  }
}

/**
 * The starts placed in the event's zone, less the excluded ones, one per instant, in order.
 * An excluded date-time names an instant (RFC 5545 §3.8.5.1): the one the rules' wall clock
 * names, whichever local time it is written as (02:45 in a gap or the 03:45 it moves to).
 */
function placeStarts(
  starts: Set<string>,
  exdates: readonly string[],
  anchor: SeriesAnchor,
): Array<{ start: string; startUtc: string }> {
  const excludedDays = new Set(exdates.filter((d) => d.length === 10));
  const excludedStarts = new Set(
    exdates.filter((d) => d.length > 10).map((d) => localToUtc(d, anchor.zone)),
  );
  const placed = new Map<string, { start: string; startUtc: string }>();
  for (const wall of starts) {
    if (excludedDays.has(wall.slice(0, 10))) continue;
    const startUtc = localToUtc(wall, anchor.zone);
    if (excludedStarts.has(startUtc)) continue;
    const start = anchor.allDay ? wall : utcToLocal(startUtc, anchor.zone);
    if (!placed.has(startUtc)) placed.set(startUtc, { start, startUtc });
  }
  return [...placed.values()].sort((a, b) => (a.start < b.start ? -1 : 1));
}

/**
 * Each start with its end: a timed occurrence lasts exactly what the event lasts, its own start
 * moved out of a gap; an all-day one spans as many days.
 */
function withEnds(
  chosen: ReadonlyArray<{ start: string; startUtc: string }>,
  anchor: SeriesAnchor,
): Occurrence[] {
  const span = anchor.allDay ? null : placeSpan(anchor.start, anchor.end, anchor.zone);
  const length = span ? wallMs(span.endUtc) - wallMs(span.startUtc) : 0;
  const days = Math.round(
    (wallMs(anchor.end.slice(0, 10)) - wallMs(anchor.start.slice(0, 10))) / 86_400_000,
  );
  return chosen.map(({ start, startUtc }) => {
    if (anchor.allDay) {
      const end = `${wallOf(wallMs(start) + days * 86_400_000).slice(0, 10)} 23:59:59`;
      return { start, end, startUtc, endUtc: localToUtc(end, anchor.zone) };
    }
    const endUtc = wallOf(wallMs(startUtc) + length);
    return { start, end: utcToLocal(endUtc, anchor.zone), startUtc, endUtc };
  });
}

/**
 * Whether the rules of a series (its exclusion and added dates aside) make an occurrence start
 * at the local wall clock `start`: expanded up to `start` only, within RECURRENCE_LIMITS (a
 * series over them makes none).
 */
export function rulesMake(rules: string[], anchor: SeriesAnchor, start: string): boolean {
  if (start === anchor.start) return true;
  const out = expandSeries({ rules, exdates: [], rdates: [] }, anchor, {
    horizon: start,
    take: 1,
    // `after` skips what starts at or before it: from one second before `start` on.
    after: wallOf(wallMs(start) - 1000),
  });
  return !('key' in out) && out.occurrences[0]?.start === start;
}

/** The stored rule with its UNTIL as the wall-clock expansion reads it. */
function formatForLibrary(text: string, until: string | null): string {
  const parts = text.split(';').filter((p) => !p.startsWith('UNTIL='));
  if (until) parts.push(`UNTIL=${until}`);
  return parts.join(';');
}
