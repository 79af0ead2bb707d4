import type { Request } from 'express';
import { withoutTrailingSlashes, type AppConfig } from '../../config/config.js';
import type { LangRequest } from '../i18n/language.js';

export const NAMESPACE = 'cal/events/v1';
/** The plugin's own namespace, served as an alias of NAMESPACE (CONTRACT §6, rest-root.ts). */
export const PLUGIN_NAMESPACE = 'tribe/events/v1';
export type RestNamespace = typeof NAMESPACE | typeof PLUGIN_NAMESPACE;
/** WordPress's REST root: the plugin's clients find the API at `{site}/wp-json/`. */
export const WP_REST_ROOT = '/wp-json';

/** What rest-root.ts records on a request that came through the WordPress REST root or the alias. */
export interface RestRequest extends Request {
  /** The namespace the client addressed (NAMESPACE unless it came through the alias). */
  restNamespace?: RestNamespace;
  /** The REST root the request came through (`/wp-json`, BASE_PATH), when not BASE_PATH. */
  restRoot?: string;
}

export const namespaceOf = (req: Request): RestNamespace =>
  (req as RestRequest).restNamespace ?? NAMESPACE;

/**
 * `{base}` of BEHAVIOR §1.9: SITE_URL + the REST root (BASE_PATH, or `/wp-json` when the request
 * came through it) + the language prefix the request came through + the namespace the client
 * addressed (`/cal/events/v1`, or `/tribe/events/v1` under the alias). The only place REST
 * links are built from.
 */
export function restBase(config: Pick<AppConfig, 'siteUrl' | 'basePath'>, req: Request): string {
  const root = (req as RestRequest).restRoot ?? config.basePath;
  return `${config.siteUrl}${root}${(req as LangRequest).pathPrefix ?? ''}/${namespaceOf(req)}`;
}

/**
 * `SITE_URL` + BASE_PATH (or `/wp-json` when the request came through it) + `/` — the REST root
 * (the index's `_links.up`).
 */
export const restRoot = (config: Pick<AppConfig, 'siteUrl' | 'basePath'>, req?: Request) =>
  `${config.siteUrl}${(req as RestRequest | undefined)?.restRoot ?? config.basePath}/`;

/** `host[+path]?id=N` (BEHAVIOR §1.9): no scheme, no port. */
export function globalId(siteUrl: string, id: number): string {
  const url = new URL(siteUrl);
  const path = withoutTrailingSlashes(url.pathname);
  return `${url.hostname}${path}?id=${id}`;
}

/** A query string with form encoding (`a=1&b=x%20y`), skipping undefined values. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return q.toString();
}
