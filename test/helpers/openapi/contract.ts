import { appendFileSync } from 'node:fs';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import {
  AS_SENT,
  COMPONENT_REF,
  DOC_ID,
  STRICT,
  dateDetails,
  toJsonSchema,
  type Schema,
} from './as-sent.js';

/** One OpenAPI document as the judge of responses: see ../openapi-contract.ts. */

// ajv-formats is CommonJS: its function is `.default` under Node's ESM and under the test runner alike.
const addFormats = addFormatsModule.default;

const NAMESPACE_PATH = /^(?:.*?)\/(?:cal|tribe)\/events\/v1(\/.*)?$/;

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

function record(line: string) {
  const file = process.env.OPENAPI_CONTRACT_STATS;
  if (file) appendFileSync(file, `${line}\n`);
}
