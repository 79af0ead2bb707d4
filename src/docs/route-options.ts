import type { NextFunction, Request, Response } from 'express';
import { withoutTrailingSlashes, type AppConfig } from '../config/config.js';
import { NAMESPACE, namespaceOf, restBase } from '../common/http/links.js';
import { languageOf } from '../common/i18n/language.js';
import type { DocsService } from './docs.service.js';
import { indexDefaultsAt, type IndexDefaults } from './index-defaults.js';
import { ROUTE_TABLE } from './route-table.js';

/**
 * `OPTIONS` on a route of the namespace answers the route's description as WordPress does
 * (`rest_handle_options_request`, `get_data_for_route` in its `help` context): `namespace`,
 * `methods`, and `endpoints` with each endpoint's `args` (type, required, default, enum, the
 * description in the request's language), the same entry the namespace index lists, with an
 * `Allow` header naming the methods. A CORS preflight (it carries
 * `Access-Control-Request-Method`) is still the CORS middleware's empty 204; an `OPTIONS` on a
 * path no route serves is `404 rest_no_route`, as any unrouted request. Installed after the CORS
 * middleware (which sets its headers and lets OPTIONS through) and after rest-root.ts (both
 * namespaces, `?rest_route=` and the language prefixes arrive as the one path checked here).
 */
export function routeOptions(
  docs: DocsService,
  config: Pick<AppConfig, 'basePath' | 'siteUrl' | 'siteTimezone'>,
  defaults: IndexDefaults,
) {
  const prefix = `${config.basePath}/${NAMESPACE}`.toLowerCase();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'OPTIONS') return next();
    if (req.headers['access-control-request-method'] !== undefined) {
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    const path = req.path;
    if (path.slice(0, prefix.length).toLowerCase() !== prefix) return next();
    const rest = withoutTrailingSlashes(path.slice(prefix.length));
    if (rest && !rest.startsWith('/')) return next();
    const row = ROUTE_TABLE.find((r) => matches(r.pattern, rest));
    if (!row) return next();
    const namespace = namespaceOf(req);
    const routes = docs.routes(
      languageOf(req),
      restBase(config, req),
      indexDefaultsAt(defaults, config.siteTimezone, new Date()),
      namespace,
    );
    const route = routes[`/${namespace}${row.pattern}`] as
      { methods: string[]; _links?: unknown } | undefined;
    // A route of ours the plugin's namespace does not have (webhooks).
    if (!route) return next();
    // The `help` context of WordPress has no links.
    const { _links, ...description } = route;
    res.setHeader('Allow', route.methods.join(', '));
    res.status(200).json(description);
  };
}

/**
 * Whether the path under the namespace matches a WordPress route pattern of ROUTE_TABLE,
 * compared segment by segment (case-insensitively, as paths are routed here): `(?P<id>\d+)`
 * takes digits, any other `(?P<name>…)` a non-empty segment. No pattern is built from input.
 */
function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return false;
  return want.every((segment, i) => {
    const part = have[i];
    if (!segment.startsWith('(?P<')) return segment.toLowerCase() === part.toLowerCase();
    if (segment.includes('\\d+'))
      return part !== '' && [...part].every((c) => c >= '0' && c <= '9');
    return part !== '';
  });
}
