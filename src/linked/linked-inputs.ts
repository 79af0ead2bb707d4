import { formatSql, parseDateTime, utcToLocal } from '../common/dates/index.js';
import { invalidParam, t } from '../common/errors/api-error.js';

/**
 * BEHAVIOR §5.3: `search` is cut at every character that is not a letter, a digit or `-`.
 */
export function searchFragments(search: string): string[] {
  return search.split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
}

/**
 * Publication dates of a venue/organizer write (BEHAVIOR §7.4.1, §7.1.2): `date` in the site zone
 * (timestamps are instants), `date_utc` in UTC; one given derives the other; null when neither.
 */
export function publicationDates(
  input: { date?: string; date_utc?: string },
  siteZone: string,
  now: Date = new Date(),
): { date: string; dateUtc: string } | null {
  if (input.date === undefined && input.date_utc === undefined) return null;
  let date: string | undefined;
  let dateUtc: string | undefined;
  if (input.date !== undefined) {
    const parsed = parseDateTime(input.date, siteZone, now);
    if (!parsed) throw invalidParam('date', t('validation.date'));
    dateUtc = formatSql(parsed.toUTC());
    date = utcToLocal(dateUtc, siteZone);
  }
  if (input.date_utc !== undefined) {
    const parsed = parseDateTime(input.date_utc, 'UTC', now);
    if (!parsed) throw invalidParam('date_utc', t('validation.date'));
    dateUtc = formatSql(parsed.toUTC());
    date ??= utcToLocal(dateUtc, siteZone);
  }
  return { date: date!, dateUtc: dateUtc! };
}

/** Flags of an inline venue the plugin takes in any JSON type (its truthy reading, BEHAVIOR §1.3). */
const INLINE_FLAGS = ['show_map', 'show_map_link'];

/**
 * A venue or organizer given inline in an event write is not held to the venue/organizer routes'
 * argument types (BEHAVIOR §1.3): a JSON boolean or number for `show_map`/`show_map_link` is
 * taken as the flag it means (`"1"` or `"0"`), so that the route's string check passes and the
 * value is stored as given. The routes themselves keep the strict type.
 */
export function tolerantInline(fields: Record<string, unknown>): Record<string, unknown> {
  const out = { ...fields };
  for (const name of INLINE_FLAGS) {
    const value = out[name];
    if (typeof value === 'boolean') out[name] = value ? '1' : '0';
    else if (typeof value === 'number' && Number.isFinite(value)) out[name] = value ? '1' : '0';
  }
  return out;
}
