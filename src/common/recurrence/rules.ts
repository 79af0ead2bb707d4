import type { Text } from '../errors/api-error.js';

/**
 * The bounds of a recurrence (CONTRACT §9 "Limits"): every series is finite in
 * what it stores and in the work it takes to expand, and a request over a bound is a 400 naming it.
 */
export const RECURRENCE_LIMITS = {
  /** Rules of one series. */
  rules: 10,
  /** Characters of one rule. */
  ruleLength: 500,
  /** Exclusion dates, and added dates, of one series (each). */
  dates: 1000,
  /** Occurrences of one series, every one it stores (an unbounded one from its start to its horizon). */
  occurrences: 1000,
  /** How far ahead an unbounded series is materialized, from now (or its start, if later). */
  horizonDays: 730,
  /** Recurrence periods (days, weeks, months, years) stepped through by one expansion. */
  steps: 20_000,
  /** CPU time of one expansion, in milliseconds. */
  ms: 2000,
  /** INTERVAL at most. */
  interval: 1000,
} as const;

type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
type Weekday = (typeof WEEKDAYS)[number];

/** One RRULE, read. `until` is a local wall clock of the event's zone unless `untilUtc`. */
export interface Rule {
  freq: Frequency;
  interval: number;
  count?: number;
  /** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. */
  until?: string;
  untilUtc?: boolean;
  byDay?: Array<{ ordinal: number; day: Weekday }>;
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  wkst?: Weekday;
}

/** A series as it is stored and shown: the rules in their normal form, local dates. */
export interface Recurrence {
  rules: string[];
  exdates: string[];
  rdates: string[];
}

export type RecurrenceProblem = Text;

const reason = (key: string, args?: Record<string, string | number>): Text => ({
  key: `recurrence.${key}`,
  args,
});

const PART = /^([A-Z]+)=([A-Z0-9,+-]+)$/;
const DAY = /^([+-]?)(\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;
const UNTIL = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Is `y-m-d h:i:s` a real calendar moment in years 1-9999? */
function realDate(y: number, m: number, d: number, h = 0, i = 0, s = 0): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || h > 23 || i > 59 || s > 59) return false;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate();
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 ? (leap ? 29 : 28) : days);
}

const pad = (n: number | string, w = 2) => String(n).padStart(w, '0');

function integers(
  name: string,
  raw: string,
  check: (n: number) => boolean,
): number[] | RecurrenceProblem {
  const parts = raw.split(',');
  if (parts.length > 366) return reason('part_invalid', { part: name, value: raw.slice(0, 40) });
  const out: number[] = [];
  for (const part of parts) {
    if (!/^[+-]?\d{1,3}$/.test(part) || !check(Number(part))) {
      return reason('part_invalid', { part: name, value: part });
    }
    out.push(Number(part));
  }
  return out;
}

const isProblem = (v: unknown): v is RecurrenceProblem =>
  typeof v === 'object' && v !== null && 'key' in v;

/**
 * Reads one RRULE (RFC 5545 §3.3.10) of the parts this service supports: FREQ (DAILY, WEEKLY,
 * MONTHLY, YEARLY), INTERVAL, COUNT or UNTIL, BYDAY (ordinals in monthly and yearly rules),
 * BYMONTHDAY, BYMONTH, BYSETPOS and WKST. Anything else is a problem naming the part.
 */
export function parseRule(text: string): Rule | RecurrenceProblem {
  if (text.length > RECURRENCE_LIMITS.ruleLength) {
    return reason('rule_too_long', { max: RECURRENCE_LIMITS.ruleLength });
  }
  const body = text.trim().replace(/^RRULE:/i, '');
  if (!body) return reason('rule_empty');
  const parts = new Map<string, string>();
  for (const raw of body.split(';')) {
    const match = PART.exec(raw.trim().toUpperCase());
    if (!match) return reason('part_malformed', { part: raw.trim().slice(0, 40) });
    const [, name, value] = match;
    if (parts.has(name)) return reason('part_repeated', { part: name });
    parts.set(name, value);
  }
  const supported = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH'];
  for (const name of parts.keys()) {
    if (![...supported, 'BYSETPOS', 'WKST'].includes(name)) {
      return reason('part_unsupported', { part: name });
    }
  }
  const freq = parts.get('FREQ');
  if (!freq) return reason('freq_missing');
  if (!['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(freq)) {
    return reason('freq_unsupported', { value: freq });
  }
  const rule: Rule = { freq: freq as Frequency, interval: 1 };
  const problem =
    readInterval(rule, parts) ??
    readEnd(rule, parts) ??
    readByDay(rule, parts) ??
    readByLists(rule, parts) ??
    readWeekStart(rule, parts);
  return problem ?? rule;
}

/** INTERVAL: how many periods between occurrences. */
function readInterval(rule: Rule, parts: Map<string, string>): RecurrenceProblem | undefined {
  const interval = parts.get('INTERVAL');
  if (interval !== undefined) {
    if (!/^\d{1,4}$/.test(interval) || +interval < 1 || +interval > RECURRENCE_LIMITS.interval) {
      return reason('interval', { max: RECURRENCE_LIMITS.interval });
    }
    rule.interval = Number(interval);
  }
  return undefined;
}

/** COUNT or UNTIL: how the rule ends (at most one of them). */
function readEnd(rule: Rule, parts: Map<string, string>): RecurrenceProblem | undefined {
  const count = parts.get('COUNT');
  const until = parts.get('UNTIL');
  if (count !== undefined && until !== undefined) return reason('count_and_until');
  if (count !== undefined) {
    if (!/^\d{1,6}$/.test(count) || +count < 1) return reason('count_invalid');
    if (+count > RECURRENCE_LIMITS.occurrences) {
      return reason('too_many_occurrences', { max: RECURRENCE_LIMITS.occurrences });
    }
    rule.count = Number(count);
  }
  if (until !== undefined) {
    const m = UNTIL.exec(until);
    if (!m || !realDate(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0))) {
      return reason('until_invalid', { value: until.slice(0, 40) });
    }
    rule.until = `${m[1]}-${m[2]}-${m[3]}` + (m[4] ? ` ${m[4]}:${m[5]}:${m[6]}` : '');
    if (m[7]) rule.untilUtc = true;
  }
  return undefined;
}

/** BYDAY: weekdays, with ordinals in monthly and yearly rules. */
function readByDay(rule: Rule, parts: Map<string, string>): RecurrenceProblem | undefined {
  const ordinalMax = rule.freq === 'MONTHLY' ? 5 : rule.freq === 'YEARLY' ? 53 : 0;
  const byDay = parts.get('BYDAY');
  if (byDay !== undefined) {
    rule.byDay = [];
    for (const item of byDay.split(',')) {
      const m = DAY.exec(item);
      if (!m) return reason('part_invalid', { part: 'BYDAY', value: item.slice(0, 40) });
      const ordinal = m[2] ? (m[1] === '-' ? -1 : 1) * Number(m[2]) : 0;
      if (m[1] && !m[2]) return reason('part_invalid', { part: 'BYDAY', value: item });
      if (m[2] && (ordinal === 0 || Math.abs(ordinal) > ordinalMax)) {
        return ordinalMax
          ? reason('byday_ordinal', { value: item, max: ordinalMax })
          : reason('byday_ordinal_freq', { value: item, freq: rule.freq });
      }
      if (rule.byDay.length >= 53 * 7)
        return reason('part_invalid', { part: 'BYDAY', value: item });
      rule.byDay.push({ ordinal, day: m[3] as Weekday });
    }
    // A BYMONTH yearly rule takes ordinals within the month, as RFC 5545 says.
    if (rule.freq === 'YEARLY' && parts.has('BYMONTH')) {
      const bad = rule.byDay.find((d) => Math.abs(d.ordinal) > 5);
      if (bad) return reason('byday_ordinal', { value: `${bad.ordinal}${bad.day}`, max: 5 });
    }
  }
  return undefined;
}

/** BYMONTHDAY, BYMONTH and BYSETPOS: lists of integers in their ranges. */
function readByLists(rule: Rule, parts: Map<string, string>): RecurrenceProblem | undefined {
  const byMonthDay = parts.get('BYMONTHDAY');
  if (byMonthDay !== undefined) {
    if (rule.freq === 'WEEKLY') return reason('part_freq', { part: 'BYMONTHDAY', freq: 'WEEKLY' });
    const days = integers('BYMONTHDAY', byMonthDay, (n) => n !== 0 && Math.abs(n) <= 31);
    if (isProblem(days)) return days;
    rule.byMonthDay = days;
  }
  const byMonth = parts.get('BYMONTH');
  if (byMonth !== undefined) {
    const months = integers('BYMONTH', byMonth, (n) => n >= 1 && n <= 12);
    if (isProblem(months)) return months;
    rule.byMonth = months;
  }
  const bySetPos = parts.get('BYSETPOS');
  if (bySetPos !== undefined) {
    if (!rule.byDay && !rule.byMonthDay && !rule.byMonth) return reason('bysetpos_alone');
    const positions = integers('BYSETPOS', bySetPos, (n) => n !== 0 && Math.abs(n) <= 366);
    if (isProblem(positions)) return positions;
    rule.bySetPos = positions;
  }
  return undefined;
}

/** WKST: the first day of the week. */
function readWeekStart(rule: Rule, parts: Map<string, string>): RecurrenceProblem | undefined {
  const wkst = parts.get('WKST');
  if (wkst !== undefined) {
    if (!(WEEKDAYS as readonly string[]).includes(wkst)) {
      return reason('part_invalid', { part: 'WKST', value: wkst });
    }
    rule.wkst = wkst as Weekday;
  }
  return undefined;
}

/** The normal form of a rule: upper case, parts in a fixed order, as stored and shown. */
function formatRule(rule: Rule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) {
    const [date, time] = rule.until.split(' ');
    parts.push(
      `UNTIL=${date.replaceAll('-', '')}${time ? `T${time.replaceAll(':', '')}${rule.untilUtc ? 'Z' : ''}` : ''}`,
    );
  }
  if (rule.byDay)
    parts.push(`BYDAY=${rule.byDay.map((d) => `${d.ordinal || ''}${d.day}`).join(',')}`);
  if (rule.byMonthDay) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.byMonth) parts.push(`BYMONTH=${rule.byMonth.join(',')}`);
  if (rule.bySetPos) parts.push(`BYSETPOS=${rule.bySetPos.join(',')}`);
  if (rule.wkst) parts.push(`WKST=${rule.wkst}`);
  return parts.join(';');
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` of a local date given as text, or null. */
function localDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 25) return null;
  const m = LOCAL_DATE.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, i, s] = [m[1], m[2], m[3], m[4], m[5], m[6]];
  if (!realDate(+y, +mo, +d, +(h ?? 0), +(i ?? 0), +(s ?? 0))) return null;
  return `${y}-${mo}-${d}` + (h !== undefined ? ` ${h}:${i}:${pad(s ?? 0)}` : '');
}

/**
 * Reads the `recurrence` of a write: `{rules, exdates, rdates}` (each optional, rules at least one
 * when exdates or rdates are given... and at least one rule or date) into its stored form, or
 * the problem with it. `null` (or `{rules: []}` with no dates) means "no recurrence".
 */
export function parseRecurrence(input: unknown): Recurrence | null | RecurrenceProblem {
  if (input === null || input === '') return null;
  if (typeof input !== 'object' || Array.isArray(input)) return reason('not_object');
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!['rules', 'exdates', 'rdates'].includes(key)) return reason('unknown_key', { key });
  }
  const list = (key: string): unknown[] | RecurrenceProblem => {
    const value = raw[key] ?? [];
    const items = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(items)) return reason('not_list', { key });
    const max = key === 'rules' ? RECURRENCE_LIMITS.rules : RECURRENCE_LIMITS.dates;
    if (items.length > max) return reason('too_many_items', { key, max });
    return items;
  };
  const rules = list('rules');
  if (isProblem(rules)) return rules;
  const out: Recurrence = { rules: [], exdates: [], rdates: [] };
  for (const item of rules) {
    if (typeof item !== 'string') return reason('not_list', { key: 'rules' });
    const rule = parseRule(item);
    if (isProblem(rule)) return rule;
    out.rules.push(formatRule(rule));
  }
  for (const key of ['exdates', 'rdates'] as const) {
    const items = list(key);
    if (isProblem(items)) return items;
    for (const item of items) {
      const date = localDate(item);
      if (!date) return reason('date_invalid', { key, value: String(item).slice(0, 40) });
      out[key].push(date);
    }
    out[key] = [...new Set(out[key])].sort();
  }
  if (!out.rules.length && !out.rdates.length) {
    return out.exdates.length ? reason('exdates_alone') : null;
  }
  return out;
}

export { isProblem as isRecurrenceProblem };
