import { DateTime } from 'luxon';
import { formatSql } from './date-details.js';
import { parseDateTime } from './strtotime.js';

const TIMESTAMP = /^[+-]?\d+$/;
const WITH_OFFSET =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * The local wall clock an event write stores for a date-time input (BEHAVIOR §1.4), as the plugin
 * builds it with PHP `new DateTime($value, $eventZone)`:
 * - relative words and plain dates are read in `zone`;
 * - a string with its own offset keeps its written wall clock (the offset is ignored);
 * - a Unix timestamp becomes the UTC wall clock of that instant, stored as local time.
 * Returns null for input PHP cannot parse.
 */
export function eventWallClock(input: string | number, zone: string, now?: Date): string | null {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (TIMESTAMP.test(text)) return formatSql(DateTime.fromSeconds(Number(text), { zone: 'utc' }));
  const offset = WITH_OFFSET.exec(text);
  if (offset) {
    const parsed = DateTime.fromISO(text.replace(' ', 'T').replace(/\s+(?=[Z+-])/i, ''), {
      setZone: true,
    });
    if (parsed.isValid) return `${offset[1]} ${offset[2]}:${offset[3] ?? '00'}`;
  }
  const dt = parseDateTime(text, zone, now);
  return dt ? formatSql(dt) : null;
}
