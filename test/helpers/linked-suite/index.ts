import { type LinkedSuiteScope, API } from './scope.js';

export function describeIndex(s: LinkedSuiteScope): void {
  const { k, kind, NAME, ROUTE, http } = s;
  describe('namespace index', () => {
    it(`lists the ${kind} routes with their args, localized`, async () => {
      const res = await http().get(API).expect(200);
      const list = res.body.routes[ROUTE];
      expect(list.methods).toEqual(['GET', 'POST']);
      expect(Object.keys(list.endpoints[0].args)).toEqual([
        'page',
        'per_page',
        'search',
        'event',
        'has_events',
        'only_with_upcoming',
        'status',
        'i18n_language',
      ]);
      expect(list.endpoints[0].args.per_page.description).toBe(k.messages.perPage.en);
      expect(list.endpoints[1].args[NAME]).toMatchObject({ type: 'string', required: true });
      expect(list.endpoints[1].args[k.detail]).toMatchObject({ default: null, required: false });
      const item = res.body.routes[`${ROUTE}/(?P<id>\\d+)`];
      expect(item.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      expect(item.endpoints[0].args.id).toMatchObject({ type: 'integer', required: true });
      expect(item.endpoints[2].args[NAME].required).toBe(false);
      const slug = res.body.routes[`${ROUTE}/by-slug/(?P<slug>[^/]+)`];
      expect(slug.endpoints[0].args.slug).toMatchObject({ type: 'string', required: true });
      const hu = await http().get(`/hu${API}`).expect(200);
      expect(hu.body.routes[ROUTE].endpoints[0].args.per_page.description).toBe(
        k.messages.perPage.hu,
      );
    });
  });
}
