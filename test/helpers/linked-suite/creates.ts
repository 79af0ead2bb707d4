import { LEADING_KEYS, TRAILING_KEYS, type LinkedSuiteScope } from './scope.js';
import { describeCreatesChecks } from './creates-checks.js';
import { wpError } from '../wp-error.js';

export function describeCreates(s: LinkedSuiteScope): void {
  const { k, kind, plural, NAME, A, ROUTE, t, http, as, create, named } = s;
  describe(`POST /${plural}`, () => {
    it(`creates ${A} ${kind} and answers 201 with the ${kind} object, empty fields dropped`, async () => {
      const res = await http().post(ROUTE).set(as(t.users.author)).send(k.create.body).expect(201);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      const r = res.body;
      expect(Object.keys(r)).toEqual([
        ...LEADING_KEYS,
        NAME,
        ...k.create.ownKeys,
        ...TRAILING_KEYS,
      ]);
      expect(r).toMatchObject({
        author: String(t.users.author.id),
        status: 'publish',
        url: `http://cal.test/${kind}/${k.create.slug}/`,
        slug: k.create.slug,
        global_id: `cal.test?id=${r.id}`,
        global_id_lineage: [`cal.test?id=${r.id}`],
        ...k.create.expected,
      });
      expect(r.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(r.date_utc).toBe(r.date);
      expect(r).not.toHaveProperty('json_ld');
      expect(r).not.toHaveProperty('rest_url');
    });

    it(`stores contributors’ ${plural} as drafts without a slug or UTC date (§7.1.6, §7.1.2)`, async () => {
      const r = await create(
        t.users.contributor,
        named('Contributor record', { status: 'publish' }),
      );
      expect(r.status).toBe('pending');
      expect(r.date_utc).toBe('0000-00-00 00:00:00');
      expect(r).not.toHaveProperty('slug');
      expect(r.url).toBe(`http://cal.test/?post_type=cal_${kind}&p=${r.id}`);
      const d = await create(t.users.contributor, named('Contributor draft'));
      expect(d).toMatchObject({ status: 'draft', date_utc: '0000-00-00 00:00:00' });
    });

    it('schedules a publish with a future date and keeps given dates', async () => {
      const later = await create(t.users.author, named('Later', { date: '2099-01-01 10:00:00' }));
      expect(later).toMatchObject({
        status: 'future',
        date: '2099-01-01 10:00:00',
        date_utc: '2099-01-01 10:00:00',
      });
      const past = await create(
        t.users.author,
        named('Older', { date_utc: '2020-05-06 07:08:09' }),
      );
      expect(past).toMatchObject({ status: 'publish', date: '2020-05-06 07:08:09' });
      const ts = await create(t.users.author, named('Timestamp', { date: '1700000000' }));
      expect(ts.date_utc).toBe('2023-11-14 22:13:20');
    });

    it('stores an image URL as given and returns {url, id, extension}', async () => {
      const r = await create(
        t.users.author,
        named('Pictured', { image: 'https://img.example.org/a/b/photo.JPG?x=1' }),
      );
      expect(r.image).toEqual({
        url: 'https://img.example.org/a/b/photo.JPG?x=1',
        id: expect.any(Number),
        extension: 'JPG',
      });
      // The image record of the URL (BEHAVIOR §4.6), not the record's own id.
      expect(r.image.id).not.toBe(r.id);
    });

    it('belongs to the request language', async () => {
      const r = await create(t.users.editor, named(`Magyar ${kind}`), '/hu');
      const hu = await http().get(`/hu${ROUTE}/by-slug/${r.slug}`).expect(200);
      expect(hu.body.id).toBe(r.id);
      await http().get(`${ROUTE}/by-slug/${r.slug}`).expect(400);
      await http().get(`${ROUTE}/${r.id}`).expect(200);
    });

    it('validates before checking permissions', async () => {
      const missing = await http().post(ROUTE).send({ description: 'x' }).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: `Missing parameter(s): ${NAME}`,
        data: { status: 400, params: { [NAME]: 'Missing parameter.' } },
      });
      const empty = await http().post(ROUTE).send(named('')).expect(400);
      expect(empty.body.data.params).toEqual({ [NAME]: 'Invalid parameter.' });
      await http().post(ROUTE).send(named('Fine')).expect(401);
      const res = await http()
        .post(ROUTE)
        .set(as(t.users.subscriber))
        .send(named('Fine'))
        .expect(403);
      expect(res.body).toEqual(
        wpError(403, 'rest_forbidden', 'Sorry, you are not allowed to do that.'),
      );
    });

    describeCreatesChecks(s);
  });
}
