import { type LinkedSuiteScope } from './scope.js';

export function describeUpdates(s: LinkedSuiteScope): void {
  const { k, kind, plural, NAME, ROUTE, t, http, as, create, named } = s;
  describe(`POST|PUT|PATCH /${plural}/{id} — partial updates (CONTRACT §6)`, () => {
    it('changes only the given fields, on all three methods', async () => {
      const r = await create(
        t.users.editor,
        named('Updatable', {
          description: 'Keep me',
          [k.detail]: 'Debrecen',
          image: 'https://img.example.org/keep.gif',
        }),
      );
      const res = await http()
        .post(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ phone: '06 1 234' })
        .expect(200);
      expect(res.body).toMatchObject(
        named('Updatable', {
          id: r.id,
          description: '<p>Keep me</p>',
          [k.detail]: 'Debrecen',
          phone: '06 1 234',
          status: 'publish',
          image: { url: 'https://img.example.org/keep.gif', id: r.image.id, extension: 'gif' },
        }),
      );
      const put = await http()
        .put(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send(named('Renamed', { [k.detail]: '' }))
        .expect(200);
      expect(put.body[NAME]).toBe('Renamed');
      expect(put.body).not.toHaveProperty(k.detail);
      expect(put.body.slug).toBe('updatable');
      const patch = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ description: '', image: '', phone: '' })
        .expect(200);
      expect(patch.body.description).toBe('<p>Keep me</p>');
      expect(patch.body).not.toHaveProperty('image');
      expect(patch.body).not.toHaveProperty('phone');
    });

    // Regressions found by test/fuzz.e2e-spec.ts: these answered 500.
    it('treats null as an absent field (as WordPress does) and rejects unstorable dates', async () => {
      const r = await create(
        t.users.editor,
        named('Null-proof', { [k.detail]: 'Pécs', author: null, website: null }),
      );
      const res = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send(named(null, { [k.detail]: null, date: null, author: null, phone: '1' }))
        .expect(200);
      expect(res.body).toMatchObject(named('Null-proof', { [k.detail]: 'Pécs', phone: '1' }));
      for (const date of ['0000-00-00', '-0001-01-01']) {
        const bad = await http()
          .post(ROUTE)
          .set(as(t.users.editor))
          .send(named('Dated', { date_utc: date }))
          .expect(400);
        expect(bad.body.data.params).toEqual({
          date_utc: 'date_utc is outside the years 1 to 9999.',
        });
      }
      const bad = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ date: '0000-00-00' })
        .expect(400);
      expect(bad.body.data.params).toEqual({ date: 'date is outside the years 1 to 9999.' });
    });

    it('publishes a draft with a slug and a publication date', async () => {
      const r = await create(t.users.contributor, named('Draft to publish'));
      const res = await http()
        .post(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ status: 'publish' })
        .expect(200);
      expect(res.body.status).toBe('publish');
      expect(res.body.slug).toBe('draft-to-publish');
      expect(res.body.date_utc).not.toBe('0000-00-00 00:00:00');
    });

    it('validates the id, then the fields, before permissions', async () => {
      const r = await create(t.users.editor, named('Guarded'));
      const eventId = await t.insertEvent();
      const notOfKind = await http().post(`${ROUTE}/${eventId}`).send({}).expect(400);
      expect(notOfKind.body.data.params).toEqual({ id: 'Invalid parameter.' });
      const empty = await http().post(`${ROUTE}/${r.id}`).send(named('')).expect(400);
      expect(empty.body.data.params).toEqual({ [NAME]: 'Invalid parameter.' });
      await http().post(`${ROUTE}/${r.id}`).send({ phone: 'x' }).expect(401);
      await http().post(`${ROUTE}/${r.id}`).set(as(t.users.subscriber)).send({}).expect(403);
      await http().post(`${ROUTE}/${r.id}`).set(as(t.users.author)).send({}).expect(403);
      await http().post(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).send({}).expect(403);
    });

    it(`lets contributors edit their own unpublished ${plural} only`, async () => {
      const own = await create(t.users.contributor, named('Contributor own'));
      const res = await http()
        .post(`${ROUTE}/${own.id}`)
        .set(as(t.users.contributor))
        .send({ [k.detail]: 'Szeged', status: 'publish' })
        .expect(200);
      expect(res.body).toMatchObject({ [k.detail]: 'Szeged', status: 'pending' });
      await http()
        .post(`${ROUTE}/${own.id}`)
        .set(as(t.users.editor))
        .send({ status: 'publish' })
        .expect(200);
      await http()
        .post(`${ROUTE}/${own.id}`)
        .set(as(t.users.contributor))
        .send({ [k.detail]: 'x' })
        .expect(403);
    });

    it(`updates by slug (the path slug identifies the ${kind})`, async () => {
      await create(t.users.author, named('Sluggy'));
      const res = await http()
        .patch(`${ROUTE}/by-slug/sluggy`)
        .set(as(t.users.author))
        .send({ phone: '7621' })
        .expect(200);
      expect(res.body).toMatchObject({ slug: 'sluggy', phone: '7621' });
      const put = await http()
        .put(`${ROUTE}/by-slug/sluggy`)
        .set(as(t.users.author))
        .send(named('Sluggy renamed'))
        .expect(200);
      expect(put.body).toMatchObject(named('Sluggy renamed', { slug: 'sluggy', phone: '7621' }));
      const unknown = await http().post(`${ROUTE}/by-slug/unknown-slug`).send({}).expect(400);
      expect(unknown.body.data.params).toEqual({ slug: 'Invalid parameter.' });
    });
  });
}
