/** One argument of an endpoint as WordPress's index describes it. */
export interface EndpointArg {
  default?: unknown;
  description?: string;
  type?: unknown;
  format?: unknown;
  items?: unknown;
  enum?: unknown;
  required: boolean;
}

/**
 * What the namespace index shows of an argument is what the plugin declares for it (BEHAVIOR §2):
 * WordPress copies the JSON-schema keywords of the declaration (`type`, `format`, `items`, ...).
 * The OpenAPI document says more than that: arguments the plugin types with its documentation-
 * only `swagger_type` have no `type` in the index, its only `format`s are the ones below, and it
 * declares no `enum` (the index's `i18n_language` and `language` are this service's own).
 * Keys: `METHOD path` of the route table (src/docs/route-table.ts).
 */
const EVENT_WRITE_SWAGGER_TYPED = ['cost', 'website', 'categories', 'tags', 'venue', 'organizer'];
const LINKED_LIST_SWAGGER_TYPED = ['has_events', 'only_with_upcoming', 'status'];

const SWAGGER_TYPED: Record<string, ReadonlySet<string>> = {
  // TEC Archive_Event::READ_ARGS
  'GET /events': new Set([
    'start_date',
    'end_date',
    'starts_before',
    'starts_after',
    'ends_before',
    'ends_after',
    'strict_dates',
    'categories',
    'tags',
    'venue',
    'organizer',
    'status',
    'geoloc_lat',
    'geoloc_lng',
    'include',
  ]),
  // TEC Single_Event::CREATE_ARGS / EDIT_ARGS
  'POST /events': new Set(EVENT_WRITE_SWAGGER_TYPED),
  'POST /events/{id}': new Set(EVENT_WRITE_SWAGGER_TYPED),
  'POST /events/by-slug/{slug}': new Set(EVENT_WRITE_SWAGGER_TYPED),
  // TEC Archive_Venue / Archive_Organizer
  'GET /venues': new Set(LINKED_LIST_SWAGGER_TYPED),
  'GET /organizers': new Set(LINKED_LIST_SWAGGER_TYPED),
  // TEC Archive_Category / Archive_Tag
  'GET /categories': new Set(['exclude', 'include']),
  'GET /tags': new Set(['exclude', 'include']),
  // WordPress's own index route declares no types.
  'GET ': new Set(['namespace', 'context']),
};

const FORMATS: Record<string, Record<string, string>> = {
  'GET /events': { status: 'string', geoloc_lat: 'double', geoloc_lng: 'double' },
  'GET /venues': { status: 'string' },
  'GET /organizers': { status: 'string' },
};

const OWN_ENUMS = new Set(['i18n_language', 'language']);

/** `arg` of argument `name` of endpoint `method path` as WordPress's index prints it. */
export function asDeclared(
  method: string,
  path: string,
  name: string,
  arg: EndpointArg,
): EndpointArg {
  const key = `${method} ${path}`;
  const { type, format: _format, enum: values, required, ...rest } = arg;
  const out: Record<string, unknown> = { ...rest };
  if (type !== undefined && !SWAGGER_TYPED[key]?.has(name)) out.type = type;
  const format = FORMATS[key]?.[name];
  if (format !== undefined) out.format = format;
  if (values !== undefined && OWN_ENUMS.has(name)) out.enum = values;
  // Keyword order as BEHAVIOR §2 lists it, `required` last.
  const ordered: Record<string, unknown> = {};
  for (const k of ['default', 'description', 'type', 'format', 'items', 'enum']) {
    if (k in out) ordered[k] = out[k];
  }
  return { ...ordered, required };
}
