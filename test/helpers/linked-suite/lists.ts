import type { Credentials } from '../auth.js';
import { type LinkedSuiteScope, idsOf } from './scope.js';
import { describeListsFilters } from './lists-filters.js';
import { wpError } from '../wp-error.js';

export function describeLists(s: LinkedSuiteScope): void {
  const { k, kind, plural, ROUTE, t, http, create, named } = s;
  describe(`GET /${plural} (lists, §5.1/§5.3)`, () => {
    // Lists use Romanian content only, so the other tests' records stay out of the counts.
    const RO = `/ro${ROUTE}`;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      const make = async (who: Credentials, body: Record<string, unknown>) =>
        (await create(who, body, '/ro')).id as number;
      ids.temple = await make(
        t.users.editor,
        named('Le Temple', { description: '100, Avenue du Temple', date: '2020-01-01 00:00:00' }),
      );
      ids.france = await make(
        t.users.editor,
        named('Ile record', { phone: 'France, Ile de France', date: '2020-01-02 00:00:00' }),
      );
      ids.plain = await make(t.users.editor, named('Plain', { date: '2020-01-03 00:00:00' }));
      ids.sameDateA = await make(t.users.editor, named('Same A', { date: '2020-01-04 00:00:00' }));
      ids.sameDateB = await make(t.users.editor, named('Same B', { date: '2020-01-04 00:00:00' }));
      ids.draftOfAuthor = await make(t.users.author, named('Author draft', { status: 'draft' }));
      ids.draftOfEditor = await make(t.users.editor, named('Editor draft', { status: 'draft' }));
    });

    it('answers the envelope with totals and headers, newest first', async () => {
      const res = await http().get(RO).expect(200);
      expect(Object.keys(res.body)).toEqual([plural, 'rest_url', 'total', 'total_pages']);
      expect(res.headers['x-tec-total']).toBe('5');
      expect(res.headers['x-tec-totalpages']).toBe('1');
      expect(res.body.total).toBe(5);
      expect(res.body.total_pages).toBe(1);
      expect(idsOf(res.body[plural])).toEqual([
        ids.sameDateB,
        ids.sameDateA,
        ids.plain,
        ids.france,
        ids.temple,
      ]);
      expect(res.body[plural][0]).not.toHaveProperty('json_ld');
      const url = new URL(res.body.rest_url);
      expect(url.pathname).toBe(`/ro/cal/events/v1/${plural}/`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        page: '1',
        per_page: '10',
        status: 'publish',
      });
    });

    it('pages with next/previous links and 404 past the last page', async () => {
      const p1 = await http().get(`${RO}?per_page=2`).expect(200);
      expect(p1.body.total_pages).toBe(3);
      expect(new URL(p1.body.next_rest_url).searchParams.get('page')).toBe('2');
      expect(p1.body).not.toHaveProperty('previous_rest_url');
      const p2 = await http().get(`${RO}?per_page=2&page=2`).expect(200);
      expect(Object.keys(p2.body)).toEqual([
        plural,
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      expect(new URL(p2.body.previous_rest_url).searchParams.has('page')).toBe(false);
      const p3 = await http().get(`${RO}?per_page=2&page=3`).expect(200);
      expect(p3.body[plural]).toHaveLength(1);
      expect(p3.body).not.toHaveProperty('next_rest_url');
      const past = await http().get(`${RO}?per_page=2&page=4`).expect(404);
      expect(past.body).toEqual(
        wpError(404, `${kind}-archive-page-not-found`, k.messages.roArchivePageNotFound),
      );
      const past2 = await http().get(`${ROUTE}?per_page=50&page=99`).expect(404);
      expect(past2.body.message).toBe(`The requested ${kind} archive page does not exist`);
      // Regression found by test/fuzz.e2e-spec.ts: an offset past int64 answered 500.
      const far = await http().get(`${ROUTE}?page=9223372036854775807`).expect(404);
      expect(far.body.code).toBe(`${kind}-archive-page-not-found`);
    });

    it('rejects bad paging and clamps per_page to 50', async () => {
      for (const q of ['per_page=0', 'page=0', 'page=x', 'per_page=1.5']) {
        const res = await http().get(`${RO}?${q}`).expect(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
      const res = await http().get(`${RO}?per_page=500`).expect(200);
      expect(new URL(res.body.rest_url).searchParams.get('per_page')).toBe('50');
    });

    it('answers an empty first page with 200 and zero totals', async () => {
      const res = await http().get(`${RO}?search=zzzzzz`).expect(200);
      expect(res.body).toMatchObject({ [plural]: [], total: 0, total_pages: 0 });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    describeListsFilters(s, { RO, ids });
  });
}
