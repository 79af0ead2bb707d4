import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/config.js';
import { NAMESPACE, PLUGIN_NAMESPACE, WP_REST_ROOT, type RestRequest } from './links.js';

/** The path of the WordPress REST index controller (excluded from BASE_PATH, like /health). */
export const WP_INDEX_PATH = WP_REST_ROOT.slice(1);

/**
 * Express middleware, installed right after the language prefix is taken off: makes the
 * interface reachable the ways a WordPress site offers it (CONTRACT §6, BEHAVIOR §14), by
 * rewriting `req.url` onto the one set of routes Nest serves (`{BASE_PATH}/cal/events/v1/...`):
 *
 * - `?rest_route=/tribe/events/v1/events` on `/` or `/index.php` (sites without pretty
 *   permalinks) is the pretty path, for every route and method; `rest_route` leaves the query.
 *   The route is a path and nothing else, as WordPress matches it: a `?`, `#` or `%` inside it
 *   stays a character of a path segment (`/events/4?password=x` is no route), so that nothing
 *   from inside the parameter becomes a query parameter;
 * - `/wp-json/tribe/events/v1/...` and `{BASE_PATH}/tribe/events/v1/...` are the plugin's own
 *   namespace (unless PLUGIN_NAMESPACE_ALIAS=false): the request is marked, so that links and
 *   names in the answer are the plugin's;
 * - `/wp-json/cal/events/v1/...` is the namespace at WordPress's REST root, whatever BASE_PATH;
 * - `{BASE_PATH}/` is the WordPress REST index, served at `/wp-json/`;
 * - every answer carries WordPress's discovery header `Link: <{site}/wp-json/>; rel="https://api.w.org/"`.
 *
 * Paths are compared as text, case-insensitively as Express routes them; no pattern is built.
 */
export function wordpressRestRoot(
  config: Pick<AppConfig, 'siteUrl' | 'basePath' | 'pluginNamespaceAlias'>,
) {
  const link = `<${config.siteUrl}${WP_REST_ROOT}/>; rel="https://api.w.org/"`;
  const mounts: Array<{ root: string; namespace: typeof NAMESPACE | typeof PLUGIN_NAMESPACE }> = [];
  if (config.pluginNamespaceAlias) {
    for (const root of new Set([WP_REST_ROOT, config.basePath])) {
      mounts.push({ root, namespace: PLUGIN_NAMESPACE });
    }
  }
  if (config.basePath !== WP_REST_ROOT) mounts.push({ root: WP_REST_ROOT, namespace: NAMESPACE });
  const target = `${config.basePath}/${NAMESPACE}`;

  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Link', link);
    const r = req as RestRequest;
    const q = req.url.indexOf('?');
    let path = q < 0 ? req.url : req.url.slice(0, q);
    let query = q < 0 ? '' : req.url.slice(q);

    const route = restRouteParam(query);
    if (route !== undefined && (path === '/' || path.toLowerCase() === '/index.php')) {
      path = `${WP_REST_ROOT}${route.startsWith('/') ? '' : '/'}${asPath(route)}`;
      query = withoutRestRoute(query);
    }

    const lower = path.toLowerCase();
    if (
      config.basePath &&
      (lower === config.basePath.toLowerCase() || lower === `${config.basePath.toLowerCase()}/`)
    ) {
      req.url = `${WP_REST_ROOT}/${query}`;
      return next();
    }
    for (const { root, namespace } of mounts) {
      const prefix = `${root}/${namespace}`;
      if (lower.slice(0, prefix.length) !== prefix.toLowerCase()) continue;
      const rest = path.slice(prefix.length);
      if (rest && !rest.startsWith('/')) continue;
      r.restNamespace = namespace;
      if (root !== config.basePath) r.restRoot = root;
      req.url = `${target}${rest}${query}`;
      return next();
    }
    if (route !== undefined) req.url = `${path}${query}`;
    next();
  };
}

/** The `rest_route` query parameter, decoded, when the query string has one. */
function restRouteParam(query: string): string | undefined {
  for (const part of query.slice(1).split('&')) {
    const eq = part.indexOf('=');
    if (decodePart(eq < 0 ? part : part.slice(0, eq)) !== 'rest_route') continue;
    return eq < 0 ? '' : (decodePart(part.slice(eq + 1)) ?? '');
  }
  return undefined;
}

/**
 * The decoded route as the path of a URL: each segment encoded, so that its characters stay
 * that segment's (Express decodes them once again into the route's parameters).
 */
function asPath(route: string): string {
  return route.split('/').map(encodeURIComponent).join('/');
}

/** The query string without its `rest_route` parameters, every other part kept as sent. */
function withoutRestRoute(query: string): string {
  const kept = query
    .slice(1)
    .split('&')
    .filter((part) => {
      const eq = part.indexOf('=');
      return part !== '' && decodePart(eq < 0 ? part : part.slice(0, eq)) !== 'rest_route';
    });
  return kept.length ? `?${kept.join('&')}` : '';
}

function decodePart(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
