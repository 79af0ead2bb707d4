/**
 * What the contract judge validates against: the document's schemas as JSON schemas, relaxed
 * where the plugin sends another shape than it documents (AS_SENT) and closed where no field may
 * be added (STRICT).
 */

export type Schema = Record<string, unknown>;

export const DOC_ID = 'https://contract.test/openapi.json';
export const COMPONENT_REF = '#/components/schemas/';

const zeroPadded = { type: 'string', pattern: '^[0-9]+$' };
export const dateDetails = {
  type: 'object',
  properties: Object.fromEntries(
    ['year', 'month', 'day', 'hour', 'minutes', 'seconds'].map((k) => [k, zeroPadded]),
  ),
  required: ['year', 'month', 'day', 'hour', 'minutes', 'seconds'],
};
const refTo = (schema: string) => ({ $ref: `${COMPONENT_REF}${schema}` });
const emptyArray = { type: 'array', maxItems: 0 };
/** §4.6, §4.11: the image object, or `false` when there is none or the record is redacted. */
const imageOrFalse = { anyOf: [refTo('Image'), { const: false }] };
/** §4.11: a redacted protected record answers `null` for its flags. */
const flag = { type: ['boolean', 'null'] };
/** §4.11: a redacted venue's or organizer's name is `[]` (a quirk the plugin has). */
const nameOrEmpty = { anyOf: [{ type: 'string' }, emptyArray] };

/**
 * The plugin's eight definitions are kept as the plugin writes them (BEHAVIOR §3: "quirks to
 * keep"), so where §4 says the plugin sends another shape, the validator takes the shape §4
 * gives: schema name → property → JSON schema. Nothing else is relaxed; the service's own
 * schemas (envelopes, Error, index) are fixed in src/docs/schemas.ts instead.
 */
export const AS_SENT: Record<string, Record<string, Schema>> = {
  // §4.2: all strings, zero-padded (documented as integers).
  DateDetails: dateDetails.properties,
  Event: {
    // §4.1: the author id as a decimal string, "0" for none (documented integer).
    author: zeroPadded,
    // §4.1: `*_date_details` are objects (documented as arrays of DateDetails).
    start_date_details: refTo('DateDetails'),
    end_date_details: refTo('DateDetails'),
    utc_start_date_details: refTo('DateDetails'),
    utc_end_date_details: refTo('DateDetails'),
    image: imageOrFalse,
    // §4.1, §4.3: one object (documented as an array of CostDetails, whose property name
    // "currency_position " carries the plugin's trailing space).
    cost_details: {
      type: 'object',
      properties: {
        currency_symbol: { type: 'string' },
        currency_code: { type: 'string' },
        currency_position: { enum: ['prefix', 'postfix', ''] },
        values: { type: 'array', items: { type: 'string' } },
      },
      required: ['currency_symbol', 'currency_code', 'currency_position', 'values'],
    },
    // §4.1: the venue object, or an empty array when there is none (or it is not shown).
    venue: { anyOf: [refTo('Venue'), emptyArray] },
    ...Object.fromEntries(
      ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'].map(
        (f) => [f, flag],
      ),
    ),
  },
  // §4.4, §4.5: the author id as a string.
  Venue: {
    author: zeroPadded,
    venue: nameOrEmpty,
    image: imageOrFalse,
    show_map: flag,
    show_map_link: flag,
  },
  Organizer: { author: zeroPadded, organizer: nameOrEmpty, image: imageOrFalse },
  // §4.7: `urls` is an object of links (documented as an array of strings).
  Term: { urls: { type: 'object', additionalProperties: { type: 'string' } } },
};

/** The schemas whose objects may carry no field beyond their declared properties. */
export const STRICT = [
  'Event',
  'Venue',
  'Organizer',
  'Term',
  'Image',
  'ImageSize',
  'DateDetails',
  'EventsArchive',
  'VenuesArchive',
  'OrganizersArchive',
  'CategoriesArchive',
  'TagsArchive',
  'Error',
];

/** OpenAPI 3.0 schema → JSON schema: `$ref` siblings are ignored, `nullable` admits null. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const schema = node as Schema;
  if (typeof schema.$ref === 'string') return { $ref: refOf(schema.$ref) };
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key === 'example' || key === 'title') continue;
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Schema).map(([name, sub]) => [name, toJsonSchema(sub)]),
      );
    } else out[key] = toJsonSchema(value);
  }
  if (schema.nullable === true && typeof schema.type === 'string') {
    out.type = [schema.type, 'null'];
  }
  delete out.nullable;
  return out;
}

const refOf = (ref: string) => (ref.startsWith('#/') ? `${DOC_ID}${ref}` : ref);
