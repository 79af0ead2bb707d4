/**
 * The largest accepted input of every field and list (CONTRACT §4, "Limits"). A value within its
 * limit always fits its column on MySQL/MariaDB (utf8mb4) and SQLite:
 *
 * - `varchar(n)` columns count characters (code points): the limit is `n`, counted the same way;
 * - `text` columns hold 65,535 bytes: a character is at most 4 bytes in UTF-8, and the HTML filter
 *   applied to authors' and contributors' content may grow a character into an entity of up to 6
 *   bytes (`"` → `&quot;`), so 10,000 characters stay below 60,000 bytes whatever they are;
 * - lists are cut well below SQLite's oldest bound-variable limit (999), so that one query binding
 *   a few of them stays valid on every engine.
 *
 * Where WordPress has a limit of its own it is kept (post password 255, slug 200, term name 200).
 */
export const LIMITS = {
  /** Event title, venue and organizer name (`text` column). */
  title: 1000,
  /** Descriptions and excerpts of events, venues, organizers; term descriptions (`text`). */
  content: 10_000,
  /** Post password: WordPress `post_password` is varchar(255). */
  password: 255,
  /** Slugs (varchar(200); WordPress's own limit). */
  slug: 200,
  /** Category and tag names, and term references (slug or name) in lists (varchar(200)). */
  termName: 200,
  /** Website and image URLs (varchar(2048)). */
  url: 2048,
  /** Time zone names (varchar(64)). */
  timezone: 64,
  /** Venue address fields, phone, e-mail and the other short strings (varchar(255)). */
  short: 255,
  /** Search terms: longer than any real search, short enough to keep the query small. */
  search: 255,
  /** One cost value, and the currency symbol derived from it (varchar(255)). */
  costEntry: 255,
  /** Cost values per event. */
  costEntries: 20,
  /** Items of a list parameter: ids, slugs, statuses, inline venues/organizers. */
  listItems: 100,
  /** One status in a status list (varchar(20)). */
  status: 20,
} as const;

/**
 * Whether `value` has more than `max` characters (code points, as MySQL counts `varchar` and JSON
 * Schema counts `maxLength`). Linear, and constant time for most values: a code point is one or
 * two UTF-16 units.
 */
export function exceedsChars(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  let count = 0;
  for (const _ of value) if (++count > max) return true;
  return false;
}

/** Non-empty comma-separated parts of `s` (`"1,,2, "` has 2), counted without splitting. */
function csvParts(s: string): number {
  let parts = 0;
  let filled = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 44 /* , */) {
      if (filled) parts++;
      filled = false;
    } else if (!filled && !(c === 32 || (c >= 9 && c <= 13))) filled = true;
  }
  return filled ? parts + 1 : parts;
}

/**
 * How many items a list parameter holds, as its reader sees them, counted before any per-item
 * work:
 * - `list` (transforms.ts `toList`, term-items.ts): the items of an array or indexed object, a
 *   string's comma-separated parts counting one each;
 * - `references` (an event's `venue`/`organizer`, linked-references.ts): the items of an array,
 *   the comma-separated ids of a string, and one for anything else (an inline record object).
 */
export function listItemCount(value: unknown, mode: 'list' | 'references' = 'list'): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return csvParts(value);
  if (typeof value !== 'object') return 1;
  if (mode === 'references') return Array.isArray(value) ? value.length : 1;
  let count = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    count += typeof item === 'string' ? csvParts(item) : 1;
  }
  return count;
}

/**
 * Validation messages of the limits, turned into localized reasons by validation.ts
 * (`errors.param_too_long`, ...).
 */
const lengthMessage = (max: number) => `limit:too_long:${max}`;
const itemsMessage = (max: number) => `limit:too_many_items:${max}`;
const itemLengthMessage = (max: number) => `limit:item_too_long:${max}`;

export type ListMode = 'list' | 'references';

/** Whether a comma-separated part of `item` (trimmed, as the list readers trim) is too long. */
function hasLongPart(item: string, max: number): boolean {
  if (!exceedsChars(item, max)) return false;
  return item.split(',').some((part) => exceedsChars(part.trim(), max));
}

/**
 * The limit checks behind the validators of validators.ts (`MaxChars`, `MaxItems`,
 * `CostBounds`), by validator name, with the validator's constraints: the message of the
 * exceeded limit, or null. validation.ts also runs them on the raw input before it is
 * transformed, so that an oversized list is refused before anything walks its items.
 */
export const LIMIT_CHECKS: Record<
  string,
  (value: unknown, constraints: unknown[]) => string | null
> = {
  /** Strings only: another type is left to the field's type check. */
  maxChars: (v, [max]) =>
    typeof v === 'string' && exceedsChars(v, max as number) ? lengthMessage(max as number) : null,

  maxItems: (v, [max, itemChars, mode]) => {
    if (listItemCount(v, mode as ListMode) > (max as number)) return itemsMessage(max as number);
    if (itemChars === undefined || mode === 'references') return null;
    const items = typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v) : [];
    for (const item of items) {
      if (typeof item === 'string' && hasLongPart(item, itemChars as number)) {
        return itemLengthMessage(itemChars as number);
      }
    }
    return null;
  },

  /** The event cost: a value, or a list of at most `costEntries` values. */
  costBounds: (v) => {
    if (typeof v === 'string') {
      return exceedsChars(v, LIMITS.costEntry) ? lengthMessage(LIMITS.costEntry) : null;
    }
    if (!Array.isArray(v)) return null;
    if (v.length > LIMITS.costEntries) return itemsMessage(LIMITS.costEntries);
    return v.some((item) => typeof item === 'string' && exceedsChars(item, LIMITS.costEntry))
      ? itemLengthMessage(LIMITS.costEntry)
      : null;
  },
};
