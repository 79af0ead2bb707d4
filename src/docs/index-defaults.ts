/**
 * What the namespace index shows as "applied by default" for a route (BEHAVIOR §2): the values a
 * resource fills in for this very request, e.g. the events list's date window. Resources do not
 * export them to docs; the application hands them over when it composes the modules
 * (`DocsModule.register`), so docs depends on no resource.
 */
export type IndexDefaults = Readonly<
  Record<string, (siteTimezone: string, now: Date) => Record<string, string>>
>;

export const INDEX_DEFAULTS = Symbol('INDEX_DEFAULTS');

/** Each route's defaults for a request at `now`. */
export function indexDefaultsAt(
  defaults: IndexDefaults,
  siteTimezone: string,
  now: Date,
): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(defaults).map(([route, of]) => [route, of(siteTimezone, now)]),
  );
}
