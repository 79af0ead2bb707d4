import type { INestApplication } from '@nestjs/common';
import { Test } from 'supertest';
import { DocsService } from '../../src/docs/docs.service.js';
import { Contract } from './openapi/contract.js';

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
 *   keeps those quirks in the document; §4 lists what is sent): AS_SENT (openapi/as-sent.ts)
 *   relaxes exactly those fields, each to the shape §4 gives, and nothing else.
 *
 * `OPENAPI_CONTRACT_STATS=/path/file` appends one line per judged response
 * (`METHOD path status how`) to count what a run validated.
 */

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
