import type { Request } from 'express';

/**
 * The route template that answered a request (`/cal/events/v1/events/:id`), never the URL itself,
 * or null when no route did (404s, early refusals). Nest applies middleware for every path
 * through a route of its own (`/*path`, under BASE_PATH too): a request left with that one
 * reached no handler. Metrics and traces label requests by it.
 */
export function routeTemplates(basePath: string): (req: Request) => string | null {
  const wildcards = new Set(['/*path', `${basePath}/*path`]);
  return (req) => {
    const path = (req.route as { path?: unknown } | undefined)?.path;
    return typeof path === 'string' && !wildcards.has(path) ? path : null;
  };
}
