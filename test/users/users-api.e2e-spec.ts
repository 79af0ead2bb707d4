import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { UsersService } from '../../src/auth/users/users.service.js';
import { basic, createRoleUsers, inSession, logIn, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';

const API = '/cal/events/v1';

/**
 * The users routes (CONTRACT §2 "Users"): administrators manage users, console passwords and
 * application passwords with WordPress's `/wp/v2/users` names; everybody else is refused.
 */
describe('users routes (e2e)', () => {
  let app: NestExpressApplication;
  let server: ReturnType<NestExpressApplication['getHttpServer']>;
  let users: RoleUsers;
  const admin = () => users.administrator.header;

  beforeAll(async () => {
    app = await createTestApp();
    server = app.getHttpServer();
    users = await createRoleUsers(app, 'u');
  });
  afterAll(() => closeApp(app));

  it('lists users with WordPress field names and totals, and never a password or hash', async () => {
    const res = await request(server)
      .get(`${API}/users?per_page=2`)
      .set('Authorization', admin())
      .expect(200);
    expect(res.headers['x-wp-total']).toBe(
      String(
        await app
          .get(UsersService)
          .list()
          .then((l) => l.length),
      ),
    );
    expect(res.body).toHaveLength(2);
    expect(Object.keys(res.body[0]).sort()).toEqual(
      [
        'email',
        'has_console_password',
        'id',
        'name',
        'registered_date',
        'roles',
        'username',
      ].sort(),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password_hash/);
    await request(server)
      .get(`${API}/users?page=999`)
      .set('Authorization', admin())
      .expect(400)
      .expect((r) => expect(r.body.code).toBe('rest_invalid_page_number'));
  });

  it('creates a contributor with a console password, who then logs in to the console', async () => {
    const res = await request(server)
      .post(`${API}/users`)
      .set('Authorization', admin())
      .send({
        username: 'newcontrib',
        name: 'New Contributor',
        email: 'newcontrib@example.org',
        roles: ['contributor'],
        password: 'a console password',
      })
      .expect(201);
    expect(res.body).toMatchObject({
      username: 'newcontrib',
      name: 'New Contributor',
      email: 'newcontrib@example.org',
      roles: ['contributor'],
      has_console_password: true,
    });
    expect(res.body).not.toHaveProperty('password');
    const login = await request(server)
      .post('/admin/session')
      .send({ login: 'newcontrib', password: 'a console password' })
      .expect(200);
    expect(login.body.user).toMatchObject({ login: 'newcontrib', role: 'contributor' });
    // The console password does not open HTTP Basic.
    await request(server)
      .get(`${API}/events`)
      .set('Authorization', basic('newcontrib', 'a console password'))
      .expect(401);
  });

  it('refuses bad input with localized 400s, before the permission check', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'username'],
      [{ username: 'bad login!' }, 'username'],
      [{ username: 'x'.repeat(61) }, 'username'],
      [{ username: 'okname', email: 'nope' }, 'email'],
      [{ username: 'okname', roles: ['king'] }, 'roles'],
      [{ username: 'okname', roles: ['editor', 'author'] }, 'roles'],
      [{ username: 'okname', password: 'short' }, 'password'],
      [{ username: 'okname', password: 'p'.repeat(1001) }, 'password'],
      [{ username: 'okname', name: 'n'.repeat(251) }, 'name'],
      [{ username: 42 }, 'username'],
    ];
    for (const [body, param] of cases) {
      for (const header of [admin(), users.editor.header]) {
        const res = await request(server)
          .post(`/hu${API}/users`)
          .set('Authorization', header)
          .send(body);
        expect([res.status, Object.keys(res.body.data?.params ?? {})]).toEqual([400, [param]]);
        expect(res.body.code).toMatch(/^rest_(invalid|missing_callback)_param$/);
      }
    }
    const short = await request(server)
      .post(`/ro${API}/users`)
      .set('Authorization', admin())
      .send({ username: 'okname', password: 'short' });
    expect(short.body.data.params.password).toBe(
      'password trebuie să aibă cel puțin 12 caractere (fără spații).',
    );
    const taken = await request(server)
      .post(`/hu${API}/users`)
      .set('Authorization', admin())
      .send({ username: 'editoru' })
      .expect(400);
    expect(taken.body).toMatchObject({ code: 'existing_user_login', data: { status: 400 } });
    expect(taken.body.message).toContain('„editoru”');
  });

  it('answers 401/403 to everyone but administrators, with WordPress codes', async () => {
    const target = users.subscriber.id;
    const routes: Array<[string, string, string, Record<string, unknown>?]> = [
      ['get', '/users', 'rest_forbidden'],
      ['post', '/users', 'rest_cannot_create_user', { username: 'someone' }],
      ['get', `/users/${target}`, 'rest_forbidden'],
      ['post', `/users/${target}`, 'rest_cannot_edit', { name: 'X' }],
      ['delete', `/users/${target}`, 'rest_user_cannot_delete'],
      ['get', `/users/${target}/application-passwords`, 'rest_cannot_list_application_passwords'],
      [
        'post',
        `/users/${target}/application-passwords`,
        'rest_cannot_create_application_passwords',
        { name: 'app' },
      ],
      [
        'delete',
        `/users/${target}/application-passwords/00000000-0000-4000-8000-000000000000`,
        'rest_cannot_delete_application_password',
      ],
    ];
    for (const [method, path, code, body] of routes) {
      for (const role of ['anonymous', 'subscriber', 'contributor', 'author', 'editor'] as const) {
        let call = request(server)[method as 'get'](`${API}${path}`);
        if (role !== 'anonymous') call = call.set('Authorization', users[role].header);
        const res = await (body ? call.send(body) : call);
        expect([method, path, role, res.status, res.body.code]).toEqual([
          method,
          path,
          role,
          role === 'anonymous' ? 401 : 403,
          code,
        ]);
      }
    }
    // Not under the plugin's namespace.
    await request(server)
      .get('/wp-json/tribe/events/v1/users')
      .set('Authorization', admin())
      .expect(404);
  });

  it('updates name, e-mail, role and console password; the username cannot change', async () => {
    const id = users.author.id;
    const res = await request(server)
      .patch(`${API}/users/${id}`)
      .set('Authorization', admin())
      .send({ name: 'Renamed', email: 'renamed@example.org', roles: 'editor' })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      email: 'renamed@example.org',
      roles: ['editor'],
    });
    // The new role counts at the next request.
    await request(server)
      .post(`${API}/categories`)
      .set('Authorization', users.author.header)
      .send({ name: 'Made by a promoted author' })
      .expect(201);
    await request(server)
      .put(`${API}/users/${id}`)
      .set('Authorization', admin())
      .send({ username: 'authoru', roles: ['author'] })
      .expect(200);
    const renamed = await request(server)
      .post(`${API}/users/${id}`)
      .set('Authorization', admin())
      .send({ username: 'someoneelse' })
      .expect(400);
    expect(renamed.body.code).toBe('rest_user_invalid_argument');
    // A console password given by the route opens the console and ends older sessions.
    const session = await logIn(app, server, 'authoru');
    await request(server)
      .post(`${API}/users/${id}`)
      .set('Authorization', admin())
      .send({ password: 'the new console password' })
      .expect(200)
      .expect((r) => expect(r.body.has_console_password).toBe(true));
    await inSession(request(server).get(`${API}/events`), session).expect(401);
    await request(server)
      .post('/admin/session')
      .send({ login: 'authoru', password: 'the new console password' })
      .expect(200);
    await request(server).get(`${API}/users/999999`).set('Authorization', admin()).expect(404);
  });

  it('creates application passwords shown once, which open HTTP Basic until revoked', async () => {
    const id = users.contributor.id;
    const made = await request(server)
      .post(`${API}/users/${id}/application-passwords`)
      .set('Authorization', admin())
      .send({ name: 'My phone' })
      .expect(201);
    expect(made.body).toMatchObject({
      name: 'My phone',
      app_id: '',
      last_used: null,
      last_ip: null,
    });
    expect(made.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.password).toMatch(/^(\w{4} ){5}\w{4}$/);
    const header = basic('contributoru', made.body.password as string);
    await request(server)
      .get(`${API}/events?status=draft`)
      .set('Authorization', header)
      .expect(200);
    // The CLI's application password still works beside it.
    await request(server)
      .get(`${API}/events?status=draft`)
      .set('Authorization', users.contributor.header)
      .expect(200);
    const list = await request(server)
      .get(`${API}/users/${id}/application-passwords`)
      .set('Authorization', admin())
      .expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({ uuid: made.body.uuid, name: 'My phone' }),
    ]);
    expect(list.body[0]).not.toHaveProperty('password');
    const dup = await request(server)
      .post(`/ro${API}/users/${id}/application-passwords`)
      .set('Authorization', admin())
      .send({ name: 'My phone' })
      .expect(409);
    expect(dup.body.code).toBe('application_password_duplicate_name');
    expect(dup.body.message).toContain('„My phone”');
    for (const name of ['', '   ', 'n'.repeat(201), 7]) {
      await request(server)
        .post(`${API}/users/${id}/application-passwords`)
        .set('Authorization', admin())
        .send({ name })
        .expect(400);
    }
    await request(server)
      .delete(`${API}/users/${id}/application-passwords/${made.body.uuid}`)
      .set('Authorization', admin())
      .expect(200)
      .expect((r) =>
        expect(r.body).toMatchObject({ deleted: true, previous: { uuid: made.body.uuid } }),
      );
    await request(server).get(`${API}/events`).set('Authorization', header).expect(401);
    for (const uuid of [made.body.uuid, 'not-a-uuid', 'x'.repeat(300)]) {
      const res = await request(server)
        .delete(`${API}/users/${id}/application-passwords/${uuid}`)
        .set('Authorization', admin());
      expect([res.status, res.body.code]).toEqual([404, 'rest_application_password_not_found']);
    }
    await request(server)
      .get(`${API}/users/999999/application-passwords`)
      .set('Authorization', admin())
      .expect(404);
  });

  it('makes one application password of a name even when asked at once, and at most 50 a user', async () => {
    const id = users.subscriber.id;
    const at = `${API}/users/${id}/application-passwords`;
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(server).post(at).set('Authorization', admin()).send({ name: 'Same name' }),
      ),
    );
    expect(racing.map((r) => r.status).sort((a, b) => a - b)).toEqual([201, 409, 409, 409, 409]);
    for (let i = 1; i < 50; i++) {
      await request(server)
        .post(at)
        .set('Authorization', admin())
        .send({ name: `app ${i}` })
        .expect(201);
    }
    const full = await request(server)
      .post(`/hu${at}`)
      .set('Authorization', admin())
      .send({ name: 'one too many' })
      .expect(400);
    expect(full.body.data.params.name).toContain('50');
    const list = await request(server).get(at).set('Authorization', admin()).expect(200);
    expect(list.body).toHaveLength(50);
  });

  it('works with the console session and its nonce, as every route', async () => {
    const session = await logIn(app, server, 'administratoru');
    await inSession(request(server).get(`${API}/users`), session).expect(200);
    // The cookie alone is anonymous.
    await request(server).get(`${API}/users`).set('Cookie', session.cookie).expect(401);
  });
  // Last: it deletes the editor.
  it('keeps at least one administrator: the last one can neither be demoted nor deleted', async () => {
    const id = users.administrator.id;
    for (const call of [
      request(server)
        .patch(`${API}/users/${id}`)
        .send({ roles: ['editor'] }),
      request(server).delete(`${API}/users/${id}`),
    ]) {
      const res = await call.set('Authorization', admin());
      expect([res.status, res.body.code]).toEqual([409, 'rest_user_last_administrator']);
    }
    const hu = await request(server).delete(`/hu${API}/users/${id}`).set('Authorization', admin());
    expect(hu.body.message).toContain('adminisztrátora');
    // The CLI's delete is the same service.
    await expect(app.get(UsersService).delete('administratoru')).rejects.toThrow();
    // With a second administrator, either may go.
    const second = users.editor.id;
    await request(server)
      .patch(`${API}/users/${second}`)
      .set('Authorization', admin())
      .send({ roles: ['administrator'] })
      .expect(200);
    await request(server)
      .delete(`${API}/users/${second}`)
      .set('Authorization', admin())
      .expect(200)
      .expect((r) => expect(r.body).toMatchObject({ deleted: true, previous: { id: second } }));
    await request(server).get(`${API}/users`).set('Authorization', users.editor.header).expect(401);
  });
});
