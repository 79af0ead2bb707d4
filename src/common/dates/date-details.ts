import { DateTime, type Zone } from 'luxon';
import { LRUCache } from 'lru-cache';
import { lruBounds } from '../lru-bounds.js';
import { toLuxonZone, wallClockToDateTime } from './zones.js';

/** `*_date_details` of the REST payloads: every component a zero-padded string. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

/** WordPress's "no date" value (e.g. `date_gmt` of a draft); the helpers pass it through. */
export const ZERO_DATE = '0000-00-00 00:00:00';

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const SQL_PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function sqlParts(sql: string): RegExpExecArray {
  const match = SQL_PARTS.exec(sql.trim());
  if (!match) throw new RangeError(`Not a YYYY-MM-DD HH:MM:SS date-time: ${sql}`);
  return match;
}

/**
 * Components of a stored `YYYY-MM-DD HH:MM:SS` value, read from the string itself (no time-zone
 * arithmetic): `2017-01-05 14:23:36` → `{ year: '2017', month: '01', …, seconds: '36' }`.
 * A date without a time reads as midnight.
 */
export function dateDetails(sql: string): DateDetails {
  const [, year, month, day, hour = '00', minutes = '00', seconds = '00'] = sqlParts(sql);
  return { year, month, day, hour, minutes, seconds };
}

/** `YYYY-MM-DD HH:MM:SS` of a luxon DateTime, in its own zone. */
export function formatSql(dt: DateTime): string {
  return plainDigits(dt) ? `${datePart(dt)} ${timePart(dt)}` : dt.toFormat(SQL_FORMAT);
}

/** `YYYY-MM-DDTHH:MM:SS+HH:MM` of a luxon DateTime (`yyyy-MM-dd'T'HH:mm:ssZZ`), in its zone. */
function formatIso(dt: DateTime): string {
  return plainDigits(dt)
    ? `${datePart(dt)}T${timePart(dt)}${dt.zone.formatOffset(dt.toMillis(), 'short')}`
    : dt.toFormat(ISO_FORMAT);
}

const ISO_FORMAT = "yyyy-MM-dd'T'HH:mm:ssZZ";

/**
 * Whether luxon's toFormat would write `dt`'s numbers as plain zero-padded ASCII digits (its
 * own fast path: a valid date of an English locale, Latin digits, the Gregorian calendar), so
 * that formatSql and formatIso may write them without it: toFormat parses its format string and
 * builds a formatter for every number on every call (about 15 µs of an event create).
 */
function plainDigits(dt: DateTime): boolean {
  return (
    dt.isValid &&
    (dt.numberingSystem === null || dt.numberingSystem === 'latn') &&
    (dt.outputCalendar === null || dt.outputCalendar === 'gregory') &&
    (dt.locale === null || dt.locale.startsWith('en'))
  );
}

/** luxon's padStart: `n` zero-padded to `width` digits, its sign before them. */
const pad = (n: number, width: number) =>
  n < 0 ? `-${String(-n).padStart(width, '0')}` : String(n).padStart(width, '0');
const datePart = (dt: DateTime) => `${pad(dt.year, 4)}-${pad(dt.month, 2)}-${pad(dt.day, 2)}`;
const timePart = (dt: DateTime) => `${pad(dt.hour, 2)}:${pad(dt.minute, 2)}:${pad(dt.second, 2)}`;

/**
 * The zones read so far: toLuxonZone checks an IANA name by building an Intl.DateTimeFormat, which
 * cost most of the time of placing a series' occurrences (one check per date).
 */
const zones = new LRUCache<string, Zone>(lruBounds<string, Zone>(1_000));

function zoneOf(zone: string): Zone {
  const known = zones.get(zone);
  if (known) return known;
  const luxonZone = toLuxonZone(zone);
  if (!luxonZone) throw new RangeError(`Unknown time zone: ${zone}`);
  zones.set(zone, luxonZone);
  return luxonZone;
}

/**
 * The instant of a local wall clock (`YYYY-MM-DD[ HH:MM[:SS]]`) in `zone`, resolved like PHP:
 * a time skipped by a DST change moves forward (Budapest `2026-03-29 02:30` → 03:30 CEST).
 * Throws a RangeError for a malformed or impossible date, or an unknown zone.
 */
export function localToDateTime(localSql: string, zone: string): DateTime {
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = sqlParts(localSql);
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  const overflowed =
    wall.getUTCFullYear() !== year ||
    wall.getUTCMonth() !== month - 1 ||
    wall.getUTCDate() !== day ||
    wall.getUTCHours() !== hour ||
    wall.getUTCMinutes() !== minute ||
    wall.getUTCSeconds() !== second;
  if (overflowed) throw new RangeError(`Not a valid date-time: ${localSql}`);

  const result = wallClockToDateTime(wall.getTime(), zoneOf(zone));
  if (!result) throw new RangeError(`Not a valid date-time: ${localSql}`);
  return result;
}

/** UTC `YYYY-MM-DD HH:MM:SS` of a local wall clock in `zone` (see {@link localToDateTime}). */
export function localToUtc(localSql: string, zone: string): string {
  if (localSql === ZERO_DATE) return ZERO_DATE;
  return formatSql(localToDateTime(localSql, zone).toUTC());
}

/** Local `YYYY-MM-DD HH:MM:SS` in `zone` of a UTC wall clock. */
export function utcToLocal(utcSql: string, zone: string): string {
  if (utcSql === ZERO_DATE) return ZERO_DATE;
  return formatSql(localToDateTime(utcSql, 'UTC').setZone(zoneOf(zone)));
}

/**
 * ISO 8601 with the zone's offset at that time, as PHP's `DATE_ATOM` / `c` prints it:
 * `2024-07-14 12:00:00` in UTC → `2024-07-14T12:00:00+00:00` (never `Z`).
 */
export function toIso8601WithOffset(localSql: string, zone: string): string {
  return formatIso(localToDateTime(localSql, zone));
}

/** Milliseconds of a `YYYY-MM-DD HH:MM:SS` value read as UTC (wall-clock arithmetic). */
const sqlMs = (sql: string) =>
  Date.parse(`${sql.slice(0, 10)}T${sql.slice(11, 19) || '00:00:00'}Z`);
const sqlOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** The instants of an event's local start and end, and the local times they are. */
export interface PlacedSpan {
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
}

/**
 * Where a timed event's wall clocks `start`–`end` of `zone` fall (RFC 5545 §3.3.5, CONTRACT §9
 * "Time"): a start that a DST change skips moves forward by the gap, and its end moves alike, so
 * that it keeps its length (02:45-03:15 in New York's gap is 03:45-04:15 EDT, not a span ending
 * before it starts); a repeated time is its first occurrence. `start`/`end` are the local times
 * of the instants; an end before the start becomes the start.
 */
export function placeSpan(start: string, end: string, zone: string): PlacedSpan {
  const startUtc = localToUtc(start, zone);
  const local = utcToLocal(startUtc, zone);
  const shift = sqlMs(local) - sqlMs(start);
  let endUtc = localToUtc(shift ? sqlOfMs(sqlMs(end) + shift) : end, zone);
  if (endUtc < startUtc) endUtc = startUtc;
  return { start: local, end: utcToLocal(endUtc, zone), startUtc, endUtc };
}

/**
 * ISO 8601 of the instant `utcSql` with the offset `zone` has then (`2031-03-09T03:45:00-04:00`),
 * for outputs that must name the instant the API names (JSON-LD), whatever its local time reads.
 */
export function utcToIso8601WithOffset(utcSql: string, zone: string): string {
  return formatIso(localToDateTime(utcSql, 'UTC').setZone(zoneOf(zone)));
}
