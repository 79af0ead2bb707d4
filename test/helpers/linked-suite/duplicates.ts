import { type LinkedSuiteScope } from './scope.js';

export function describeDuplicates(s: LinkedSuiteScope): void {
  const { k, kind, ROUTE, t, http, as, create, named } = s;
  describe('duplicates (§7.4.2)', () => {
    it(`returns the existing ${kind} for the same name (and description), updating its details`, async () => {
      const first = await create(
        t.users.editor,
        named('A record', { description: 'A record description', [k.detail]: 'Old', phone: '1' }),
      );
      for (const body of [
        named('A record', { description: 'A record description' }),
        named('A record'),
        named('a record', { description: 'a record description' }),
        named('A RECORD', { phone: '123', website: 'https://dup.example' }),
      ]) {
        const again = await create(t.users.editor, body);
        expect(again.id).toBe(first.id);
      }
      const got = await http().get(`${ROUTE}/${first.id}`).expect(200);
      expect(got.body).toMatchObject(
        named('A record', {
          description: '<p>A record description</p>',
          [k.detail]: 'Old',
          phone: '123',
          website: 'https://dup.example',
        }),
      );
      const changed = await create(t.users.editor, named('a record', { [k.detail]: 'New' }));
      expect(changed).toMatchObject({ id: first.id, [k.detail]: 'New' });
      const other = await create(t.users.editor, named('A record', { description: 'Another one' }));
      expect(other.id).not.toBe(first.id);
    });

    it(`never reuses a trashed ${kind} or one the caller may not see`, async () => {
      const trashed = await create(t.users.editor, named('Gone record'));
      await http().delete(`${ROUTE}/${trashed.id}`).set(as(t.users.editor)).expect(200);
      const fresh = await create(t.users.editor, named('Gone record'));
      expect(fresh.id).not.toBe(trashed.id);

      const hidden = await create(t.users.contributor, named('Hidden draft'));
      const mine = await create(t.users.author, named('Hidden draft', { [k.detail]: 'Elsewhere' }));
      expect(mine.id).not.toBe(hidden.id);
    });

    it(`links a visible ${kind} of someone else without changing it`, async () => {
      const editors = await create(t.users.editor, named('Shared one', { [k.detail]: 'Pécs' }));
      const again = await create(t.users.contributor, named('Shared one', { [k.detail]: 'Győr' }));
      expect(again.id).toBe(editors.id);
      expect(again[k.detail]).toBe('Pécs');
    });
  });
}
