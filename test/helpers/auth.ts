import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { UsersService } from '../../src/auth/users/users.service.js';
import { ROLES, type Role } from '../../src/common/roles.js';

export type Credentials = { id: number; login: string; header: string };
export type RoleUsers = Record<Role, Credentials>;

export const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** One user per role (`administrator`, `editor`, ...), each with an Authorization header. */
export async function createRoleUsers(app: INestApplication, suffix = ''): Promise<RoleUsers> {
  const users = app.get(UsersService);
  const entries = await Promise.all(
    ROLES.map(async (role) => {
      const login = `${role}${suffix}`;
      const { user, password } = await users.create({ login, role, email: `${login}@example.org` });
      return [role, { id: user.id, login, header: basic(login, password) }] as const;
    }),
  );
  return Object.fromEntries(entries) as RoleUsers;
}

/** A console session (CONTRACT §2): the `Cookie` header to send, and the nonce that must go with it. */
export type Session = { cookie: string; nonce: string };

/** `req` as the console sends it in `session`: with the session's cookie and its nonce. */
export const inSession = (req: request.Test, session: Session) =>
  req.set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);

/** The console's login route, under every language prefix, outside BASE_PATH. */
export const SESSION_PATH = '/admin/session';

/** The session cookie a login answer sets, as a `Cookie` request header. */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith('cal_session='));
  if (!line) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return line.split(';')[0];
}

/**
 * Gives `login` a console password and logs it in through the login route of `server` (an
 * http.Server or a base URL), as the console does.
 */
export async function logIn(
  app: INestApplication,
  server: Parameters<typeof request>[0],
  login: string,
): Promise<Session> {
  const password = await app.get(UsersService).setLoginPassword(login);
  const res = await request(server).post(SESSION_PATH).send({ login, password });
  if (res.status !== 200) throw new Error(`login of ${login}: ${res.status} ${res.text}`);
  return { cookie: sessionCookie(res.headers['set-cookie']), nonce: res.body.nonce as string };
}
