/**
 * From a record the source answered (BEHAVIOR §4: the plugin's event, venue, organizer and term
 * objects) to the write request this service would receive for it. Pure functions; references to
 * other records go through `ref`, which answers the local id or throws Unresolved.
 */

import { contentFilter } from '../common/text/html-filter.js';
import { isTermKind, type RecordKind } from '../common/records/record-kinds.js';
import { LocalizedError, type MessageArgs } from '../config/messages.js';
import { REDACTED_FLAGS } from '../posts/redact.js';

/** The source record cannot be written: the reason (a `cli.record.*` message) goes into the summary. */
export class MalformedRecord extends LocalizedError {
  constructor(reason: string, args: MessageArgs = {}) {
    super(`cli.record.${reason}`, args);
  }
}

/** What an event refers to: its terms, venues and organizers. */
type RefKind = Exclude<RecordKind, 'event'>;
export type Ref = (kind: RefKind, sourceId: number) => number;

/** The ZERO_DATE WordPress shows for a draft that has no publication date yet. */
const ZERO_DATE = '0000-00-00 00:00:00';
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#038': '&',
  '#38': '&',
  '#039': "'",
  '#39': "'",
  '#34': '"',
};

/** esc_url/esc_html output back to the value (the payload's `website` is escaped). */
export function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|apos|#0?38|#0?39|#34);/g, (m, name: string) => {
    return ENTITIES[name] ?? m;
  });
}

function str(record: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = record[name];
  if (value === undefined || value === null || value === false) {
    if (required) throw new MalformedRecord('missing', { name });
    return undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new MalformedRecord('not_text', { name });
  }
  return String(value);
}

function bool(record: Record<string, unknown>, name: string): boolean | undefined {
  const value = record[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === '1' || value === 1 || value === 'true' || value === 'yes') return true;
  if (value === '' || value === '0' || value === 0 || value === 'false' || value === 'no') {
    return false;
  }
  throw new MalformedRecord('not_flag', { name });
}

function wallClock(record: Record<string, unknown>, name: string, required: boolean) {
  const value = str(record, name, required);
  if (value === undefined || value === ZERO_DATE || value === '') {
    if (required) throw new MalformedRecord('missing', { name });
    return undefined;
  }
  if (!WALL_CLOCK.test(value)) throw new MalformedRecord('not_date', { name, value });
  return value;
}

const flagText = (value: boolean | undefined) =>
  value === undefined ? undefined : value ? 'true' : 'false';

const imageUrl = (record: Record<string, unknown>): string => {
  const image = record.image;
  if (image && typeof image === 'object' && typeof (image as { url?: unknown }).url === 'string') {
    return (image as { url: string }).url;
  }
  return '';
};

function idOf(value: unknown, what: RefKind): number {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : value;
  const n = typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : id;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
    throw new MalformedRecord(`no_id.${what}`);
  }
  return n;
}

/** Publication dates, as given (none for a draft that has none). */
function publication(record: Record<string, unknown>) {
  const date = wallClock(record, 'date', false);
  const dateUtc = wallClock(record, 'date_utc', false);
  return dateUtc ? { date: date ?? undefined, date_utc: dateUtc } : {};
}

function status(record: Record<string, unknown>): string | undefined {
  const value = str(record, 'status');
  return value === undefined || value === 'trash' || value === 'inherit' ? undefined : value;
}

/**
 * The entries that reproduce the source's cost (the plugin sends the formatted `cost` and
 * `cost_details`, not what was typed): each amount with the symbol where the source shows it.
 */
export function costEntries(record: Record<string, unknown>): string[] {
  const cost = str(record, 'cost') ?? '';
  const details = record.cost_details as
    { currency_symbol?: unknown; currency_position?: unknown; values?: unknown } | undefined;
  const values = Array.isArray(details?.values) ? details.values.map(String) : [];
  if (!cost && !values.length) return [];
  const symbol = typeof details?.currency_symbol === 'string' ? details.currency_symbol : '';
  const postfix = details?.currency_position === 'postfix';
  // Words (`Free`, `Donation`) are shown as entered; the values hold them lower-cased.
  if (!values.length || values.some((v) => !/^\d{1,20}(\.\d{1,20})?$/.test(v))) return [cost];
  return values.map((v) => (symbol ? (postfix ? `${v}${symbol}` : `${symbol}${v}`) : v));
}

export function categoryInput(record: Record<string, unknown>, ref: Ref) {
  const parent = Number(record.parent ?? 0);
  if (!Number.isSafeInteger(parent) || parent < 0) throw new MalformedRecord('bad_parent');
  return {
    ...tagInput(record),
    // An absent parent is the root (0 is no term to name).
    ...(parent ? { parent: ref('category', parent) } : {}),
  };
}

export function tagInput(record: Record<string, unknown>) {
  const description = str(record, 'description');
  const slug = str(record, 'slug');
  // Empty values are refused on writes: absent means none.
  return {
    name: unescapeHtml(str(record, 'name', true)!),
    ...(description ? { description } : {}),
    ...(slug ? { slug } : {}),
  };
}

const VENUE_TEXT = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
] as const;

export function venueInput(record: Record<string, unknown>) {
  const out: Record<string, unknown> = {
    venue: str(record, 'venue', true),
    description: str(record, 'description') ?? '',
    status: status(record),
    ...publication(record),
    // Declared as strings with truthy semantics on venues (BEHAVIOR §1.3).
    show_map: flagText(bool(record, 'show_map')),
    show_map_link: flagText(bool(record, 'show_map_link')),
    website: unescapeHtml(str(record, 'website') ?? ''),
    image: imageUrl(record),
  };
  for (const field of VENUE_TEXT) out[field] = str(record, field) ?? '';
  const lat = record.geo_lat;
  const lng = record.geo_lng;
  out.geo_lat = typeof lat === 'number' || typeof lat === 'string' ? Number(lat) : '';
  out.geo_lng = typeof lng === 'number' || typeof lng === 'string' ? Number(lng) : '';
  return out;
}

export function organizerInput(record: Record<string, unknown>) {
  return {
    organizer: str(record, 'organizer', true),
    description: str(record, 'description') ?? '',
    status: status(record),
    ...publication(record),
    phone: str(record, 'phone') ?? '',
    website: unescapeHtml(str(record, 'website') ?? ''),
    email: str(record, 'email') ?? '',
    image: imageUrl(record),
  };
}

function list(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null || value === false) return [];
  if (!Array.isArray(value)) {
    // A venue is an object, or [] when there is none.
    if (typeof value === 'object') return [value];
    throw new MalformedRecord('not_list', { what });
  }
  return value;
}

export function eventInput(record: Record<string, unknown>, ref: Ref) {
  const start = wallClock(record, 'start_date', true)!;
  const end = wallClock(record, 'end_date', true)!;
  const website = str(record, 'website');
  const url = str(record, 'url');
  const venues = list(record.venue, 'venue');
  const description = str(record, 'description');
  const excerpt = str(record, 'excerpt');
  return {
    title: str(record, 'title', true),
    ...(description ? { description } : {}),
    ...(excerpt ? { excerpt } : {}),
    slug: str(record, 'slug') || undefined,
    status: status(record),
    ...publication(record),
    start_date: start,
    end_date: end,
    timezone: str(record, 'timezone') ?? '',
    all_day: bool(record, 'all_day') ?? false,
    image: imageUrl(record),
    cost: costEntries(record),
    // The source shows its event page there when none was stored: store none then.
    ...(website !== undefined && website !== url ? { website: unescapeHtml(website) } : {}),
    show_map: bool(record, 'show_map') ?? false,
    show_map_link: bool(record, 'show_map_link') ?? false,
    hide_from_listings: bool(record, 'hide_from_listings') ?? false,
    sticky: bool(record, 'sticky') ?? false,
    featured: bool(record, 'featured') ?? false,
    categories: list(record.categories, 'categories').map((c) =>
      ref('category', idOf(c, 'category')),
    ),
    tags: list(record.tags, 'tags').map((c) => ref('tag', idOf(c, 'tag'))),
    venue: venues.map((v) => ref('venue', idOf(v, 'venue'))),
    organizer: list(record.organizer, 'organizer').map((o) =>
      ref('organizer', idOf(o, 'organizer')),
    ),
  };
}

/** Source ids of the record's translations in other languages (CONTRACT §5), if it shows them. */
export function translationIds(record: Record<string, unknown>): number[] {
  const translations = record.translations;
  if (!translations || typeof translations !== 'object') return [];
  return Object.entries(translations as Record<string, unknown>)
    .filter(([lang]) => lang !== record.language)
    .map(([, id]) => Number(id))
    .filter((id) => Number.isSafeInteger(id) && id > 0 && id !== record.id);
}

/**
 * Whether the source showed a password-protected record without unlocking it (BEHAVIOR §4.11):
 * its flags (REDACTED_FLAGS) are null instead of true or false, and a venue's or organizer's name is `[]`. Such a
 * copy has lost its content; it must not be written as if it were the record.
 */
export function isRedacted(kind: string, record: Record<string, unknown>): boolean {
  if (isTermKind(kind)) return false;
  if (kind === 'venue' && Array.isArray(record.venue)) return true;
  if (kind === 'organizer' && Array.isArray(record.organizer)) return true;
  return REDACTED_FLAGS.some((flag) => flag in record && record[flag] === null);
}

/** The fields of each kind that hold a title (inline HTML) and content (post HTML). */
const HTML_FIELDS: Record<string, { title: string[]; content: string[] }> = {
  event: { title: ['title'], content: ['description', 'excerpt'] },
  venue: { title: ['venue'], content: ['description'] },
  organizer: { title: ['organizer'], content: ['description'] },
};

/**
 * A source's HTML is filtered as a writer's without `unfiltered_html` would be (CONTRACT §6),
 * whatever the role of the local author: what another site sends is not the operator's own
 * markup. Term names and descriptions are filtered by the terms service for everyone.
 */
export function filterSourceHtml(
  kind: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const fields = HTML_FIELDS[kind];
  if (!fields) return input;
  const html = contentFilter(false);
  const out = { ...input };
  for (const name of fields.title) {
    if (typeof out[name] === 'string') out[name] = html.title(out[name]);
  }
  for (const name of fields.content) {
    if (typeof out[name] === 'string') out[name] = html.content(out[name]);
  }
  return out;
}
