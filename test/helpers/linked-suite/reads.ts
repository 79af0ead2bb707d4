import { TRAILING_KEYS, type LinkedSuiteScope, API, type Tec } from './scope.js';
import { wpError } from '../wp-error.js';

export function describeReads(s: LinkedSuiteScope): void {
  const { k, kind, plural, OTHER, ROUTE, t, http, as, create, named } = s;
  describe(`GET /${plural}/{id} and /${plural}/by-slug/{slug}`, () => {
    let published: Tec;
    let draft: Tec;
    let eventId: number;

    beforeAll(async () => {
      published = await create(t.users.editor, named('Readable record', { phone: '555' }));
      draft = await create(t.users.contributor, named('Draft record'));
      eventId = await t.insertEvent();
    });

    it('reads by id and by slug in the request language', async () => {
      const res = await http().get(`${ROUTE}/${published.id}`).expect(200);
      expect(res.body).toMatchObject(named('Readable record', { id: published.id, phone: '555' }));
      expect(res.body.json_ld['@type']).toBe(k.jsonLd.type);
      const bySlug = await http().get(`${ROUTE}/by-slug/readable-record`).expect(200);
      expect(bySlug.body.id).toBe(published.id);
      expect(bySlug.body.json_ld['@type']).toBe(k.jsonLd.type);
    });

    it(`answers the ${kind} with its json_ld (a ${k.jsonLd.type})`, async () => {
      const r = await create(t.users.editor, k.jsonLd.body);
      const res = await http().get(`${ROUTE}/${r.id}`).expect(200);
      expect(res.body.json_ld).toEqual({
        '@context': 'http://schema.org',
        '@type': k.jsonLd.type,
        ...k.jsonLd.expected(r),
      });
      const keys = Object.keys(res.body);
      expect(keys.slice(keys.indexOf('json_ld'))).toEqual([
        'json_ld',
        ...k.jsonLd.keysAfter,
        ...TRAILING_KEYS,
      ]);
    });

    it(`answers 400 for ids that are not ${plural}: events, the other kind's, unknown (§1.6)`, async () => {
      const other = await http()
        .post(`${API}/${OTHER}s`)
        .set(as(t.users.editor))
        .send({ [OTHER]: `Not a ${kind}` })
        .expect(201);
      for (const id of [eventId, other.body.id, 999999, 0]) {
        const res = await http().get(`${ROUTE}/${id}`).expect(400);
        expect(res.body).toEqual({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): id',
          data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
        });
      }
      await http().get(`${ROUTE}/by-slug/not-a-${kind}`).expect(400);
    });

    it('answers 400 for unknown slugs and 404 for non-numeric ids or an empty slug', async () => {
      const res = await http().get(`${ROUTE}/by-slug/nope`).expect(400);
      expect(res.body.data.params).toEqual({ slug: 'Invalid parameter.' });
      const route = await http().get(`${ROUTE}/abc`).expect(404);
      expect(route.body.code).toBe('rest_no_route');
      await http().get(`${ROUTE}/by-slug/`).expect(404);
    });

    it(`hides unpublished ${plural} from who may not read them (403 ${kind}-not-accessible)`, async () => {
      for (const headers of [{}, as(t.users.subscriber), as(t.users.author)]) {
        const res = await http().get(`${ROUTE}/${draft.id}`).set(headers).expect(403);
        expect(res.body).toEqual(
          wpError(403, `${kind}-not-accessible`, `The requested ${kind} is not accessible`),
        );
      }
      await http().get(`${ROUTE}/${draft.id}`).set(as(t.users.contributor)).expect(200);
      await http().get(`${ROUTE}/${draft.id}`).set(as(t.users.editor)).expect(200);
    });

    it(`lets editors read trashed ${plural} and hides them from the public`, async () => {
      const r = await create(t.users.editor, named('To trash for reading'));
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.editor)).expect(200);
      const res = await http().get(`${ROUTE}/${r.id}`).set(as(t.users.editor)).expect(200);
      expect(res.body.status).toBe('trash');
      await http().get(`${ROUTE}/${r.id}`).expect(403);
    });

    it('supports HEAD', async () => {
      await http().head(`${ROUTE}/${published.id}`).expect(200);
    });
  });
}
