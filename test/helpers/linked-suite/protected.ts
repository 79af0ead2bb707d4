import { type LinkedSuiteScope, type Tec } from './scope.js';

export function describeProtected(s: LinkedSuiteScope): void {
  const { k, plural, NAME, ROUTE, t, http, as, create, named } = s;
  describe(`password-protected ${plural} (§4.11)`, () => {
    let r: Tec;
    beforeAll(async () => {
      r = await create(
        t.users.editor,
        named('Secret record', {
          description: 'Hidden text',
          website: 'https://secret.example',
          image: 'https://img.example.org/s.png',
          password: 'sesame',
          ...k.protectedFields.body,
        }),
      );
    });

    it('redacts the create response and single reads unless unlocked', async () => {
      expect(r).toMatchObject(
        named([], {
          description: '',
          website: '',
          image: false,
          slug: 'secret-record',
          ...k.protectedFields.redacted,
        }),
      );
      const res = await http().get(`${ROUTE}/${r.id}`).expect(200);
      expect(res.body).toMatchObject(named([], k.protectedFields.redacted));
      expect(res.body).not.toHaveProperty('json_ld');
      const wrong = await http().get(`${ROUTE}/${r.id}?password=Sesame`).expect(200);
      expect(wrong.body[NAME]).toEqual([]);
    });

    it('opens with the right password or context=edit for an editor of it', async () => {
      const open = await http().get(`${ROUTE}/${r.id}?password=sesame`).expect(200);
      expect(open.body).toMatchObject(named('Secret record', k.protectedFields.body));
      expect(open.body.json_ld.name).toBe('Secret record');
      const edit = await http()
        .get(`${ROUTE}/${r.id}?context=edit`)
        .set(as(t.users.editor))
        .expect(200);
      expect(edit.body[NAME]).toBe('Secret record');
      const notEditor = await http()
        .get(`${ROUTE}/${r.id}?context=edit`)
        .set(as(t.users.author))
        .expect(200);
      expect(notEditor.body[NAME]).toEqual([]);
    });

    it('redacts list items unless the list password matches', async () => {
      const nameIn = (list: Tec[]) => list.find((x) => x.id === r.id)?.[NAME];
      const list = await http().get(`${ROUTE}?search=Secret&per_page=50`).expect(200);
      expect(nameIn(list.body[plural])).toEqual([]);
      const open = await http()
        .get(`${ROUTE}?search=Secret&per_page=50&password=sesame`)
        .expect(200);
      expect(nameIn(open.body[plural])).toBe('Secret record');
    });

    it('removes the password with an empty string', async () => {
      await http()
        .post(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ password: '' })
        .expect(200);
      const res = await http().get(`${ROUTE}/${r.id}`).expect(200);
      expect(res.body[NAME]).toBe('Secret record');
    });
  });
}
