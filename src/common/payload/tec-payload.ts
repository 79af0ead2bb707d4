import type { Language } from '../../config/config.js';
import type { CostDetails } from '../cost/cost.js';
import type { DateDetails } from '../dates/date-details.js';

/**
 * The image object of BEHAVIOR §4.6 for a URL-only image (CONTRACT §6: there is no media library,
 * the URL is stored as given): `id` is the image record of the URL (images.ts), shared by every
 * record that names the same URL.
 */
export interface ImageObject {
  url: string;
  id: number;
  extension: string;
}

/** Language → id of the record in that language, e.g. `{ "en": 12, "hu": 40 }`. */
export type Translations = Partial<Record<Language, number>>;

/**
 * The records the API answers, as TypeScript types. The schema list (src/docs/schemas.ts) is
 * their documentation, typed by them (`fieldsOf`), so that a field is added in three places the
 * compiler points to: here, in the schema list, and in the mapper that fills it.
 *
 * Values are those sent, which differ from the documented types where the plugin's do
 * (BEHAVIOR §3, §4): ids of authors as strings, date details as zero-padded strings, `false` for
 * no image, `[]` for no venue, and `null` flags in a protected record that was not unlocked
 * (BEHAVIOR §4.11).
 */

/** schema.org JSON-LD (BEHAVIOR §4.9): single reads only. */
export type JsonLd = Record<string, unknown>;

/** A flag of a record; `null` while it is redacted. */
type Flag = boolean | null;

/** The fields every post starts with (BEHAVIOR §4.1, §4.4, §4.5). */
interface TecPostHead {
  id: number;
  global_id: string;
  global_id_lineage: string[];
  author: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  status: string;
  url: string;
  language: Language;
  translations: Translations;
}

/** BEHAVIOR §4.7, the form embedded in an event's `categories` and `tags`. */
export interface TecEmbeddedTerm {
  name: string;
  slug: string;
  term_group: 0;
  term_taxonomy_id: number;
  taxonomy: string;
  description: string;
  parent: number;
  count: number;
  filter: 'raw';
  id: number;
  urls: TecTermUrls;
}

export interface TecTermUrls {
  self: string;
  collection: string;
  up?: string;
}

/** BEHAVIOR §4.7 list and single form. */
export interface TecTerm {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  /** Categories only: tags have no `parent` key. */
  parent?: number;
  meta: [];
  url: string;
  urls: TecTermUrls;
  language: Language;
  translations: Translations;
}

/** BEHAVIOR §4.4: empty fields are left out (the plugin's `array_filter`). */
export interface TecVenue extends Partial<TecPostHead>, VenueExtensionFields {
  venue?: string | [];
  description?: string;
  excerpt?: string;
  slug?: string;
  image?: ImageObject | false;
  show_map: Flag;
  show_map_link: Flag;
  address?: string;
  city?: string;
  country?: string;
  province?: string;
  state?: string;
  zip?: string;
  phone?: string;
  website?: string;
  stateprovince?: string;
  geo_lat?: number;
  geo_lng?: number;
  json_ld?: JsonLd;
}

/** BEHAVIOR §4.5: empty fields are left out, as for venues. */
export interface TecOrganizer extends Partial<TecPostHead>, OrganizerExtensionFields {
  organizer?: string | [];
  description?: string;
  excerpt?: string;
  slug?: string;
  image?: ImageObject | false;
  phone?: string;
  website?: string;
  email?: string;
  json_ld?: JsonLd;
}

/**
 * The fields extension modules add to events, venues and organizers (docs/extending.md): empty
 * here, each module merges its own into them (`declare module` on src/extensions/index.ts), so
 * that the compiler knows every contributed field.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventExtensionFields {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface VenueExtensionFields {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface OrganizerExtensionFields {}

/** BEHAVIOR §4.1, in the plugin's key order. */
export interface TecEvent extends TecPostHead, EventExtensionFields {
  rest_url: string;
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  image: ImageObject | false;
  all_day: Flag;
  start_date: string;
  start_date_details: DateDetails;
  end_date: string;
  end_date_details: DateDetails;
  utc_start_date: string;
  utc_start_date_details: DateDetails;
  utc_end_date: string;
  utc_end_date_details: DateDetails;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  cost_details: CostDetails;
  website: string;
  show_map: Flag;
  show_map_link: Flag;
  hide_from_listings: Flag;
  sticky: Flag;
  featured: Flag;
  categories: TecEmbeddedTerm[];
  tags: TecEmbeddedTerm[];
  /** The venue, or `[]` when there is none the reader may see. */
  venue: TecVenue | [];
  organizer: TecOrganizer[];
  custom_fields: [];
  json_ld?: JsonLd;
  /** Under cal/events/v1 only (the plugin shows Pro's payload); null for an event that does not recur. */
  recurrence?: TecRecurrence | null;
  /** Lists with `series=once` under cal/events/v1 (CONTRACT §9): the occurrences listed after this one. */
  occurrences_remaining?: number;
}

/** An event's series as cal/events/v1 shows it (CONTRACT §9). */
export interface TecRecurrence {
  rules: string[];
  exdates: string[];
  rdates: string[];
  /** The series in words, in the request's language. */
  description: string;
  /** The next occurrences from now (a few). */
  next: Array<{
    start_date: string;
    end_date: string;
    utc_start_date: string;
    utc_end_date: string;
  }>;
}

/** The modules' fields (docs/extending.md): documented by their modules, not in the core's schemas. */
export type ExtensionKeys = keyof (EventExtensionFields &
  VenueExtensionFields &
  OrganizerExtensionFields);
