import { doc } from '../common/i18n/doc-key.js';
import type {
  TecEmbeddedTerm,
  TecEvent,
  TecOrganizer,
  TecTerm,
  TecVenue,
  ExtensionKeys,
} from '../common/payload/tec-payload.js';
import type { PostKind } from '../common/records/record-kinds.js';
import type { Schema } from './schema.js';
import { WEBHOOK_SCHEMAS } from './webhook-schemas.js';
import { USER_SCHEMAS } from './user-schemas.js';

/**
 * The hand-written component schemas of the OpenAPI document. The first eight are the plugin's
 * definitions (BEHAVIOR §3, property texts from the "Documented as" columns of §4), in the
 * plugin's order; the others describe what the service answers beyond them (list envelopes of
 * §5.1, the error body of §1.5, the namespace index of §2). Descriptions are i18n keys. The
 * records' schemas are typed by the payload interfaces (common/payload/tec-payload.ts): a field
 * typed and not documented, or documented and not typed, fails the type check.
 */

const ref = (name: string) => `#/components/schemas/${name}`;
const prop = (type: string, key: string, extra: Schema = {}): Schema => ({
  type,
  description: doc(`schemas.${key}`),
  ...extra,
});
const string = (key: string, extra?: Schema) => prop('string', key, extra);
const integer = (key: string, extra?: Schema) => prop('integer', key, extra);
const boolean = (key: string) => prop('boolean', key);
const arrayOf = (key: string, items: Schema) => prop('array', key, { items });
export const object = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  ...extra,
  properties,
});

/** An event's `recurrence` (CONTRACT §9), also the answer of the recurrence preview. */
export const RECURRENCE_PROPERTIES: Record<string, Schema> = {
  rules: { type: 'array', items: { type: 'string' } },
  exdates: { type: 'array', items: { type: 'string' } },
  rdates: { type: 'array', items: { type: 'string' } },
  description: { type: 'string' },
  next: {
    type: 'array',
    items: object(
      {
        start_date: { type: 'string' },
        end_date: { type: 'string' },
        utc_start_date: { type: 'string' },
        utc_end_date: { type: 'string' },
      },
      { description: 'events.doc.occurrence_out' },
    ),
  },
};

/**
 * The properties of the payload `T`, checked by the compiler: each of its fields (optional ones
 * too) has a schema, and no other key has one (spread parts included).
 */
export const fieldsOf =
  <T>() =>
  <const K extends { readonly [F in Exclude<keyof Required<T>, ExtensionKeys>]: Schema }>(
    properties: K & Record<Exclude<keyof K, keyof T>, never>,
  ): Record<string, Schema> =>
    properties;

/** Dates, status, links and global ids: the same fields, in the same order, on every post. */
function postHead(kind: PostKind) {
  const k = (name: string) => `${kind}.${name}`;
  return {
    id: integer(k('id')),
    global_id: string(k('global_id')),
    global_id_lineage: arrayOf(k('global_id_lineage'), { type: 'string' }),
    // Documented as integer, sent as a string (BEHAVIOR §4.1).
    author: integer(k('author')),
    date: string(k('date')),
    date_utc: string(k('date_utc')),
    modified: string(k('modified')),
    modified_utc: string(k('modified_utc')),
    status: string(k('status')),
    url: string(k('url')),
  };
}

const DATE_DETAILS = { $ref: ref('DateDetails') };

/** schema.org JSON-LD of a record (BEHAVIOR §4.9): single reads only. */
const jsonLd = (kind: PostKind) => prop('object', `${kind}.json_ld`);

/** The record's language and its translations (CONTRACT §5), on every record the service returns. */
const LANGUAGE_FIELDS = {
  language: {
    type: 'string',
    enum: ['en', 'hu', 'ro'],
    description: 'translations.doc.field_language',
  },
  translations: {
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'translations.doc.field_translations',
  },
};

/** The plugin's eight definitions, in its order (BEHAVIOR §3). */
export const TEC_SCHEMAS: Record<string, Schema> = {
  ImageSize: object({
    width: integer('image_size.width'),
    height: integer('image_size.height'),
    'mime-type': string('image_size.mime_type'),
    url: string('image_size.url'),
  }),
  CostDetails: object({
    currency_symbol: string('cost_details.currency_symbol'),
    // The trailing space is the plugin's (BEHAVIOR §3); `currency_code` is not documented.
    'currency_position ': string('cost_details.currency_position', {
      enum: ['prefix', 'postfix'],
    }),
    values: arrayOf('cost_details.values', { type: 'string' }),
  }),
  // One schema documents both forms of a term: the union of their fields.
  Term: object(
    fieldsOf<TecTerm & TecEmbeddedTerm>()({
      id: integer('term.id'),
      name: string('term.name'),
      slug: string('term.slug'),
      taxonomy: string('term.taxonomy'),
      description: string('term.description'),
      parent: integer('term.parent'),
      count: integer('term.count'),
      url: string('term.url'),
      urls: arrayOf('term.urls', { type: 'string' }),
      meta: arrayOf('term.meta', {}),
      // The form embedded in an event (BEHAVIOR §4.7) carries WordPress's term fields too.
      term_group: integer('term.term_group'),
      term_taxonomy_id: integer('term.term_taxonomy_id'),
      filter: string('term.filter'),
      ...LANGUAGE_FIELDS,
    }),
  ),
  Image: object({
    url: string('image.url', { format: 'uri' }),
    id: integer('image.id'),
    extension: string('image.extension'),
    width: integer('image.width'),
    height: integer('image.height'),
    sizes: arrayOf('image.sizes', { $ref: ref('ImageSize') }),
  }),
  // Documented as integers; the service sends zero-padded strings, as the plugin does (§4.2).
  DateDetails: object({
    year: integer('date_details.year'),
    month: integer('date_details.month'),
    day: integer('date_details.day'),
    hour: integer('date_details.hour'),
    minutes: integer('date_details.minutes'),
    seconds: integer('date_details.seconds'),
  }),
  Event: object(
    fieldsOf<TecEvent>()({
      ...postHead('event'),
      rest_url: string('event.rest_url'),
      title: string('event.title'),
      description: string('event.description'),
      excerpt: string('event.excerpt'),
      slug: string('event.slug'),
      image: prop('object', 'event.image', { $ref: ref('Image') }),
      all_day: boolean('event.all_day'),
      start_date: string('event.start_date'),
      start_date_details: arrayOf('event.start_date_details', DATE_DETAILS),
      end_date: string('event.end_date'),
      end_date_details: arrayOf('event.end_date_details', DATE_DETAILS),
      utc_start_date: string('event.utc_start_date'),
      utc_start_date_details: arrayOf('event.utc_start_date_details', DATE_DETAILS),
      utc_end_date: string('event.utc_end_date'),
      utc_end_date_details: arrayOf('event.utc_end_date_details', DATE_DETAILS),
      timezone: string('event.timezone'),
      timezone_abbr: string('event.timezone_abbr'),
      cost: string('event.cost'),
      cost_details: arrayOf('event.cost_details', { $ref: ref('CostDetails') }),
      website: string('event.website'),
      show_map: boolean('event.show_map'),
      show_map_link: boolean('event.show_map_link'),
      hide_from_listings: boolean('event.hide_from_listings'),
      sticky: boolean('event.sticky'),
      featured: boolean('event.featured'),
      categories: arrayOf('event.categories', { $ref: ref('Term') }),
      tags: arrayOf('event.tags', { $ref: ref('Term') }),
      // `object` with a `$ref` sibling, as the plugin writes it (BEHAVIOR §3).
      venue: prop('object', 'event.venue', { $ref: ref('Venue') }),
      organizer: arrayOf('event.organizer', { $ref: ref('Organizer') }),
      custom_fields: arrayOf('event.custom_fields', {}),
      json_ld: jsonLd('event'),
      ...LANGUAGE_FIELDS,
      // Under cal/events/v1 only (the plugin's namespace shows Pro's payload).
      recurrence: object(RECURRENCE_PROPERTIES, {
        nullable: true,
        description: 'events.doc.recurrence_out',
      }),
      occurrences_remaining: {
        type: 'integer',
        description: 'events.doc.occurrences_remaining_out',
      },
    }),
  ),
  Venue: object(
    fieldsOf<TecVenue>()({
      ...postHead('venue'),
      venue: string('venue.venue'),
      description: string('venue.description'),
      excerpt: string('venue.excerpt'),
      slug: string('venue.slug'),
      // Typed `string` with a `$ref` to Image: the plugin's quirk (BEHAVIOR §3).
      image: string('venue.image', { $ref: ref('Image') }),
      show_map: boolean('venue.show_map'),
      show_map_link: boolean('venue.show_map_link'),
      address: string('venue.address'),
      city: string('venue.city'),
      country: string('venue.country'),
      province: string('venue.province'),
      state: string('venue.state'),
      zip: string('venue.zip'),
      phone: string('venue.phone'),
      website: string('venue.website'),
      stateprovince: string('venue.stateprovince'),
      geo_lat: prop('number', 'venue.geo_lat', { format: 'double' }),
      geo_lng: prop('number', 'venue.geo_lng', { format: 'double' }),
      json_ld: jsonLd('venue'),
      ...LANGUAGE_FIELDS,
    }),
  ),
  Organizer: object(
    fieldsOf<TecOrganizer>()({
      ...postHead('organizer'),
      organizer: string('organizer.organizer'),
      description: string('organizer.description'),
      excerpt: string('organizer.excerpt'),
      slug: string('organizer.slug'),
      image: string('organizer.image', { $ref: ref('Image') }),
      phone: string('organizer.phone'),
      website: string('organizer.website'),
      email: string('organizer.email'),
      json_ld: jsonLd('organizer'),
      ...LANGUAGE_FIELDS,
    }),
  ),
};

/** List kinds and the schema of their items. */
export const LIST_ITEMS = {
  events: 'Event',
  venues: 'Venue',
  organizers: 'Organizer',
  categories: 'Term',
  tags: 'Term',
} as const;
export type ListKind = keyof typeof LIST_ITEMS;

const archiveName = (kind: ListKind) => `${kind[0].toUpperCase()}${kind.slice(1)}Archive`;
export const archiveRef = (kind: ListKind) => ({ $ref: ref(archiveName(kind)) });
export const schemaRef = (name: string) => ({ $ref: ref(name) });

/** The list envelope of BEHAVIOR §5.1, keys in the order the service writes them. */
function archive(kind: ListKind): Schema {
  const items = arrayOf(`archive.${kind}`, { $ref: ref(LIST_ITEMS[kind]) });
  const links = {
    rest_url: string('archive.rest_url', { format: 'uri' }),
    next_rest_url: string('archive.next_rest_url', { format: 'uri' }),
    previous_rest_url: string('archive.previous_rest_url', { format: 'uri' }),
  };
  const totals = {
    total: integer('archive.total'),
    total_pages: integer('archive.total_pages'),
  };
  const isTerm = kind === 'categories' || kind === 'tags';
  const properties = isTerm
    ? {
        rest_url: links.rest_url,
        ...totals,
        [kind]: items,
        next_rest_url: links.next_rest_url,
        previous_rest_url: links.previous_rest_url,
      }
    : { [kind]: items, ...links, ...totals };
  return object(properties, { required: [kind, 'rest_url', 'total', 'total_pages'] });
}

/** Schemas the plugin does not define, added after its eight. */
export const SERVICE_SCHEMAS: Record<string, Schema> = {
  ...Object.fromEntries(
    (Object.keys(LIST_ITEMS) as ListKind[]).map((kind) => [archiveName(kind), archive(kind)]),
  ),
  Error: object(
    {
      code: string('error.code'),
      message: string('error.message'),
      data: object(
        {
          status: integer('error.status'),
          params: prop('object', 'error.params', { additionalProperties: { type: 'string' } }),
          // An object of structured reasons, or an empty array when there is none (BEHAVIOR §1.5).
          details: {
            description: doc('schemas.error.details'),
            oneOf: [
              {
                type: 'object',
                additionalProperties: object({
                  code: string('error.detail_code'),
                  message: string('error.detail_message'),
                  data: prop('object', 'error.detail_data'),
                }),
              },
              { type: 'array', maxItems: 0, items: {} },
            ],
          },
        },
        { required: ['status'], description: doc('schemas.error.data') },
      ),
    },
    { required: ['code', 'message', 'data'] },
  ),
  NamespaceIndex: object(
    {
      namespace: string('index.namespace'),
      routes: prop('object', 'index.routes', {
        additionalProperties: object({
          namespace: string('index.route_namespace'),
          methods: arrayOf('index.methods', { type: 'string' }),
          endpoints: arrayOf('index.endpoints', {
            type: 'object',
            properties: {
              methods: arrayOf('index.methods', { type: 'string' }),
              args: prop('object', 'index.args'),
            },
          }),
          _links: prop('object', 'index.route_links'),
        }),
      }),
      _links: prop('object', 'index.links'),
    },
    { required: ['namespace', 'routes', '_links'] },
  ),
  ...WEBHOOK_SCHEMAS,
  ...USER_SCHEMAS,
};
