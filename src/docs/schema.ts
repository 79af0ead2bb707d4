/** A JSON schema of the OpenAPI document, as the hand-written schema lists build it. */
export type Schema = Record<string, unknown>;

/** A reference to a schema of the document's components. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A response object of the document: its description and what it holds. */
export type ResponseObject = Schema & { description: string };

/** A JSON body of `schema`. */
const jsonBody = (schema: Schema) => ({ content: { 'application/json': { schema } } });

/**
 * The response objects of an administrators' resource (users, webhooks), described by the
 * resource's `responses.<key>` doc keys: `ok` (a body of the named schema), `error` (an Error
 * body), and the refusals every route (`guarded`) and every route of one record (`item`) answer.
 */
export function adminResponses(doc: (key: string) => string) {
  const ok = (key: string, schema: string): ResponseObject => ({
    description: doc(`responses.${key}`),
    ...jsonBody(ref(schema)),
  });
  const error = (key: string): ResponseObject => ({
    description: doc(`responses.${key}`),
    ...jsonBody(ref('Error')),
  });
  const guarded = { '401': error('unauthorized'), '403': error('forbidden') };
  return { ok, error, guarded, item: { ...guarded, '404': error('not_found') } };
}

/** The documented responses of a route by a table of them keyed `<method> <path>`; undefined if none. */
export const routeResponses =
  (table: Record<string, Record<string, ResponseObject>>) =>
  (path: string, method: string): Record<string, ResponseObject> | undefined => {
    const key = `${method} ${path}`;
    return Object.hasOwn(table, key) ? table[key] : undefined;
  };
