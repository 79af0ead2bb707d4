import type { OpenAPIObject } from '@nestjs/swagger';
import { NAMESPACE } from '../common/http/links.js';
import { LANGUAGES } from '../config/config.js';
import { doc } from '../common/i18n/doc-key.js';
import { responsesFor } from './responses.js';
import { ROUTE_TABLE } from './route-table.js';
import type { Schema } from './schema.js';
import { SERVICE_SCHEMAS, TEC_SCHEMAS } from './schemas.js';

type Parameter = Schema & {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
};
export type Operation = Schema & {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, Schema>;
};
export type PathItem = Partial<Record<Method, Operation>>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

const PREFIX = `/${NAMESPACE}`;
const WRITES = new Set<Method>(['post', 'put', 'patch', 'delete']);
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** The document path of a route-table path: the namespace root is `/`. */
export const documentPath = (routePath: string) => routePath || '/';

/**
 * The OpenAPI document of the namespace in the plugin's shape (BEHAVIOR §3), built from the one
 * Nest generates from the controllers' decorators. Pure: `raw` is not modified. Descriptions stay
 * i18n keys; `translateDocument` turns them into one document per language.
 *
 * - top-level keys in the plugin's order: openapi, info, components, servers, paths (then tags);
 * - `paths` relative to the namespace, in registration order (route-table.ts; the index `/`
 *   after the plugin's paths), methods in the order of their endpoint groups;
 * - PUT and PATCH, which the controllers may leave undocumented as aliases of POST, are
 *   documented like POST: the document lists every route and method the app serves;
 * - every operation takes `i18n_language`, has the responses of responses.ts with their schemas,
 *   and says whether HTTP Basic credentials are required (writes) or optional (reads).
 */
export function buildTecDocument(raw: OpenAPIObject): OpenAPIObject {
  const source = structuredClone(raw);
  const schemes = (source.components?.securitySchemes ?? {}) as unknown as Record<string, Schema>;
  const basic = Object.keys(schemes).find((name) => schemes[name].scheme === 'basic') ?? 'basic';

  const found = new Map<string, PathItem>();
  for (const [path, item] of Object.entries(source.paths)) {
    const rest = path.slice(PREFIX.length);
    if (!path.startsWith(PREFIX) || (rest && !rest.startsWith('/'))) continue;
    found.set(documentPath(rest), item as PathItem);
  }

  const paths: Record<string, PathItem> = {};
  const seen = new Set<string>();
  const rows = [...ROUTE_TABLE.filter((r) => r.path), ...ROUTE_TABLE.filter((r) => !r.path)];
  for (const row of rows) {
    const path = documentPath(row.path);
    const item = found.get(path);
    if (!item) continue;
    const order = [...row.groups.flat().map((m) => m.toLowerCase() as Method), ...METHODS];
    for (const group of row.groups) {
      const [first, ...aliases] = group.map((m) => m.toLowerCase() as Method);
      for (const alias of aliases) {
        if (item[first] && !item[alias]) item[alias] = aliasOf(item[first], alias);
      }
    }
    paths[path] = orderMethods(item, order);
    seen.add(path);
  }
  // Routes the table does not know yet still belong in the document.
  for (const [path, item] of found) {
    if (!seen.has(path)) paths[path] = orderMethods(item, [...METHODS]);
  }

  const tags: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      item[method] = shapeOperation(path, method, op, basic);
      for (const tag of op.tags ?? []) if (!tags.includes(tag)) tags.push(tag);
    }
  }

  const schemas: Record<string, Schema> = { ...TEC_SCHEMAS, ...SERVICE_SCHEMAS };
  for (const [name, schema] of Object.entries(source.components?.schemas ?? {})) {
    if (!(name in schemas)) schemas[name] = describeProperties(schema as Schema);
  }

  return {
    openapi: source.openapi,
    info: {
      version: source.info.version,
      title: source.info.title,
      description: source.info.description,
    },
    components: { schemas, securitySchemes: schemes },
    // Replaced for each request by DocsService.forRequest (BEHAVIOR §3: the request's base).
    servers: [{ url: `${PREFIX}/` }],
    paths,
    tags: tags.map((name) => ({ name, description: doc(`tags.${name}`) })),
  } as unknown as OpenAPIObject;
}

function aliasOf(operation: Operation, method: Method): Operation {
  const copy = structuredClone(operation);
  if (copy.operationId) copy.operationId = `${copy.operationId}_${method}`;
  return copy;
}

function orderMethods(item: PathItem, order: Method[]): PathItem {
  const ordered: PathItem = {};
  for (const method of order) if (item[method]) ordered[method] = item[method];
  return ordered;
}

function shapeOperation(path: string, method: Method, op: Operation, basic: string): Operation {
  const { summary, description, operationId, tags, parameters, requestBody, responses, ...rest } =
    op;
  delete rest.security;
  const shaped: Operation = {
    summary,
    ...(description !== undefined && { description }),
    operationId,
    tags,
    parameters: shapeParameters(parameters ?? []),
    ...(requestBody && { requestBody: shapeBody(requestBody) }),
    responses: responsesFor(path, method) ?? withDescriptions(responses ?? {}),
    // Writes need credentials; reads work without them and show more with them (CONTRACT §2).
    security: WRITES.has(method) ? [{ [basic]: [] }] : [{}, { [basic]: [] }],
    ...rest,
  };
  return Object.fromEntries(Object.entries(shaped).filter(([, v]) => v !== undefined));
}

/**
 * Parameter keys in the plugin's order (`in`, `schema`, `description`, `required`, `name`),
 * comma-separated lists as `style: form, explode: false`, `i18n_language` on every operation.
 */
function shapeParameters(parameters: Parameter[]): Parameter[] {
  const all = parameters.some((p) => p.name === 'i18n_language')
    ? parameters
    : [...parameters, languageParameter()];
  return all.map(({ in: where, schema, description, required, name, style, explode, ...rest }) => {
    const list = where === 'query' && schema?.type === 'array';
    return {
      in: where,
      schema: schema && allowNullDefault(schema),
      description: description || doc('common.no_description'),
      required: !!required,
      name,
      ...(list ? { style: 'form', explode: false } : {}),
      ...(style !== undefined && { style }),
      ...(explode !== undefined && { explode }),
      ...rest,
    };
  });
}

function languageParameter(): Parameter {
  return {
    in: 'query',
    schema: { type: 'string', enum: [...LANGUAGES] },
    description: doc('common.i18n_language'),
    required: false,
    name: 'i18n_language',
  };
}

/** Bodies are read as JSON and as forms alike (BEHAVIOR §1.2). */
function shapeBody(body: NonNullable<Operation['requestBody']>): Operation['requestBody'] {
  const schema = body.content?.[JSON_TYPE]?.schema ?? body.content?.[FORM]?.schema;
  if (!schema) return body;
  return { ...body, content: { [JSON_TYPE]: { schema }, [FORM]: { schema } } };
}

function describeProperties(schema: Schema): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return schema;
  for (const [name, property] of Object.entries(properties)) {
    if (!property.description && !property.$ref) {
      property.description = doc('common.no_description');
    }
    properties[name] = allowNullDefault(property);
  }
  return schema;
}

/**
 * `"default": null` is how the plugin marks optional fields (BEHAVIOR §2) and the index shows
 * it; OpenAPI 3.0 only allows it on a `nullable` schema.
 */
function allowNullDefault(schema: Schema): Schema {
  return schema.default === null && !schema.nullable ? { ...schema, nullable: true } : schema;
}

function withDescriptions(responses: Record<string, Schema>): Record<string, Schema> {
  for (const response of Object.values(responses)) {
    if (!response.description) response.description = doc('common.no_description');
  }
  return responses;
}
