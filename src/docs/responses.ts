import { doc } from '../common/i18n/doc-key.js';
import type { Schema } from './schema.js';
import {
  archiveRef,
  LIST_ITEMS,
  object,
  RECURRENCE_PROPERTIES,
  schemaRef,
  type ListKind,
} from './schemas.js';
import { webhookResponses } from './webhook-schemas.js';
import { userResponses } from './user-schemas.js';

/**
 * The documented responses of every operation, by path and method (BEHAVIOR §3, with the
 * plugin's English texts). Declared here, not in the controllers, so that every resource is
 * documented the same way and each response carries its schema. Descriptions are i18n keys.
 */
type ResponseObject = Schema & { description: string };
export type Responses = Record<string, ResponseObject>;

const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const error = (key: string): ResponseObject => ({
  description: doc(`responses.${key}`),
  ...json(schemaRef('Error')),
});
const ok = (key: string, schema: Schema, extra: Schema = {}): ResponseObject => ({
  description: doc(`responses.${key}`),
  ...extra,
  ...json(schema),
});

const header = (key: string, type: string) => ({
  description: doc(`responses.headers.${key}`),
  schema: { type },
});
const LIST_HEADERS = {
  headers: {
    'X-TEC-Total': header('total', 'integer'),
    'X-TEC-TotalPages': header('total_pages', 'integer'),
  },
};

const isTerm = (kind: ListKind) => kind === 'categories' || kind === 'tags';

function list(kind: ListKind): Responses {
  return {
    '200': ok(`${kind}.list_200`, archiveRef(kind), LIST_HEADERS),
    '400': error('list_400'),
    '404': error(`${kind}.list_404`),
  };
}

function create(kind: ListKind): Responses {
  const item = schemaRef(LIST_ITEMS[kind]);
  // Terms answer a created term with its REST URL in `Location` (BEHAVIOR §7.6).
  const location = isTerm(kind) ? { headers: { Location: header('location', 'string') } } : {};
  return {
    '201': ok(`${kind}.create_201`, item, location),
    '400': error('write_400'),
    '401': error('unauthorized'),
    '403': error(`${kind}.write_403`),
  };
}

function read(kind: ListKind): Responses {
  return {
    '200': ok(`${kind}.get_200`, schemaRef(LIST_ITEMS[kind])),
    '400': error(`${kind}.get_400`),
    // Terms are public: the plugin documents no 403 for them.
    ...(isTerm(kind) ? {} : { '403': error(`${kind}.get_403`) }),
    '404': error(`${kind}.get_404`),
  };
}

/**
 * POST on an item documents both update (200) and create (201), as the plugin does; for
 * organizers the plugin documents the 201 only (BEHAVIOR §3). PUT and PATCH only update.
 */
function update(kind: ListKind, method: 'post' | 'put' | 'patch'): Responses {
  const item = schemaRef(LIST_ITEMS[kind]);
  const updated = method !== 'post' || kind !== 'organizers';
  return {
    ...(updated ? { '200': ok(`${kind}.update_200`, item) } : {}),
    ...(method === 'post' ? { '201': ok(`${kind}.create_201`, item) } : {}),
    '400': error('write_400'),
    '401': error('unauthorized'),
    '403': error(`${kind}.write_403`),
  };
}

/**
 * DELETE answers the trashed record (a term: the deleted one); with `force=true` a record in the
 * trash is deleted for good and answered as WordPress does, `{deleted, previous}` (CONTRACT §3).
 */
function remove(kind: ListKind): Responses {
  const item = schemaRef(LIST_ITEMS[kind]);
  const forced = object(
    { deleted: { type: 'boolean', enum: [true] }, previous: item },
    { required: ['deleted', 'previous'], additionalProperties: false },
  );
  return {
    '200': ok(`${kind}.delete_200`, isTerm(kind) ? item : { oneOf: [item, forced] }),
    '400': error(`${kind}.delete_400`),
    '401': error('unauthorized'),
    '403': error(`${kind}.delete_403`),
    '410': error(`${kind}.delete_410`),
    '500': error(`${kind}.delete_500`),
  };
}

/** The iCalendar feeds (src/feeds): a text/calendar body, the errors of the JSON route. */
function calendar(isList: boolean): Responses {
  const body = { content: { 'text/calendar': { schema: { type: 'string' } } } };
  if (isList) {
    return {
      '200': { description: doc('feeds.list_200'), ...body },
      '400': error('list_400'),
    };
  }
  return {
    '200': { description: doc('feeds.get_200'), ...body },
    '400': error('events.get_400'),
    '401': error('unauthorized'),
    '403': error('events.get_403'),
    '404': error('events.get_404'),
  };
}

/** The recurrence preview (CONTRACT §9): the payload's `recurrence` of a series not yet saved. */
const recurrencePreview = (): Responses => ({
  '200': ok(
    'recurrence_200',
    object(RECURRENCE_PROPERTIES, { description: 'events.doc.preview.answer' }),
  ),
  '400': error('recurrence_400'),
  '401': error('unauthorized'),
  '403': error('recurrence_403'),
});

const PATH = /^\/(events|venues|organizers|categories|tags)(\/\{id\}|\/by-slug\/\{slug\})?$/;

/** The responses of `method` on `path` (relative to the namespace), or undefined if unknown. */
export function responsesFor(path: string, method: string): Responses | undefined {
  if (path === '/' && method === 'get') {
    return {
      '200': { description: doc('root.ok'), ...json(schemaRef('NamespaceIndex')) },
      '404': error('root_404'),
    };
  }
  if (path === '/doc' && method === 'get') {
    const openapi = { type: 'object', description: doc('schemas.openapi') };
    return { '200': { description: doc('doc.ok'), ...json(openapi) } };
  }
  if ((path === '/events.ics' || path === '/events/{id}.ics') && method === 'get') {
    return calendar(path === '/events.ics');
  }
  if (path === '/recurrence' && method === 'get') return recurrencePreview();
  if (path === '/webhooks' || path.startsWith('/webhooks/')) return webhookResponses(path, method);
  if (path === '/users' || path.startsWith('/users/')) return userResponses(path, method);
  const match = PATH.exec(path);
  if (!match) return undefined;
  const kind = match[1] as ListKind;
  if (!match[2]) {
    if (method === 'get') return list(kind);
    if (method === 'post') return create(kind);
    return undefined;
  }
  switch (method) {
    case 'get':
      return read(kind);
    case 'post':
    case 'put':
    case 'patch':
      return update(kind, method);
    case 'delete':
      return remove(kind);
    default:
      return undefined;
  }
}
