/** The frequencies, weekdays and ends the console's rule builder offers (CONTRACT §9). */
export const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
type Frequency = (typeof FREQUENCIES)[number];
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Ending = 'never' | 'count' | 'until';

/** One RRULE as the builder edits it; parts it has no control for are kept as written. */
export interface RuleParts {
  freq: Frequency;
  interval: number;
  /** Weekly: the days; monthly by weekday: one day with its position (`2TU`, `-1FR`). */
  byDay: string[];
  ending: Ending;
  count: number;
  /** `YYYY-MM-DD`, the last local day. */
  until: string;
  /** Other parts (BYMONTHDAY, BYMONTH, BYSETPOS, WKST), kept as written. */
  rest: string[];
}

const KNOWN = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'COUNT', 'UNTIL']);

/** A rule read into the builder's parts (unknown frequencies read as weekly). */
export function parseRule(text: string): RuleParts {
  const parts = new Map<string, string>();
  const rest: string[] = [];
  for (const part of text.split(';').filter(Boolean)) {
    const [name, value = ''] = part.split('=');
    const key = name.trim().toUpperCase();
    if (KNOWN.has(key)) parts.set(key, value.trim().toUpperCase());
    else rest.push(part.trim());
  }
  const freq = parts.get('FREQ') as Frequency | undefined;
  const until = parts.get('UNTIL') ?? '';
  return {
    freq: freq && FREQUENCIES.includes(freq) ? freq : 'WEEKLY',
    interval: Math.max(1, Number(parts.get('INTERVAL') ?? 1) || 1),
    byDay: (parts.get('BYDAY') ?? '').split(',').filter(Boolean),
    ending: parts.has('COUNT') ? 'count' : until ? 'until' : 'never',
    count: Math.max(1, Number(parts.get('COUNT') ?? 10) || 10),
    until: /^\d{8}/.test(until)
      ? `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`
      : '',
    rest,
  };
}

/** The RRULE text of the builder's parts (the server normalizes the order of its parts). */
export function formatRule(rule: RuleParts): string {
  const out = [`FREQ=${rule.freq}`];
  if (rule.interval > 1) out.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length && (rule.freq === 'WEEKLY' || rule.freq === 'MONTHLY')) {
    out.push(`BYDAY=${rule.byDay.join(',')}`);
  }
  if (rule.ending === 'count') out.push(`COUNT=${rule.count}`);
  if (rule.ending === 'until' && rule.until) out.push(`UNTIL=${rule.until.replaceAll('-', '')}`);
  return [...out, ...rule.rest].join(';');
}

/** The weekday code (`MO`…`SU`) of a `YYYY-MM-DD…` local date. */
function weekdayOf(date: string): string {
  const day = new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)));
  return WEEKDAYS[(day.getUTCDay() + 6) % 7];
}

/** "The second Tuesday" of a date's month as BYDAY (`2TU`); the fifth is "the last" (`-1TU`). */
export function nthWeekdayOf(date: string): string {
  const n = Math.ceil(+date.slice(8, 10) / 7);
  return `${n > 4 ? -1 : n}${weekdayOf(date)}`;
}

/** A new rule for an event starting on `date`: weekly on its weekday, ending after 10. */
export const defaultRule = (date: string): RuleParts => ({
  freq: 'WEEKLY',
  interval: 1,
  byDay: [weekdayOf(date)],
  ending: 'count',
  count: 10,
  until: '',
  rest: [],
});
