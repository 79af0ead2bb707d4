import { type LinkedSuiteScope } from './scope.js';
import { createRoleUsers } from '../auth.js';
import { wpError } from '../wp-error.js';

export function describeDeletes(s: LinkedSuiteScope): void {
  const { k, kind, plural, ROUTE, t, http, as, create, named } = s;
  describe(`DELETE /${plural}/{id}`, () => {
    it(`moves the ${kind} to trash, unlinks it from every event, and answers 410 the second time`, async () => {
      const r = await create(t.users.author, named('Trashable', { [k.detail]: 'Eger' }));
      const events = [
        await t.insertEvent({ linked: [r.id] }),
        await t.insertEvent({ linked: [r.id], status: 'draft' }),
      ];
      const other = await create(t.users.author, named('Stays linked'));
      const kept = await t.insertEvent({ linked: [other.id] });

      const res = await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.author)).expect(200);
      expect(res.body).toMatchObject({
        id: r.id,
        status: 'trash',
        slug: 'trashable',
        [k.detail]: 'Eger',
      });
      for (const e of events) expect(await k.linkedTo(t.ds, e)).toEqual([]);
      expect(await k.linkedTo(t.ds, kept)).toEqual([other.id]);

      const again = await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.author)).expect(410);
      expect(again.body).toEqual(
        wpError(410, `${kind}-is-in-trash`, `The ${kind} is already trashed`),
      );
    });

    it('checks the id before permissions and ownership after', async () => {
      const r = await create(t.users.editor, named('Not yours'));
      const eventId = await t.insertEvent();
      await http().delete(`${ROUTE}/999999`).expect(400);
      await http().delete(`${ROUTE}/${eventId}`).expect(400);
      await http().delete(`${ROUTE}/${r.id}`).expect(401);
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(403);
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.author)).expect(403);
    });

    it('lets a contributor trash an own draft (and get 410 after)', async () => {
      const r = await create(t.users.contributor, named('Contributor trash'));
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(200);
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(410);
    });

    // Authorization matrix: a trashed record counts as unpublished for its contributor.
    it(`lets a contributor still update an own trashed ${kind} (another contributor may not)`, async () => {
      const r = await create(t.users.contributor, named('Contributor trash edit'));
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(200);
      const res = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.contributor))
        .send({ [k.detail]: 'Pécs' })
        .expect(200);
      expect(res.body).toMatchObject({ status: 'trash', [k.detail]: 'Pécs' });
      const peer = await createRoleUsers(t.app, `-${kind}-trash`);
      await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(peer.contributor))
        .send({ [k.detail]: 'x' })
        .expect(403);
    });

    it('deletes by slug', async () => {
      await create(t.users.editor, named('Slug trash'));
      const res = await http()
        .delete(`${ROUTE}/by-slug/slug-trash`)
        .set(as(t.users.editor))
        .expect(200);
      expect(res.body.status).toBe('trash');
      await http().delete(`${ROUTE}/by-slug/slug-trash`).set(as(t.users.editor)).expect(410);
      await http().delete(`${ROUTE}/by-slug/never-was`).expect(400);
    });
  });
}
