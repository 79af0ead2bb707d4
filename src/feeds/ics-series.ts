import { localToUtc, utcToLocal } from '../common/dates/index.js';
import { rulesMake } from '../common/recurrence/expand.js';
import { isRecurrenceProblem, parseRule, type Recurrence } from '../common/recurrence/rules.js';

/** A series as one VEVENT writes it: the rules and dates, and its first occurrence. */
export interface IcsSeries {
  recurrence: Recurrence;
  /** The first occurrence's local wall clocks (`YYYY-MM-DD HH:MM:SS`) in `zone`. */
  start: string;
  allDay: boolean;
  /** The zone of the wall clocks (an IANA name, or UTC). */
  zone: string;
  /**
   * Local starts of occurrences written in the same calendar as VEVENTs of their own
   * (RECURRENCE-ID): the series' exclusion of each is left out, so that it names that instance.
   */
  changed?: ReadonlySet<string>;
}

/**
 * Whether a changed occurrence that replaced the local start `start` can be written as an
 * instance of `series` (RECURRENCE-ID): the series excludes exactly that occurrence (the exclusion
 * `_tec_update_type` single left), so that dropping the exclusion brings back the one instance
 * of the rules the changed VEVENT names. An exclusion of the whole day of a timed series also
 * excludes other occurrences of that day, and an added date of that day is left out of RDATE
 * while excluded: the change then stays an event of its own (and the series' lines only get
 * shorter when their changes are written as instances).
 */
export function excludesChange(series: IcsSeries, start: string): boolean {
  const { exdates, rdates } = series.recurrence;
  const day = start.slice(0, 10);
  if (rdates.some((d) => d.startsWith(day))) return false;
  const excluded = series.allDay
    ? start.endsWith(' 00:00:00') && (exdates.includes(day) || exdates.includes(start))
    : exdates.includes(start) && !exdates.includes(day);
  // After an edit of the rules, the exclusion a change left may name a start they no longer
  // make, and a RECURRENCE-ID naming no instance is an error for calendar applications (RFC 5545
  // §3.8.4.4).
  const { start: first, allDay, zone } = series;
  return (
    excluded &&
    rulesMake(series.recurrence.rules, { start: first, end: first, allDay, zone }, start)
  );
}

/** `RECURRENCE-ID` of a changed occurrence that started at local `start` in `series`. */
export function recurrenceIdLine(series: IcsSeries, start: string, tzid: string): string {
  if (series.allDay) return `RECURRENCE-ID;VALUE=DATE:${compactDate(start)}\r\n`;
  return tzid
    ? `RECURRENCE-ID${tzid}:${compactDateTime(start)}\r\n`
    : `RECURRENCE-ID:${compactDateTime(start)}Z\r\n`;
}

const compactDate = (sql: string) => sql.slice(0, 10).replaceAll('-', '');
const compactDateTime = (sql: string) =>
  `${compactDate(sql)}T${sql.slice(11, 19).replaceAll(':', '')}`;

/**
 * The latest wall clock at the time of day of `start` (every rule's occurrences have it: rules
 * have no BYHOUR) that is not after the local UNTIL `until`. The service compares a local UNTIL
 * with wall clocks, a calendar application a UTC one with instants: the instant of this wall
 * clock keeps exactly the same occurrences, even where a DST gap moves the last one forward.
 */
function lastStartBy(until: string, start: string): string {
  const time = start.slice(11, 19) || '00:00:00';
  const sameDay = `${until.slice(0, 10)} ${time}`;
  if (sameDay <= until) return sameDay;
  const before = new Date(Date.parse(`${until.slice(0, 10)}T00:00:00Z`) - 86_400_000);
  return `${before.toISOString().slice(0, 10)} ${time}`;
}

/**
 * The RRULE of a stored rule as RFC 5545 §3.3.10 wants it beside the DTSTART the VEVENT has:
 * UNTIL a DATE for an all-day series, else a UTC time (the stored UNTIL is local to the event's
 * zone unless it ends with Z; a date alone ends at the end of that day, as the expansion reads it).
 */
function icsRule(text: string, series: IcsSeries): string {
  const rule = parseRule(text);
  if (isRecurrenceProblem(rule) || !rule.until) return text;
  let until: string;
  if (series.allDay) {
    const local = rule.untilUtc ? utcToLocal(rule.until, series.zone) : rule.until;
    until = compactDate(local);
  } else {
    const wall = rule.until.length === 10 ? `${rule.until} 23:59:59` : rule.until;
    until = `${compactDateTime(rule.untilUtc ? wall : localToUtc(lastStartBy(wall, series.start), series.zone))}Z`;
  }
  return text.replace(/UNTIL=[^;]*/, `UNTIL=${until}`);
}

/**
 * The recurrence lines of a series' VEVENT (unfolded, CRLF ends): one RRULE per rule, EXDATE
 * and RDATE in the value type and zone of DTSTART (DATE for an all-day series, TZID's local
 * times, or UTC). A stored exclusion date (`2027-01-05`, every occurrence of that day) is the
 * rules' occurrence of that day, which starts at the series' time (rules have no BYHOUR), and
 * an added date of an excluded day or time is left out, as the expansion leaves it out.
 * `tzid` is the `;TZID=…` of DTSTART, or '' for UTC.
 */
export function recurrenceLines(series: IcsSeries, tzid: string): string {
  const { recurrence } = series;
  const time = series.start.slice(11, 19) || '00:00:00';
  const excludedDays = new Set(recurrence.exdates.filter((d) => d.length === 10));
  const excludedStarts = new Set(recurrence.exdates.filter((d) => d.length > 10));
  const value = (date: string) => {
    if (series.allDay) return compactDate(date);
    const wall = date.length === 10 ? `${date} ${time}` : date;
    return tzid ? compactDateTime(wall) : `${compactDateTime(wall)}Z`;
  };
  const param = series.allDay ? ';VALUE=DATE' : tzid;
  let out = '';
  for (const rule of recurrence.rules) out += `RRULE:${icsRule(rule, series)}\r\n`;
  const changed = series.changed ?? new Set<string>();
  const exdates = recurrence.exdates.filter(
    // An excluded time of an all-day series names an occurrence only at midnight.
    (d) =>
      (!series.allDay || d.length === 10 || d.endsWith(' 00:00:00')) &&
      !changed.has(d) &&
      !changed.has(`${d} 00:00:00`),
  );
  if (exdates.length) {
    out += `EXDATE${param}:${[...new Set(exdates.map(value))].join(',')}\r\n`;
  }
  const rdates = recurrence.rdates.filter((d) => {
    const start = series.allDay
      ? `${d.slice(0, 10)} 00:00:00`
      : d.length === 10
        ? `${d} ${time}`
        : d;
    return !excludedDays.has(start.slice(0, 10)) && !excludedStarts.has(start);
  });
  if (rdates.length) out += `RDATE${param}:${[...new Set(rdates.map(value))].join(',')}\r\n`;
  return out;
}
