import request from 'supertest';
import { DataSource } from 'typeorm';
import { UsersService } from '../../src/auth/users/users.service.js';
import { basic, inSession, logIn, SESSION_PATH, sessionCookie } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { useTestApp } from '../helpers/app-fixture.js';
import { wpError } from '../helpers/wp-error.js';

/**
 * The console's login and its session (CONTRACT §2), as WordPress's cookie authentication: a
 * login with a console password sets an HttpOnly SameSite cookie; the REST API honours it only
 * with its `X-WP-Nonce`, so a cookie alone is anonymous; sessions expire and log out; the login
 * form refuses application passwords and is throttled like HTTP Basic.
 */
const API = '/cal/events/v1';
const ADMIN_PASSWORD = 'the administrator passphrase';

describe('console sessions (e2e)', () => {
  const { app, http, users } = useTestApp({ env: { ADMIN_LOGIN: 'boss', ADMIN_PASSWORD } });
  const post = (body: object, path = SESSION_PATH) => http().post(path).send(body);
  const draftBody = (title: string) => ({
    title,
    status: 'draft',
    start_date: '2030-05-01 10:00:00',
    end_date: '2030-05-01 11:00:00',
  });

  it('logs the administrator of ADMIN_LOGIN in with ADMIN_PASSWORD, in an HttpOnly SameSite cookie', async () => {
    const res = await post({ login: 'boss', password: ADMIN_PASSWORD }).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      user: { id: expect.any(Number), login: 'boss', role: 'administrator' },
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      expires: expect.any(String),
    });
    const lifetime = Date.parse(res.body.expires) - Date.now();
    expect(lifetime).toBeGreaterThan(47 * 3600_000);
    expect(lifetime).toBeLessThanOrEqual(48 * 3600_000);
    const [cookie] = [res.headers['set-cookie']].flat();
    expect(cookie).toMatch(/^cal_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; Path=/');
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Strict');
    expect(cookie).toMatch(/; Expires=/);
    // Plain HTTP: a Secure cookie would never come back.
    expect(cookie).not.toContain('Secure');
    // ADMIN_PASSWORD stays the administrator's application password too.
    await http().get(API).set('Authorization', basic('boss', ADMIN_PASSWORD)).expect(200);
  });

  it('refuses application passwords, unknown logins and users without a console password with one answer', async () => {
    const editor = app().get(UsersService);
    const { password: appPassword } = await editor.create({ login: 'ivy', role: 'editor' });
    // No console password yet: even the application password does not open it.
    const noConsole = await post({ login: 'ivy', password: appPassword }).expect(401);
    await editor.setLoginPassword('ivy', 'ivy console passphrase');
    const appRefused = await post({ login: 'ivy', password: appPassword }).expect(401);
    const unknown = await post({ login: 'nobody-here', password: appPassword }).expect(401);
    expect(appRefused.body).toEqual(
      wpError(401, 'incorrect_password', 'The login or the password is incorrect.'),
    );
    expect(unknown.text).toBe(appRefused.text);
    expect(noConsole.text).toBe(appRefused.text);
    expect(appRefused.headers['set-cookie']).toBeUndefined();
    // ... and the console password does not open HTTP Basic.
    await http().get(API).set('Authorization', basic('ivy', 'ivy console passphrase')).expect(401);
    await post({ login: 'ivy', password: 'ivy console passphrase' }).expect(200);
    const hu = await post({ login: 'ivy', password: 'wrong' }, `/hu${SESSION_PATH}`).expect(401);
    expect(hu.body.message).toBe('A felhasználónév vagy a jelszó hibás.');
  });

  it.each([
    [{}, 400],
    [{ login: 'ivy' }, 400],
    [{ login: ['ivy'], password: 'x' }, 400],
    [{ login: 'ivy', password: 12 }, 400],
    [{ login: 'x'.repeat(61), password: 'x' }, 400],
    [{ login: 'ivy', password: 'x'.repeat(1001) }, 400],
  ])('refuses the malformed login %j with %i and the error shape', async (body, status) => {
    const res = await post(body).expect(status);
    expect(res.body).toMatchObject({ code: expect.any(String), data: { status } });
  });

  it('counts the cookie only with its nonce: a cookie alone is anonymous, a cross-site form cannot write', async () => {
    const session = await logIn(app(), app().getHttpServer(), users.editor.login);
    const withSession = (req: request.Test, nonce?: string) => {
      const call = req.set('Cookie', session.cookie);
      return nonce === undefined ? call : call.set('X-WP-Nonce', nonce);
    };
    // With the nonce: the editor.
    const created = await withSession(http().post(`${API}/events`), session.nonce)
      .send(draftBody('Made in the console'))
      .expect(201);
    expect(created.body.author).toBe(String(users.editor.id));
    await withSession(http().get(`${API}/events/${created.body.id}`), session.nonce).expect(200);
    // The cookie alone, as a form of another site would send it: anonymous.
    const anonymous = await http().get(`${API}/events/${created.body.id}`);
    expect(anonymous.status).toBe(403);
    const cookieOnly = await withSession(http().get(`${API}/events/${created.body.id}`));
    expect([cookieOnly.status, cookieOnly.body]).toEqual([anonymous.status, anonymous.body]);
    const form = await withSession(http().post(`${API}/events`))
      .type('form')
      .send({
        title: 'Cross-site',
        start_date: '2030-05-01 10:00:00',
        end_date: '2030-05-01 11:00:00',
      })
      .expect(401);
    expect(form.body.code).toBe('rest_forbidden');
    await withSession(http().delete(`${API}/events/${created.body.id}`)).expect(401);
    // A nonce that is not this cookie's: 403, WordPress's answer.
    const other = await logIn(app(), app().getHttpServer(), users.author.login);
    const wrong = await withSession(http().get(API), other.nonce).expect(403);
    expect(wrong.body).toEqual(wpError(403, 'rest_cookie_invalid_nonce', 'Cookie check failed.'));
    // A nonce without a cookie is nothing; HTTP Basic wins over a cookie.
    await http()
      .get(`${API}/events/${created.body.id}`)
      .set('X-WP-Nonce', session.nonce)
      .expect(anonymous.status);
    const asAuthor = await withSession(http().post(`${API}/events`), session.nonce)
      .set('Authorization', users.author.header)
      .send(draftBody('Basic wins'))
      .expect(201);
    expect(asAuthor.body.author).toBe(String(users.author.id));
  });

  it('gives the page its user and nonce from the cookie, and logs out only with the nonce', async () => {
    const session = await logIn(app(), app().getHttpServer(), users.author.login);
    const whoami = await http().get(SESSION_PATH).set('Cookie', session.cookie).expect(200);
    expect(whoami.headers['cache-control']).toBe('no-store');
    expect(whoami.body).toMatchObject({
      user: { login: users.author.login, role: 'author' },
      nonce: session.nonce,
    });
    const anonymous = await http().get(SESSION_PATH).expect(401);
    expect(anonymous.body).toEqual(
      wpError(401, 'rest_not_logged_in', 'You are not currently logged in.'),
    );

    await http().delete(SESSION_PATH).set('Cookie', session.cookie).expect(403);
    await http().get(SESSION_PATH).set('Cookie', session.cookie).expect(200);
    const out = await inSession(http().delete(SESSION_PATH), session).expect(200);
    expect(out.body).toEqual({ logged_out: true });
    expect([out.headers['set-cookie']].flat()[0]).toMatch(
      /^cal_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/,
    );
    await http().get(SESSION_PATH).set('Cookie', session.cookie).expect(401);
    const gone = await inSession(http().get(API), session).expect(401);
    expect(gone.body.code).toBe('rest_not_logged_in');
    const hu = await inSession(http().get(`/hu${API}`), session).expect(401);
    expect(hu.body.message).toBe('Jelenleg nem vagy bejelentkezve.');
  });

  it('ends a session at its time, and when its user is deleted', async () => {
    const session = await logIn(app(), app().getHttpServer(), users.contributor.login);
    const call = () => inSession(http().get(API), session);
    await call().expect(200);
    const ds = app().get(DataSource);
    await ds.query('UPDATE user_sessions SET expires_at = ? WHERE user_id = ?', [
      Date.now() - 1,
      users.contributor.id,
    ]);
    await call().expect(401);
    await http().get(SESSION_PATH).set('Cookie', session.cookie).expect(401);
    // The next login deletes sessions past their time.
    const [{ n: before }] = await ds.query(
      'SELECT COUNT(*) AS n FROM user_sessions WHERE expires_at <= ?',
      [Date.now()],
    );
    expect(Number(before)).toBeGreaterThan(0);
    await logIn(app(), app().getHttpServer(), users.subscriber.login);
    const [{ n: after }] = await ds.query(
      'SELECT COUNT(*) AS n FROM user_sessions WHERE expires_at <= ?',
      [Date.now()],
    );
    expect(Number(after)).toBe(0);

    const { password } = await app().get(UsersService).create({ login: 'temp', role: 'editor' });
    void password;
    const temp = await logIn(app(), app().getHttpServer(), 'temp');
    await app().get(UsersService).delete('temp');
    await inSession(http().get(API), temp).expect(401);
  });

  it('throttles the login form with the counters of HTTP Basic', async () => {
    const users2 = app().get(UsersService);
    await users2.create({ login: 'target', role: 'author' });
    const password = await users2.setLoginPassword('target');
    // Five failures through HTTP Basic and five through the form: the pair's limit (10) is reached.
    for (let i = 0; i < 5; i++) {
      await http()
        .get(API)
        .set('Authorization', basic('target', `wrong-${i}`))
        .expect(401);
      await post({ login: 'target', password: `wrong-form-${i}` }).expect(401);
    }
    const blocked = await post({ login: 'target', password }).expect(429);
    expect(blocked.body.code).toBe('rest_too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });

  it('sets a Secure cookie over HTTPS (behind a trusted proxy)', async () => {
    const secure = await createTestApp({ env: { TRUST_PROXY: 'loopback' }, keepDatabase: true });
    try {
      await secure.get(UsersService).create({ login: 'sec', role: 'editor' });
      const password = await secure.get(UsersService).setLoginPassword('sec');
      const res = await request(secure.getHttpServer())
        .post(SESSION_PATH)
        .set('X-Forwarded-Proto', 'https')
        .send({ login: 'sec', password })
        .expect(200);
      expect([res.headers['set-cookie']].flat()[0]).toContain('; Secure');
      // A session works over the same route under BASE_PATH's REST root and /wp-json/.
      const cookie = sessionCookie(res.headers['set-cookie']);
      await request(secure.getHttpServer())
        .get(`/wp-json${API}/events`)
        .query({ status: 'draft' })
        .set('Cookie', cookie)
        .set('X-WP-Nonce', res.body.nonce)
        .expect(200);
    } finally {
      await closeApp(secure);
    }
  });
});
