import { DateTime, IANAZone, type Zone } from 'luxon';
import locutusStrtotime from 'locutus/php/datetime/strtotime.js';
import { BoundedMemo } from '../bounded-memo.js';
import { toLuxonZone, wallClockToDateTime } from './zones.js';

/**
 * PHP `strtotime($input, $now)` under `date_default_timezone_set($zone)` — the way the plugin reads
 * every date parameter — on top of the locutus port.
 *
 * locutus does its arithmetic with the process-local `Date` methods. So that the result never
 * depends on the server's TZ, parsing happens in "wall-clock space": a local wall clock is encoded
 * as the UTC instant with the same digits, locutus runs with a `Date` whose local methods are the
 * UTC ones, and only the final wall clock is placed in the requested zone (PHP resolves DST there).
 */

const DAY_MS = 86_400_000;

/** A parse result in wall-clock space: `ms` is a wall clock written as UTC, unless `absolute`. */
interface Parsed {
  ms: number;
  /** The text fixed the instant itself (offset, zone abbreviation, `@timestamp`). */
  absolute: boolean;
}

const WEEKDAY =
  'sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tue|wed|thu|fri|sat';
const ORDINAL =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|eight|ninth|tenth|eleventh|twelfth';
const ORDINAL_AMOUNTS: Readonly<Record<string, number>> = {
  first: 1,
  next: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eight: 8,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  last: -1,
  previous: -1,
};

/** `third friday of next month`, `last monday of january 2027` (locutus leaves this unimplemented). */
const WEEKDAY_OF_MONTH = new RegExp(
  `^(.*?)\\b(${ORDINAL}|next|last|previous)\\s+(${WEEKDAY})\\s+of\\b(.*)$`,
  'i',
);
/**
 * `saturday this week`, `next week friday`: the weekday before or after the week phrase. Written
 * without look-behind and look-ahead: a look-behind over `\s+` is re-run at every position of a
 * run of spaces, which made `next week` + 20,000 spaces take seconds (outside security probe).
 */
const WEEK_RELATIVE = 'this|next|last|previous';
const WEEKDAY_IN_WEEK = new RegExp(
  `\\b(?:(${WEEKDAY})\\s+(${WEEK_RELATIVE})\\s+week|(${WEEK_RELATIVE})\\s+week\\s+(${WEEKDAY}))\\b`,
  'i',
);
/** `next friday`, `second monday` — PHP's "strictly after today" weekday phrases. */
const FUTURE_WEEKDAY = new RegExp(`\\b(?:next|${ORDINAL})\\s+(?:${WEEKDAY})\\b`, 'i');
/**
 * `Europe/Budapest`, `America/Argentina/Buenos_Aires`: the shape of an IANA identifier, matched
 * against the last word of the text only (see {@link splitTrailingZone}).
 */
const ZONE_NAME = /^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/;
const WHITESPACE = /\s/;
/** Database format and ISO 8601, read directly instead of through locutus. */
const SQL_OR_ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const TIMESTAMP = /^[+-]?\d+$/;

/**
 * Every pattern the parser runs on request text, exported so that a test can run each on long,
 * repetitive input (the parser bounds its input, the patterns must not need it).
 */
export const DATE_TEXT_PATTERNS: Readonly<Record<string, RegExp>> = {
  WEEKDAY_OF_MONTH,
  WEEKDAY_IN_WEEK,
  FUTURE_WEEKDAY,
  ZONE_NAME,
  WHITESPACE,
  SQL_OR_ISO,
  TIMESTAMP,
};

/** Weekday number as `Date#getUTCDay` counts (Sunday 0). */
function weekdayNumber(name: string): number {
  return ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].indexOf(name.slice(0, 3).toLowerCase());
}

/** A wall clock as wall-clock-space milliseconds; components may overflow (PHP does). */
function wallMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0) {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0–99 into 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function fromParsed(parsed: Parsed | null, zone: Zone): DateTime | null {
  if (!parsed) return null;
  if (!parsed.absolute) return wallClockToDateTime(parsed.ms, zone);
  const result = DateTime.fromMillis(parsed.ms, { zone });
  return result.isValid ? result : null;
}

function fromTimestamp(seconds: number, zone: Zone): DateTime | null {
  if (!Number.isFinite(seconds)) return null;
  const result = DateTime.fromSeconds(Math.trunc(seconds), { zone });
  return result.isValid ? result : null;
}

// --- locutus in wall-clock space -------------------------------------------------------------

const NativeDate = Date;

/** Set when locutus reads the zone offset, which it does only when the text named a zone. */
let zoneNamed = false;

/** A `Date` whose local-time methods are the UTC ones, so locutus computes in wall-clock space. */
class WallClockDate extends NativeDate {
  constructor(...args: unknown[]) {
    if (args.length > 1) {
      const [year, month, day = 1, hour = 0, minute = 0, second = 0] = args as number[];
      super(wallMs(year, month + 1, day, hour, minute, second));
    } else if (args.length === 1) {
      super(args[0] as number);
    } else {
      super();
    }
  }

  override getFullYear(): number {
    return this.getUTCFullYear();
  }
  override getMonth(): number {
    return this.getUTCMonth();
  }
  override getDate(): number {
    return this.getUTCDate();
  }
  override getDay(): number {
    return this.getUTCDay();
  }
  override getHours(): number {
    return this.getUTCHours();
  }
  override getMinutes(): number {
    return this.getUTCMinutes();
  }
  override getSeconds(): number {
    return this.getUTCSeconds();
  }
  override getMilliseconds(): number {
    return this.getUTCMilliseconds();
  }
  override setFullYear(...args: [year: number, month?: number, date?: number]): number {
    return this.setUTCFullYear(...args);
  }
  override setMonth(...args: [month: number, date?: number]): number {
    return this.setUTCMonth(...args);
  }
  override setDate(date: number): number {
    return this.setUTCDate(date);
  }
  override setHours(...args: [hours: number, min?: number, sec?: number, ms?: number]): number {
    return this.setUTCHours(...args);
  }
  override setMinutes(...args: [min: number, sec?: number, ms?: number]): number {
    return this.setUTCMinutes(...args);
  }
  override setSeconds(...args: [sec: number, ms?: number]): number {
    return this.setUTCSeconds(...args);
  }
  override setMilliseconds(ms: number): number {
    return this.setUTCMilliseconds(ms);
  }
  /**
   * locutus calls this only to apply an offset found in the text (`+02:00`, `EST`, `@123`); the
   * wall clock is then turned into a real UTC instant, which the caller must not re-zone.
   */
  override getTimezoneOffset(): number {
    zoneNamed = true;
    return 0;
  }
}

/**
 * Runs locutus with `Date` swapped for {@link WallClockDate}. The swap is global but lasts only for
 * this synchronous call, so no other code can observe it.
 */
function runLocutus(text: string, nowMs: number): Parsed | null {
  const scope = globalThis as { Date: DateConstructor };
  const original = scope.Date;
  zoneNamed = false;
  scope.Date = WallClockDate as unknown as DateConstructor;
  let seconds: number | false;
  try {
    seconds = locutusStrtotime(text, Math.floor(nowMs / 1000));
  } catch {
    return null;
  } finally {
    scope.Date = original;
  }
  if (seconds === false || !Number.isFinite(seconds)) return null;
  return { ms: seconds * 1000, absolute: zoneNamed };
}

// --- fixes for phrases locutus gets wrong ------------------------------------------------------

/**
 * `<ordinal> <weekday> of <month expression>`. As in timelib, the month expression is taken at its
 * first day (so `next month` on Jan 31 is February, not March), the time resets to midnight unless
 * the text sets one after the phrase, and `last` means the last such weekday of the month.
 */
function parseWeekdayOfMonth(match: RegExpExecArray, nowMs: number): Parsed | null {
  const [, prefix, ordinal, weekday, suffix] = match;
  const amount = ORDINAL_AMOUNTS[ordinal.toLowerCase()];
  const target = weekdayNumber(weekday);
  const month = runLocutus(`${prefix} first day of midnight ${suffix}`, nowMs);
  if (!month) return null;

  const firstDay = new Date(month.ms);
  if (amount > 0) {
    const ahead = (target - firstDay.getUTCDay() + 7) % 7;
    return { ...month, ms: month.ms + (ahead + (amount - 1) * 7) * DAY_MS };
  }
  // timelib starts from the 1st of the following month and walks back to the weekday before it.
  const nextMonth = new Date(month.ms);
  nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
  const back = (nextMonth.getUTCDay() - target + 7) % 7 || 7;
  return { ...month, ms: nextMonth.getTime() - back * DAY_MS };
}

/**
 * `<weekday> this|next|last week`: PHP picks the weekday inside the Monday-based week. locutus
 * only gets Monday right when today is a Sunday, so ask it for Monday and add the days.
 */
function parseWeekdayInWeek(text: string, match: RegExpExecArray, nowMs: number): Parsed | null {
  const [phrase, weekdayBefore, relativeAfter, relativeBefore, weekdayAfter] = match;
  const weekday = weekdayNumber(weekdayBefore ?? weekdayAfter);
  const mondayPhrase = weekdayBefore
    ? `monday ${relativeAfter} week`
    : `${relativeBefore} week monday`;
  const mondayText =
    text.slice(0, match.index) + mondayPhrase + text.slice(match.index + phrase.length);
  const monday = runLocutus(mondayText, nowMs);
  if (!monday) return null;
  const daysAfterMonday = (weekday + 6) % 7;
  return { ...monday, ms: monday.ms + daysAfterMonday * DAY_MS };
}

/**
 * `next <weekday>` / `second <weekday>`: PHP never counts today (on a Wednesday, `next wednesday`
 * is a week ahead), locutus does. Compare with the same text minus the weekday phrase: when the
 * weekday moved the date by a whole number of weeks, it stayed on today, so add the missing week.
 */
function parseFutureWeekday(text: string, nowMs: number): Parsed | null {
  const result = runLocutus(text, nowMs);
  if (!result || result.absolute) return result;
  // `midnight` resets the time exactly like the weekday phrase does.
  const withoutWeekday = runLocutus(text.replace(FUTURE_WEEKDAY, 'midnight'), nowMs);
  if (!withoutWeekday || withoutWeekday.absolute) return result;
  const days = Math.round((result.ms - withoutWeekday.ms) / DAY_MS);
  return days % 7 === 0 ? { ...result, ms: result.ms + 7 * DAY_MS } : result;
}

/** Text that is neither a timestamp nor ISO/database format, parsed relative to `nowMs`. */
function parseWallClock(text: string, nowMs: number): Parsed | null {
  const weekdayOfMonth = WEEKDAY_OF_MONTH.exec(text);
  if (weekdayOfMonth) return parseWeekdayOfMonth(weekdayOfMonth, nowMs);
  const weekdayInWeek = WEEKDAY_IN_WEEK.exec(text);
  if (weekdayInWeek) return parseWeekdayInWeek(text, weekdayInWeek, nowMs);
  if (FUTURE_WEEKDAY.test(text)) return parseFutureWeekday(text, nowMs);
  return runLocutus(text, nowMs);
}

/** `YYYY-MM-DD[( |T)HH:MM[:SS[.frac]][Z|±HH[:MM]]]`; undefined when the text is not that shape. */
function parseSqlOrIso(text: string): Parsed | null | undefined {
  const match = SQL_OR_ISO.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', offset] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  // Out-of-range fields (month 13, 25:00) go through locutus, which fails them like PHP does.
  // In range, PHP lets the day overflow: 2026-02-30 is 2026-03-02; 24:00 is the next midnight.
  if (month > 12 || day > 31 || hour > 24 || minute > 59 || second > 60) return undefined;
  const ms = wallMs(year, month, day, hour, minute, second);
  if (offset === undefined) return { ms, absolute: false };
  if (offset.toUpperCase() === 'Z') return { ms, absolute: true };
  const digits = offset.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || '0');
  return { ms: ms - (offset[0] === '-' ? -minutes : minutes) * 60_000, absolute: true };
}

/**
 * A trailing IANA zone name (`2026-05-01 10:00:00 Europe/Budapest`; locutus knows abbreviations
 * only): the text before it and the name, or null. The last word is found by walking back from
 * the end, once: the former pattern `^(?:(.*?)\s+)?<zone>$` retried every run of spaces from
 * every position, and `"a" + 15,000 spaces + "!"` blocked the event loop for a second.
 */
function splitTrailingZone(text: string): { before: string | undefined; zone: string } | null {
  let start = text.length;
  while (start > 0 && !WHITESPACE.test(text[start - 1])) start--;
  const zone = text.slice(start);
  if (!ZONE_NAME.test(zone)) return null;
  const before = text.slice(0, start).trimEnd();
  return { before: before === '' ? undefined : before, zone };
}

function parseText(text: string, zone: Zone, now: Date): DateTime | null {
  const trailingZone = splitTrailingZone(text);
  if (trailingZone && IANAZone.isValidZone(trailingZone.zone)) {
    // A zone identifier in the text wins: relative parts are relative to now in that zone.
    const inZone = parseText(trailingZone.before ?? 'now', IANAZone.create(trailingZone.zone), now);
    return inZone ? inZone.setZone(zone) : null;
  }

  const direct = parseSqlOrIso(text);
  if (direct !== undefined) return fromParsed(direct, zone);

  // PHP's "now" has whole seconds.
  const nowWall = DateTime.fromMillis(Math.floor(now.getTime() / 1000) * 1000, { zone });
  const nowMs = wallMs(
    nowWall.year,
    nowWall.month,
    nowWall.day,
    nowWall.hour,
    nowWall.minute,
    nowWall.second,
  );
  return fromParsed(parseWallClock(text, nowMs), zone);
}

/**
 * The longest date-time text the API reads (CONTRACT §4): far above any real date
 * (`2026-11-23T18:00:00.000000+01:00` is 32 characters, `last friday of next month 18:00
 * Europe/Budapest` 48), low enough that no parse can take long whatever the text. Longer input is
 * refused before any parsing.
 */
export const MAX_DATE_LENGTH = 100;

/**
 * Parses a date-time the way PHP `strtotime($input, $now)` does with `$zone` as the default time
 * zone, returning the instant in `zone` or null where PHP returns false. All-digit input (optionally
 * signed) and numbers are Unix timestamps, as the plugin treats them. `zone` is any string
 * {@link toLuxonZone} accepts (IANA, `UTC`, `UTC+5.5`); an unknown zone throws a RangeError.
 * Text longer than {@link MAX_DATE_LENGTH} is null without being read.
 */
export function parseDateTime(
  input: string | number,
  zone: string,
  now: Date = new Date(),
): DateTime | null {
  const luxonZone = toLuxonZone(zone);
  if (!luxonZone) throw new RangeError(`Unknown time zone: ${zone}`);
  if (typeof input === 'number') return fromTimestamp(input, luxonZone);
  if (input.length > MAX_DATE_LENGTH) return null;

  // timelib trims whitespace and reports an empty string as an error.
  const text = input.trim();
  if (text === '') return null;
  if (TIMESTAMP.test(text)) return fromTimestamp(Number(text), luxonZone);
  // Text is read relative to now's whole second only (parseText): the same text in the same zone
  // within one second is the same instant. A write reads each of its dates twice, once to
  // validate it and once to store it; the second reading is the first's (luxon's DateTime is
  // immutable, so the one result can be handed out twice).
  const key = `${Math.floor(now.getTime() / 1000)} ${zone} ${text}`;
  return recentlyParsed.get(key, () => parseText(text, luxonZone, now));
}

/** The last texts parsed (by second, zone and text), see parseDateTime. */
const recentlyParsed = new BoundedMemo<DateTime | null>(256);

/**
 * Earliest and latest instants a date-time parameter may name: dates are stored and echoed as
 * `YYYY-MM-DD HH:MM:SS`, so years 1-9999, with a day to spare for any zone's offset.
 */
// (Date.UTC reads years 0-99 as 1900-1999: -62135510400000 is 0001-01-02T00:00:00Z.)
const FIRST_STORABLE = -62_135_510_400_000;
const LAST_STORABLE = Date.UTC(9999, 11, 30, 23, 59, 59);

/** Why a date-time parameter is refused (each has its own message), or null when it is fine. */
export type DateProblem = 'type' | 'too_long' | 'unparseable' | 'out_of_range';

/**
 * What is wrong with a date-time parameter: not a string or number, longer than
 * {@link MAX_DATE_LENGTH} (checked first, so such text is never parsed), something PHP
 * `strtotime()` would not accept (as the plugin validates), or an instant without a four-digit
 * year. PHP also reads `0000-00-00` (-0001-11-30) or a timestamp of year -1199; those cannot be
 * stored and made every write answer a 500 (found by test/fuzz.e2e-spec.ts).
 */
export function dateProblem(input: unknown, zone = 'UTC', now?: Date): DateProblem | null {
  if (typeof input !== 'string' && typeof input !== 'number') return 'type';
  if (typeof input === 'string' && input.length > MAX_DATE_LENGTH) return 'too_long';
  const parsed = parseDateTime(input, zone, now);
  if (!parsed) return 'unparseable';
  const ms = parsed.toMillis();
  return ms >= FIRST_STORABLE && ms <= LAST_STORABLE ? null : 'out_of_range';
}

/** Whether {@link dateProblem} finds nothing wrong with `input`. */
export function isValidDateTime(input: unknown, zone = 'UTC', now?: Date): boolean {
  return dateProblem(input, zone, now) === null;
}
