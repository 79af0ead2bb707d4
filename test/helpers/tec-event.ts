import type { DateDetails } from '../../src/common/dates/date-details.js';
import type { TecEmbeddedTerm, TecEvent } from '../../src/common/payload/tec-payload.js';

const details = (sql: string): DateDetails => ({
  year: sql.slice(0, 4),
  month: sql.slice(5, 7),
  day: sql.slice(8, 10),
  hour: sql.slice(11, 13),
  minutes: sql.slice(14, 16),
  seconds: sql.slice(17, 19),
});

/**
 * The keys of the fields every post has, in the order the plugin answers them: events, venues
 * and organizers alike (each with its own keys before and after).
 */
export const POST_KEYS = [
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
] as const;

/** What an event answers when written with none of these fields: no flags, no links. */
export const EVENT_DEFAULTS = {
  show_map: false,
  show_map_link: false,
  hide_from_listings: false,
  sticky: false,
  featured: false,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
} satisfies Partial<TecEvent>;

/**
 * A whole event payload as the API maps it, for the renderers' unit tests (feeds, pages): a
 * published timed event in Budapest, on 1 May 2030 from 10:00 to 12:00, with `extra` over it.
 */
export function tecEvent(id: number, extra: Partial<TecEvent> = {}): TecEvent {
  const start = extra.start_date ?? '2030-05-01 10:00:00';
  const end = extra.end_date ?? '2030-05-01 12:00:00';
  const utcStart = extra.utc_start_date ?? '2030-05-01 08:00:00';
  const utcEnd = extra.utc_end_date ?? '2030-05-01 10:00:00';
  return {
    id,
    global_id: `cal.test?id=${id}`,
    global_id_lineage: [`cal.test?id=${id}`],
    author: '1',
    date: '2025-01-01 01:00:00',
    date_utc: '2025-01-01 00:00:00',
    modified: '2025-01-01 01:00:00',
    modified_utc: '2025-01-01 00:00:00',
    status: 'publish',
    url: `https://cal.test/event/e${id}/`,
    rest_url: `https://cal.test/wp-json/tribe/events/v1/events/${id}`,
    language: 'en',
    translations: { en: id },
    title: `Event ${id}`,
    description: '',
    excerpt: '',
    slug: `e${id}`,
    image: false,
    all_day: false,
    start_date: start,
    start_date_details: details(start),
    end_date: end,
    end_date_details: details(end),
    utc_start_date: utcStart,
    utc_start_date_details: details(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: details(utcEnd),
    timezone: 'Europe/Budapest',
    timezone_abbr: 'CEST',
    cost: '',
    cost_details: {
      currency_symbol: '',
      currency_code: '',
      currency_position: 'prefix',
      values: [],
    },
    website: '',
    ...EVENT_DEFAULTS,
    ...extra,
  };
}

/** A category as an event embeds it, named `name`. */
export function embeddedCategory(id: number, name: string): TecEmbeddedTerm {
  const slug = `c${id}`;
  return {
    name,
    slug,
    term_group: 0,
    term_taxonomy_id: id,
    taxonomy: 'tribe_events_cat',
    description: '',
    parent: 0,
    count: 1,
    filter: 'raw',
    id,
    urls: {
      self: `https://cal.test/wp-json/tribe/events/v1/categories/${id}`,
      collection: 'https://cal.test/wp-json/tribe/events/v1/categories',
    },
  };
}
