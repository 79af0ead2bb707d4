import type { Request } from 'express';
import { withoutTrailingSlashes, type AppConfig } from '../../config/config.js';
import type { LangRequest } from '../i18n/language.js';

export const NAMESPACE = 'cal/events/v1';

/**
 * `{base}` of BEHAVIOR §1.9: SITE_URL + BASE_PATH + the language prefix the request came
 * through + `/cal/events/v1`. The only place REST links are built from.
 */
export function restBase(config: Pick<AppConfig, 'siteUrl' | 'basePath'>, req: Request): string {
  return `${config.siteUrl}${config.basePath}${(req as LangRequest).pathPrefix ?? ''}/${NAMESPACE}`;
}

/** `SITE_URL` + BASE_PATH + `/` — the REST root (the index's `_links.up`). */
export const restRoot = (config: Pick<AppConfig, 'siteUrl' | 'basePath'>) =>
  `${config.siteUrl}${config.basePath}/`;

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
