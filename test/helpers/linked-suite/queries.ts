import { coldCaches, ownQueries } from '../query-counter.js';
import { type LinkedSuiteScope } from './scope.js';

export function describeQueries(s: LinkedSuiteScope): void {
  const { k, plural, ROUTE, t, http, as, named } = s;
  describe('no N+1', () => {
    it('lists a page in the same number of queries whatever the page and its size', async () => {
      for (let i = 0; i < 55; i++) {
        await http()
          .post(`/hu${ROUTE}`)
          .set(as(t.users.editor))
          .send(named(`Bulk ${i}`, { [k.detail]: 'Budapest', password: i % 2 ? 'x' : '' }))
          .expect(201);
      }
      const count = async (perPage: number, page = 1) => {
        await coldCaches(t.app); // cold: list totals are cached until the next write
        const spy = vi.spyOn(t.ds.logger, 'logQuery');
        const res = await http().get(`/hu${ROUTE}?per_page=${perPage}&page=${page}`).expect(200);
        expect(res.body[plural]).toHaveLength(perPage);
        const n = ownQueries(spy).length;
        spy.mockRestore();
        return n;
      };
      const five = await count(5);
      expect(await count(50)).toBe(five);
      expect(await count(5, 3)).toBe(five);
      expect(await count(5, 10)).toBe(five);
      // The total and the page (its ids from the archive index, then its rows, in one statement).
      expect(five).toBeLessThanOrEqual(3);
    });
  });
}
