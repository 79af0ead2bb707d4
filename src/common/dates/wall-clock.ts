import { DateTime } from 'luxon';
import { formatSql } from './date-details.js';
import { MAX_DATE_LENGTH, parseDateTime } from './strtotime.js';

const TIMESTAMP = /^[+-]?\d+$/;
const WITH_OFFSET =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * The local wall clock an event write stores for a date-time input (BEHAVIOR §1.4), as the plugin
 * builds it with PHP `new DateTime($value, $eventZone)`:
 * - relative words and plain dates are read in `zone`;
 * - a string with its own offset keeps its written wall clock (the offset is ignored);
 * - a Unix timestamp becomes the UTC wall clock of that instant, stored as local time.
 * Returns null for input PHP cannot parse, and for text over {@link MAX_DATE_LENGTH} characters.
 */
export function eventWallClock(input: string | number, zone: string, now?: Date): string | null {
  if (typeof input === 'string' && input.length > MAX_DATE_LENGTH) return null;
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (TIMESTAMP.test(text)) return formatSql(DateTime.fromSeconds(Number(text), { zone: 'utc' }));
  const offset = WITH_OFFSET.exec(text);
  if (offset) {
    // Rebuilt from the parts, with no space before the offset, as ISO 8601 wants it.
    const [, day, time, seconds = '00', fraction = '', written] = offset;
    const iso = `${day}T${time}:${seconds}${fraction}${written}`;
    if (DateTime.fromISO(iso, { setZone: true }).isValid) return `${day} ${time}:${seconds}`;
  }
  const dt = parseDateTime(text, zone, now);
  return dt ? formatSql(dt) : null;
}

const PLAIN_WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?$/;

/**
 * The wall clock of a series' start as written (CONTRACT §9 "Time"): a plain local date-time is
 * kept even where a DST change skips it, since the rules run on the wall clock from the start as
 * given (RFC 5545); anything else is read as {@link eventWallClock} reads it.
 */
export function seriesWallClock(input: string | number, zone: string, now?: Date): string | null {
  const read = eventWallClock(input, zone, now);
  const plain = typeof input === 'string' ? PLAIN_WALL_CLOCK.exec(input.trim()) : null;
  if (!read || !plain) return read;
  const [, day, time, seconds = '00'] = plain;
  return `${day} ${time}:${seconds}`;
}
