import { type LinkedSuiteScope } from './scope.js';

/** More of creates: its tests, run inside its describe block. */
export function describeCreatesChecks(s: LinkedSuiteScope): void {
  const { k, plural, NAME, ROUTE, t, http, as, create, named } = s;
  it('rejects JSON values of the wrong type for string fields (§1.3)', async () => {
    const res = await http()
      .post(ROUTE)
      .set(as(t.users.editor))
      .send(named('Typed', { phone: 123, [k.typed]: 20500 }))
      .expect(400);
    const reason = (field: string) => `${field} is not of type string.`;
    expect(res.body).toEqual({
      code: 'rest_invalid_param',
      message: expect.stringMatching(/^Invalid parameter\(s\): /),
      data: {
        status: 400,
        params: { phone: reason('phone'), [k.typed]: reason(k.typed) },
        details: Object.fromEntries(
          ['phone', k.typed].map((field) => [
            field,
            { code: 'rest_invalid_type', message: reason(field), data: { param: field } },
          ]),
        ),
      },
    });
    const site = await http()
      .post(ROUTE)
      .send(named('x', { website: 'foo' }))
      .expect(400);
    expect(site.body.data.params).toEqual({
      website: 'website must be an http or https URL, such as https://example.org/.',
    });
  });

  it.each([
    ['website', 'foo'],
    ['image', 23],
    ['image', '23'],
    ['image', 'not a url'],
    ['status', 'trash'],
    ['status', 'foo'],
    ['date', 'before my birthday'],
    ['date_utc', '2024-13-01'],
    ['author', 'abc'],
    ['author', 999999],
  ])('rejects %s = %p with 400', async (field, value) => {
    const res = await http()
      .post(ROUTE)
      .send(named('Bad', { [field]: value }))
      .expect(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual([field]);
  });

  it('names the allowed statuses in the status reason', async () => {
    const res = await http()
      .post(ROUTE)
      .send(named('x', { status: 'foo' }));
    expect(res.body.data.params.status).toBe(
      'status is not one of publish, future, draft, pending, private.',
    );
  });

  // CONTRACT §2: only editors and administrators create records of others.
  it(`lets only editors and administrators create ${plural} of other users`, async () => {
    for (const user of [t.users.author, t.users.contributor]) {
      const res = await http()
        .post(ROUTE)
        .set(as(user))
        .send(named('For the editor', { author: t.users.editor.id }))
        .expect(403);
      expect(res.body.code).toBe('rest_cannot_create');
    }
    await create(
      t.users.author,
      named('Author private own', { author: t.users.author.id, status: 'private' }),
    );
    const forAuthor = await create(
      t.users.editor,
      named('Editor for author', { author: t.users.author.id, status: 'private' }),
    );
    expect(forAuthor).toMatchObject({ author: String(t.users.author.id), status: 'private' });
  });

  it('lets only uploaders set an image URL (contributor → 400)', async () => {
    const res = await http()
      .post(ROUTE)
      .set(as(t.users.contributor))
      .send(named('With image', { image: 'https://img.example.org/x.png' }))
      .expect(400);
    expect(res.body.data.params).toEqual({ image: 'Invalid parameter.' });
  });

  it('accepts form-encoded bodies', async () => {
    const res = await http()
      .post(ROUTE)
      .set(as(t.users.editor))
      .type('form')
      .send(named('Form record', { phone: '1051', [k.detail]: 'Formed' }))
      .expect(201);
    expect(res.body).toMatchObject(named('Form record', { phone: '1051', [k.detail]: 'Formed' }));
  });

  it('localizes error messages', async () => {
    const res = await http().post(`/hu${ROUTE}`).send({}).expect(400);
    expect(res.body.message).toBe(`Hiányzó paraméter(ek): ${NAME}`);
  });
}
