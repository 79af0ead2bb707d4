import { DateTime } from 'luxon';
import type { Language } from '../../config/config.js';
import { BoundedMemo } from '../../common/bounded-memo.js';
import { utcFormatter } from '../../common/dates/utc-formatters.js';

/** The views of the calendar (CONTRACT §7), at the plugin's addresses under `/events/`. */
export const CALENDAR_VIEWS = ['month', 'week', 'day', 'list'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

/** A view and the day it is about (`YYYY-MM-DD`; a month's first day for a month). */
export interface ViewAddress {
  view: CalendarView;
  /** undefined: the site's today (or, for the list, `?tribe-bar-date=`). */
  day?: string;
}

/** The days a view shows, its period's bounds and where its neighbours start. */
export interface Period {
  view: CalendarView;
  /** The day the view is about (the first of the month, the week's first day, the day). */
  day: string;
  /** The first and last day of the grid (a month's grid runs from a week's first day). */
  first: string;
  last: string;
  previous: string;
  next: string;
}

const LOCALES: Record<Language, string> = { en: 'en-GB', hu: 'hu-HU', ro: 'ro-RO' };

/** The first day of the week per language, as Luxon numbers weekdays (1 Monday … 7 Sunday). */
const WEEK_STARTS: Record<Language, number> = { en: 7, hu: 1, ro: 1 };

/** The years a view may be about: beyond, an address names no period. */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2199;

const DAY = /^(\d{4})-(\d\d)-(\d\d)$/;
const MONTH = /^(\d{4})-(\d\d)$/;

/** A `YYYY-MM-DD` that is a real day within the years views cover, else undefined. */
export function dayParam(value: unknown): string | undefined {
  if (typeof value !== 'string' || !DAY.test(value)) return undefined;
  const date = DateTime.fromISO(value, { zone: 'utc' });
  if (!date.isValid || date.year < FIRST_YEAR || date.year > LAST_YEAR) return undefined;
  return date.toISODate();
}

/**
 * The view a path under `/events/` names (its segments after `events`, after a category's or
 * tag's), or undefined when it names none: `[]` the default view, `month`, `month/YYYY-MM`,
 * `week`, `week/YYYY-MM-DD`, `today`, `YYYY-MM-DD` (a day), `list`.
 */
export function parseViewPath(
  segments: readonly string[],
  defaultView: CalendarView,
): ViewAddress | undefined {
  const [first, second, ...rest] = segments;
  if (rest.length) return undefined;
  if (first === undefined) return { view: defaultView };
  if (first === 'month') {
    if (second === undefined) return { view: 'month' };
    return MONTH.test(second) ? withDay('month', dayParam(`${second}-01`)) : undefined;
  }
  if (first === 'week') {
    if (second === undefined) return { view: 'week' };
    return withDay('week', dayParam(second));
  }
  if (second !== undefined) return undefined;
  if (first === 'today') return { view: 'day' };
  if (first === 'list') return { view: 'list' };
  return withDay('day', dayParam(first));
}

const withDay = (view: CalendarView, day: string | undefined): ViewAddress | undefined =>
  day === undefined ? undefined : { view, day };

/**
 * How many segments at the end of a path name a view (0 when none do): `month/2030-03` is two,
 * `week` one. A category's path ends where its view starts.
 */
export function viewTailLength(segments: readonly string[], defaultView: CalendarView): number {
  for (const length of [2, 1]) {
    if (segments.length < length) continue;
    const tail = segments.slice(segments.length - length);
    if (parseViewPath(tail, defaultView)) return length;
  }
  return 0;
}

/** The site's today in its time zone. */
export function todayIn(zone: string, now = new Date()): string {
  return DateTime.fromJSDate(now).setZone(zone).toISODate()!;
}

/** The first day of the week holding `day`, for readers of `language`. */
function weekStart(day: DateTime, language: Language): DateTime {
  const start = WEEK_STARTS[language];
  const back = (day.weekday - start + 7) % 7;
  return day.minus({ days: back });
}

/** The period a view shows around `day`. */
export function periodOf(view: CalendarView, day: string, language: Language): Period {
  const d = DateTime.fromISO(day, { zone: 'utc' });
  const iso = (dt: DateTime) => dt.toISODate()!;
  if (view === 'month') {
    const month = d.startOf('month');
    const first = weekStart(month, language);
    const lastOfMonth = month.endOf('month').startOf('day');
    const last = weekStart(lastOfMonth, language).plus({ days: 6 });
    return {
      view,
      day: iso(month),
      first: iso(first),
      last: iso(last),
      previous: iso(month.minus({ months: 1 })),
      next: iso(month.plus({ months: 1 })),
    };
  }
  if (view === 'week') {
    const first = weekStart(d, language);
    return {
      view,
      day: iso(first),
      first: iso(first),
      last: iso(first.plus({ days: 6 })),
      previous: iso(first.minus({ weeks: 1 })),
      next: iso(first.plus({ weeks: 1 })),
    };
  }
  // A day, and the list's first day (its end is open; its neighbours a month either side).
  const step = view === 'list' ? { months: 1 } : { days: 1 };
  return {
    view,
    day: iso(d),
    first: iso(d),
    last: iso(d),
    previous: iso(d.minus(step)),
    next: iso(d.plus(step)),
  };
}

/**
 * The views ask again and again for the same few days, bounds and names: each is made once and
 * kept for the process, at most MEMO_SIZE per kind.
 */
const MEMO_SIZE = 5_000;

/** The day `days` after (or before) `day`, by calendar arithmetic on UTC dates. */
function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const spans = new BoundedMemo<readonly string[]>(MEMO_SIZE);

/** Every day from `first` to `last` (at most a few weeks: the views' periods). */
export function daysBetween(first: string, last: string): readonly string[] {
  return spans.get(`${first} ${last}`, () => {
    const out: string[] = [];
    for (let i = 0, d = first; i < 62 && d <= last; i++, d = addDays(d, 1)) out.push(d);
    return Object.freeze(out);
  });
}

/** The day after `day`. */
export const nextDay = (day: string) => addDays(day, 1);

/**
 * The UTC instant whose wall clock in `zone` is `day` 00:00:00 (less `secondsBefore`), as the
 * list's strict date filters read a value (UTC, shown in the site's zone): so that the bound the
 * list compares with each event's local dates is that wall clock.
 */
export function strictBound(day: string, zone: string, secondsBefore = 0): string {
  return bounds.get(`${day} ${zone} ${secondsBefore}`, () =>
    DateTime.fromISO(`${day}T00:00:00`, { zone })
      .minus({ seconds: secondsBefore })
      .toUTC()
      .toFormat('yyyy-MM-dd HH:mm:ss'),
  );
}
const bounds = new BoundedMemo<string>(MEMO_SIZE);

type Format = Intl.DateTimeFormatOptions;
const MONTH_YEAR: Format = { month: 'long', year: 'numeric' };
const LONG_DAY: Format = { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' };
const MEDIUM_DAY: Format = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Format = { hour: 'numeric', minute: 'numeric' };
const WEEKDAY_SHORT: Format = { weekday: 'short' };
const WEEKDAY_LONG: Format = { weekday: 'long' };

/** The times of day a language shows (`19:00`), by `HH:MM`: a calendar has few distinct ones. */
const times = new BoundedMemo<string>(MEMO_SIZE);

/** A `YYYY-MM-DD` (and `HH:MM`) as a Date at that UTC wall clock. */
function utcDate(day: string, time = '00:00'): Date {
  const [y, m, d] = day.split('-').map(Number);
  const [h, min] = time.split(':').map(Number);
  return new Date(Date.UTC(y, m - 1, d, h, min));
}

/** Names and formats of the reader's language (Intl's, as Luxon's presets write them). */
export class CalendarLocale {
  readonly locale: string;
  constructor(readonly language: Language) {
    this.locale = LOCALES[language];
  }

  private format(day: string, format: Format): string {
    return utcFormatter(this.locale, format).format(utcDate(day));
  }

  /** A language's long names of days (`Sunday, 30 March 2030`): each grid asks for its days'. */
  private static readonly longDays = new BoundedMemo<string>(MEMO_SIZE);
  private static readonly weekdayNames = new BoundedMemo<Array<{ short: string; long: string }>>(
    MEMO_SIZE,
  );

  /** `March 2030`, `2030. március`, `martie 2030`. */
  month(day: string): string {
    return this.format(day, MONTH_YEAR);
  }

  /** `Sunday, 30 March 2030` as the language writes it. */
  longDay(day: string): string {
    return CalendarLocale.longDays.get(`${this.locale} ${day}`, () => this.format(day, LONG_DAY));
  }

  /** `30 Mar 2030 – 5 Apr 2030`. */
  range(first: string, last: string): string {
    return `${this.format(first, MEDIUM_DAY)} – ${this.format(last, MEDIUM_DAY)}`;
  }

  /** The weekday names from the week's first day: short and long. */
  weekdays(): ReadonlyArray<{ short: string; long: string }> {
    return CalendarLocale.weekdayNames.get(this.language, () => {
      const start = weekStart(DateTime.fromISO('2030-01-09', { zone: 'utc' }), this.language);
      return Array.from({ length: 7 }, (_, i) => {
        const day = start.plus({ days: i }).toISODate()!;
        return { short: this.format(day, WEEKDAY_SHORT), long: this.format(day, WEEKDAY_LONG) };
      });
    });
  }

  /** The day of the month (`30`). */
  dayOfMonth(day: string): string {
    return String(Number(day.slice(8, 10)));
  }

  /** A local `YYYY-MM-DD HH:MM:SS` as the language shows a time (`19:00`). */
  time(local: string): string {
    const clock = local.slice(11, 16);
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(clock)) return '';
    const key = `${this.locale} ${clock}`;
    return times.get(key, () =>
      utcFormatter(this.locale, TIME).format(utcDate('2030-01-01', clock)),
    );
  }
}
