import { appendFileSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Test } from 'supertest';
import { DocsService } from '../../src/docs/docs.service.js';

/**
 * The OpenAPI document is the judge of every e2e response: each response that supertest gets
 * from an app built by `createTestApp` is validated against the schema that the app's own
 * document gives for its operation (path template + method) and status. A body that does not
 * match fails the request's assertion, like a wrong `.expect(...)` would, naming the operation,
 * the status and where the body differs.
 *
 * - Only the namespace (`cal/events/v1`, and `tribe/events/v1` whose payloads have the same
 *   shape) is judged, whatever the language prefix or `BASE_PATH` before it.
 * - Answers without a body (204, 304) are not judged.
 * - A status the operation does not document: an error (4xx/5xx) must still be the WordPress
 *   error body (`Error`); a success takes the schema of the operation's other success (the
 *   plugin documents only 201 on organizer POST, BEHAVIOR §3). An unknown path under the
 *   namespace is judged as an error only.
 * - The plugin's documentation says some fields are of another type than it sends (BEHAVIOR §3
 *   keeps those quirks in the document; §4 lists what is sent): AS_SENT below relaxes exactly
 *   those fields, each to the shape §4 gives, and nothing else.
 *
 * `OPENAPI_CONTRACT_STATS=/path/file` appends one line per judged response
 * (`METHOD path status how`) to count what a run validated.
 */

type Schema = Record<string, unknown>;

// ajv-formats is CommonJS: its function is `.default` under Node's ESM and under the test runner alike.
const addFormats = addFormatsModule.default;

const DOC_ID = 'https://contract.test/openapi.json';
const NAMESPACE_PATH = /^(?:.*?)\/(?:cal|tribe)\/events\/v1(\/.*)?$/;
const COMPONENT_REF = '#/components/schemas/';

const zeroPadded = { type: 'string', pattern: '^[0-9]+$' };
const dateDetails = {
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
const AS_SENT: Record<string, Record<string, Schema>> = {
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
const STRICT = [
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
function toJsonSchema(node: unknown): unknown {
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

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export class Contract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ path: string; pattern: RegExp }>;

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    for (const format of ['double', 'float', 'int32', 'int64']) this.ajv.addFormat(format, true);
    const schemas = toJsonSchema(document.components?.schemas ?? {}) as Record<string, Schema>;
    for (const [name, fields] of Object.entries(AS_SENT)) {
      const properties = schemas[name]?.properties as Record<string, Schema> | undefined;
      if (!properties) throw new Error(`openapi-contract: no schema ${name} in the document`);
      for (const [field, schema] of Object.entries(fields)) {
        if (name !== 'DateDetails' && !(field in properties))
          throw new Error(`openapi-contract: ${name} documents no ${field}`);
        properties[field] = toJsonSchema(schema) as Schema;
      }
    }
    if (schemas.DateDetails) schemas.DateDetails.required = dateDetails.required;
    // Strict: a record or envelope that carries a field its schema does not declare fails, so a
    // field reaches the payload only through the schema list (src/docs/schemas.ts).
    for (const name of STRICT) {
      const schema = schemas[name];
      if (!schema?.properties)
        throw new Error(`openapi-contract: no schema ${name} in the document`);
      schema.additionalProperties = false;
    }
    this.ajv.addSchema({ $id: DOC_ID, components: { schemas } });
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/\{[^}/]+\}/g, '[^/]+').replace(/\//g, '\\/')}$`),
      }))
      // Literal segments first: `/events/by-slug/{slug}` before anything with more parameters,
      // and `/events/{id}.ics` before `/events/{id}` (more literal text is more specific).
      .sort(
        (a, b) =>
          countParams(a.path) - countParams(b.path) ||
          literalLength(b.path) - literalLength(a.path),
      );
  }

  /** An Error when the response contradicts the document, otherwise undefined. */
  check(method: string, url: string, status: number, contentType: string, body: unknown) {
    const path = namespacePath(url);
    if (path === undefined || method === 'HEAD' || method === 'OPTIONS') return undefined;
    // Only answers with a body are judged: not 304 Not Modified (response cache), 204, 1xx/3xx.
    if (status === 204 || (status < 400 && (status < 200 || status >= 300))) return undefined;
    const template = this.templates.find((t) => t.pattern.test(path))?.path;
    const operation = template
      ? ((this.document.paths[template] as Record<string, Operation>)[method.toLowerCase()] ??
        undefined)
      : undefined;
    const label = `${method} ${template ?? path} ${status}`;
    // Content negotiation: a list asked for as text/calendar answers as its `.ics` route does.
    if (template && status < 400 && /^text\/calendar\b/i.test(contentType)) {
      const ics = (
        this.document.paths[template.endsWith('.ics') ? template : `${template}.ics`] as
          Record<string, Operation> | undefined
      )?.[method.toLowerCase()];
      if (ics?.responses?.[String(status)]?.content?.['text/calendar']) return undefined;
      return new Error(
        `OpenAPI contract: ${label} answered ${contentType} without a documented .ics route`,
      );
    }
    const documented = operation?.responses?.[String(status)];
    let schema = documented?.content?.['application/json']?.schema;
    let how = 'documented';
    if (!schema) {
      if (documented && status < 400) return undefined;
      if (status >= 400) {
        schema = { $ref: `${COMPONENT_REF}Error` };
        how = documented
          ? 'error-without-schema'
          : operation
            ? 'undocumented-error'
            : 'unknown-route-error';
      } else if (operation) {
        const other = Object.entries(operation.responses ?? {}).find(
          ([code, r]) => code.startsWith('2') && r.content?.['application/json']?.schema,
        );
        schema = other?.[1].content?.['application/json']?.schema;
        if (!other || !schema) return new Error(`OpenAPI contract: ${label} is not documented`);
        how = `as-${other[0]}`;
      } else return undefined;
    }
    record(`${method} ${template ?? '(unknown)'} ${status} ${how}`);
    if (!/^application\/json\b/i.test(contentType)) {
      return new Error(`OpenAPI contract: ${label} answered ${contentType || 'no content type'}`);
    }
    const validate = this.validator(schema);
    if (validate(body)) return undefined;
    const problems = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) =>
        e.keyword === 'additionalProperties'
          ? `${e.instancePath || '(body)'} has the undocumented field "${String(
              (e.params as { additionalProperty?: unknown }).additionalProperty,
            )}"`
          : `${e.instancePath || '(body)'} ${e.message ?? ''} (is ${shown(body, e.instancePath)})`,
      )
      .join('; ');
    return new Error(
      `OpenAPI contract: the ${label} body does not match its documented schema: ${problems}`,
    );
  }

  private validator(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as Schema);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** The value at a JSON pointer of `body`, shortened for an error message. */
function shown(body: unknown, pointer: string): string {
  let node = body;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  const text = JSON.stringify(node) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const countParams = (path: string) => (path.match(/\{/g) ?? []).length;
const literalLength = (path: string) => path.replace(/\{[^}/]+\}/g, '').length;

/** The path under the namespace (`/` for its root), from the path or `?rest_route=`. */
function namespacePath(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://localhost');
  } catch {
    return undefined;
  }
  const match =
    NAMESPACE_PATH.exec(parsed.pathname) ??
    NAMESPACE_PATH.exec(parsed.searchParams.get('rest_route') ?? '');
  if (!match) return undefined;
  const rest = (match[1] ?? '').replace(/\/+$/, '');
  return rest || '/';
}

/**
 * How the server reads the request (src/common/http/wp-conventions.ts): the method a POST names
 * with `_method` or `X-HTTP-Method-Override`, or undefined when the client reshaped the answer
 * itself (`_fields`, `_envelope`): the document describes whole answers, and those reshaped ones
 * have tests of their own (test/events/wp-conventions.e2e-spec.ts).
 */
function judgedMethod(
  method: string,
  url: string,
  headers: Record<string, unknown> | undefined,
): string | undefined {
  let query: URLSearchParams;
  try {
    query = new URL(url, 'http://localhost').searchParams;
  } catch {
    return method;
  }
  if (query.has('_fields') || query.has('_envelope')) return undefined;
  if (method !== 'POST') return method;
  const asked = query.get('_method') ?? headers?.['x-http-method-override'];
  return typeof asked === 'string' ? asked.toUpperCase() : method;
}

function record(line: string) {
  const file = process.env.OPENAPI_CONTRACT_STATS;
  if (file) appendFileSync(file, `${line}\n`);
}

const contracts = new Map<object, Contract>();

/**
 * The judge of a supertest target: the app's server, or a URL of a server an app listens on
 * (`request('http://127.0.0.1:PORT')` after `app.listen(0)`).
 */
function contractOf(target: unknown): Contract | undefined {
  if (typeof target !== 'string') return contracts.get(target as object);
  let port: number;
  try {
    port = Number(new URL(target).port);
  } catch {
    return undefined;
  }
  for (const [server, contract] of contracts) {
    const address = (server as { address?: () => unknown }).address?.();
    if (address && typeof address === 'object' && (address as { port?: number }).port === port)
      return contract;
  }
  return undefined;
}

/** The judge of `app`'s responses (for tests of the judge itself). */
export function openApiContractOf(app: INestApplication): Contract | undefined {
  return contracts.get(app.getHttpServer() as object);
}

/**
 * Judges by document: apps with the same document (most test files build the default app) share
 * one judge and the validators it compiled, for as long as the worker runs.
 */
const judgesByDocument = new Map<string, Contract>();

/** Judges every supertest response of `app` by its own OpenAPI document from now on. */
export function judgeByOpenApi(app: INestApplication): void {
  const document = app.get(DocsService).get('en');
  const key = JSON.stringify(document);
  let contract = judgesByDocument.get(key);
  if (!contract) judgesByDocument.set(key, (contract = new Contract(document)));
  contracts.set(app.getHttpServer() as object, contract);
}

/** Stops judging `app` (it is closed). */
export function forgetOpenApi(app: INestApplication): void {
  contracts.delete(app.getHttpServer() as object);
}

interface TestInternals {
  app: unknown;
  method: string;
  url: string;
  /** superagent's headers as set, by lower-case name. */
  _header?: Record<string, unknown>;
}
type Response = {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
  text?: string;
};
type Callback = (this: unknown, err: unknown, res: unknown) => void;

const proto = Test.prototype as unknown as {
  assert(this: TestInternals, resError: unknown, res: unknown, fn?: Callback): void;
  __openApiContract?: boolean;
};

if (!proto.__openApiContract) {
  proto.__openApiContract = true;
  // Called below with the Test as `this`: the original method, wrapped.
  // oxlint-disable-next-line typescript/unbound-method
  const assert = proto.assert;
  proto.assert = function (this: TestInternals, resError, res, fn) {
    const contract = contractOf(this.app);
    if (!contract) return assert.call(this, resError, res, fn);
    const { url } = this;
    const method = judgedMethod(this.method, url, this._header);
    return assert.call(this, resError, res, function (this: unknown, err, response) {
      let error = err;
      const r = response as Response | undefined;
      if (!error && r && method) {
        error = contract.check(method, url, r.status, r.headers['content-type'] ?? '', r.body);
      }
      fn?.call(this, error ?? null, response);
    });
  };
}
