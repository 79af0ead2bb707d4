import { DateTime } from 'luxon';
import { BoundedMemo } from '../common/bounded-memo.js';
import { toLuxonZone } from '../common/dates/index.js';
import type { Language } from '../config/config.js';
import type { TecEvent } from '../common/payload/tec-payload.js';

const LOCALES: Record<Language, string> = { en: 'en-GB', hu: 'hu-HU', ro: 'ro-RO' };

/** `en_GB`-style locale of Open Graph. */
export const ogLocale = (language: Language) => LOCALES[language].replace('-', '_');

function zoneOf(event: TecEvent): string {
  const zone = event.timezone || 'UTC';
  try {
    return toLuxonZone(zone) ? zone : 'UTC';
  } catch {
    return 'UTC';
  }
}

function local(sql: unknown, event: TecEvent, language: Language): DateTime {
  const luxonZone = toLuxonZone(zoneOf(event)) ?? 'UTC';
  return DateTime.fromSQL(String(sql), { zone: luxonZone }).setLocale(LOCALES[language]);
}

/**
 * Phrases of eventWhen by what they say: a page's series lists ten dates, a list page or a
 * feed the same events again and again, and luxon's localized formatting was most of an event
 * page's allocations after its terms and its description (75 MB of 878 MB in issue 53's memory
 * scenario, sampled).
 */
const WHEN_PHRASES = 10_000;
const phrases = new BoundedMemo<string>(WHEN_PHRASES);

/**
 * When an event takes place, in its own zone with the zone named: one day or several, with or
 * without times (all-day events show dates only).
 */
export function eventWhen(event: TecEvent, language: Language, allDayLabel: string): string {
  const { start_date, end_date, all_day, timezone, timezone_abbr } = event;
  const key = `${language} ${start_date} ${end_date} ${all_day ? 1 : 0} ${timezone} ${timezone_abbr} ${allDayLabel}`;
  return phrases.get(key, () => whenPhrase(event, language, allDayLabel));
}

function whenPhrase(event: TecEvent, language: Language, allDayLabel: string): string {
  const start = local(event.start_date, event, language);
  const end = local(event.end_date, event, language);
  if (!start.isValid || !end.isValid) return '';
  const date = (dt: DateTime) => dt.toLocaleString(DateTime.DATE_HUGE);
  const time = (dt: DateTime) => dt.toLocaleString(DateTime.TIME_SIMPLE);
  const sameDay = start.hasSame(end, 'day');
  if (event.all_day) {
    return sameDay
      ? `${date(start)} (${allDayLabel})`
      : `${date(start)} – ${date(end)} (${allDayLabel})`;
  }
  const abbr = event.timezone_abbr;
  const zone = `${zoneOf(event)}${abbr && abbr !== zoneOf(event) ? ` (${abbr})` : ''}`;
  // A range of times is closed up ("19:00–21:00"), as the description of a series writes it; a
  // range of dates with times, whose ends have spaces, is spaced.
  return sameDay
    ? `${date(start)}, ${time(start)}–${time(end)} ${zone}`
    : `${date(start)}, ${time(start)} – ${date(end)}, ${time(end)} ${zone}`;
}

/**
 * ISO 8601 with the zone's offset at that moment, or a date alone for all-day events. A timed
 * event's is the instant of `utc_start_date`/`utc_end_date`, so that a local time in a DST gap or
 * a repeated one names what the API names (CONTRACT §9 "Time").
 */
export function isoWhen(event: TecEvent, which: 'start_date' | 'end_date'): string {
  if (event.all_day) {
    const dt = local(event[which], event, 'en');
    return dt.isValid ? dt.toISODate()! : '';
  }
  const utc = which === 'start_date' ? event.utc_start_date : event.utc_end_date;
  const dt = DateTime.fromSQL(utc, { zone: 'utc' }).setZone(toLuxonZone(zoneOf(event)) ?? 'UTC');
  return dt.toISO({ suppressMilliseconds: true }) ?? '';
}
