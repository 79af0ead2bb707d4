/**
 * The namespace's routes in WordPress registration order (BEHAVIOR §2), each with its endpoint
 * method groups and the OpenAPI path that documents it. The index lists the ones this build
 * registers; new modules add their rows here.
 */
export interface RouteRow {
  /** WordPress route pattern under the namespace, e.g. `/events/(?P<id>\d+)`. */
  pattern: string;
  /** OpenAPI path under the namespace, e.g. `/events/{id}`. */
  path: string;
  groups: string[][];
}

const ITEM = [['GET'], ['DELETE'], ['POST', 'PUT', 'PATCH']];
const TERM_ITEM = [['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']];
const ID = '(?P<id>\\d+)';
const SLUG = 'by-slug/(?P<slug>[^/]+)';

export const ROUTE_TABLE: RouteRow[] = [
  { pattern: '', path: '', groups: [['GET']] },
  { pattern: '/doc', path: '/doc', groups: [['GET']] },
  { pattern: '/events', path: '/events', groups: [['GET'], ['POST']] },
  { pattern: `/events/${ID}`, path: '/events/{id}', groups: ITEM },
  { pattern: `/events/${SLUG}`, path: '/events/by-slug/{slug}', groups: ITEM },
  { pattern: '/venues', path: '/venues', groups: [['GET'], ['POST']] },
  { pattern: `/venues/${ID}`, path: '/venues/{id}', groups: ITEM },
  { pattern: `/venues/${SLUG}`, path: '/venues/by-slug/{slug}', groups: ITEM },
  { pattern: '/organizers', path: '/organizers', groups: [['GET'], ['POST']] },
  { pattern: `/organizers/${ID}`, path: '/organizers/{id}', groups: ITEM },
  { pattern: `/organizers/${SLUG}`, path: '/organizers/by-slug/{slug}', groups: ITEM },
  { pattern: '/categories', path: '/categories', groups: [['GET'], ['POST']] },
  { pattern: `/categories/${ID}`, path: '/categories/{id}', groups: TERM_ITEM },
  { pattern: '/tags', path: '/tags', groups: [['GET'], ['POST']] },
  { pattern: `/tags/${ID}`, path: '/tags/{id}', groups: TERM_ITEM },
  // This service's own routes (CONTRACT "Webhooks", §9 "Preview"), never under the plugin's namespace.
  { pattern: '/recurrence', path: '/recurrence', groups: [['GET']] },
  { pattern: '/webhooks', path: '/webhooks', groups: [['GET'], ['POST']] },
  { pattern: `/webhooks/${ID}`, path: '/webhooks/{id}', groups: TERM_ITEM },
  {
    pattern: `/webhooks/${ID}/rotate-secret`,
    path: '/webhooks/{id}/rotate-secret',
    groups: [['POST']],
  },
  { pattern: `/webhooks/${ID}/deliveries`, path: '/webhooks/{id}/deliveries', groups: [['GET']] },
  {
    pattern: `/webhooks/${ID}/deliveries/(?P<delivery>\\d+)/replay`,
    path: '/webhooks/{id}/deliveries/{delivery}/replay',
    groups: [['POST']],
  },
  // CONTRACT §2 "Users": WordPress's /wp/v2/users and its application passwords.
  { pattern: '/users', path: '/users', groups: [['GET'], ['POST']] },
  { pattern: `/users/${ID}`, path: '/users/{id}', groups: TERM_ITEM },
  {
    pattern: `/users/${ID}/application-passwords`,
    path: '/users/{id}/application-passwords',
    groups: [['GET'], ['POST']],
  },
  {
    pattern: `/users/${ID}/application-passwords/(?P<uuid>[\\w-]+)`,
    path: '/users/{id}/application-passwords/{uuid}',
    groups: [['DELETE']],
  },
];

/** Paths of this service's own routes, left out of the plugin's namespace (CONTRACT §6). */
export const isServiceOnlyPath = (path: string) =>
  path === '/recurrence' ||
  path === '/webhooks' ||
  path.startsWith('/webhooks/') ||
  path === '/users' ||
  path.startsWith('/users/');
