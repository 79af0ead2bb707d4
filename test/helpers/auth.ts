import type { INestApplication } from '@nestjs/common';
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
