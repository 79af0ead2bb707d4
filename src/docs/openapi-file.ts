/**
 * The OpenAPI documents are committed under `docs/openapi/{lang}.json` (`npm run docs:openapi`
 * writes them, test/openapi-drift.e2e-spec.ts fails when the served ones differ), so that a
 * change of the contract shows up in review as a diff of the document.
 *
 * They are the documents as served at `/{lang}/cal/events/v1/doc` by a server with these
 * settings: `SITE_URL` only shows in `servers`, and no other setting changes the document.
 */
export const OPENAPI_FILE_ENV: Readonly<Record<string, string>> = {
  SITE_URL: 'http://localhost:3000',
  BASE_PATH: '',
  DEFAULT_LANGUAGE: 'en',
  SITE_TIMEZONE: 'UTC',
};

/**
 * The file text of a document: pretty-printed with two spaces and a final newline, keys in the
 * order the server writes them (the plugin's order, BEHAVIOR §3), which is deterministic, so the
 * text is stable and a reordering is a visible change too.
 */
export function serializeOpenApi(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
