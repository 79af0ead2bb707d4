import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { nowUtcSql } from '../../database/columns.js';
import { transaction } from '../../database/transaction.js';
import { lockKey } from '../../database/write-lock.js';
import type { Role } from '../../common/roles.js';
import { UserEntity } from './user.entity.js';

/** What a new user row holds (the id and creation time are the table's). */
export interface NewUser {
  login: string;
  role: Role;
  email: string;
  displayName: string;
  passwordHash: string;
}

interface UserRow {
  id: number | string;
  login: string;
  email: string;
  display_name: string;
  role: Role;
  password_hash: string;
  login_password_hash: string | null;
  created_at: string;
}

/** What an administrator may change of a user (absent: unchanged). */
export interface UserChanges {
  email?: string;
  displayName?: string;
  role?: Role;
}

/** An application password of the API's (the `application_passwords` table), without its hash. */
export interface ApplicationPasswordRow {
  uuid: string;
  userId: number;
  name: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** Why a guarded change was not made: it would leave the site without an administrator. */
export const LAST_ADMINISTRATOR = 'last-administrator';

/**
 * A guarded write's refusal, thrown inside its transaction so that the transaction rolls back
 * (the lock row that write-lock.ts upserts included: a refused write leaves no trace) and
 * answered outside it by `refusable`.
 */
class Refusal<T> extends Error {
  constructor(readonly answer: T) {
    super('refused');
  }
}

async function refusable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof Refusal) return error.answer as T;
    throw error;
  }
}

/** Who a live console session belongs to (the users row joined at each request). */
export interface SessionUser {
  id: number;
  login: string;
  role: Role;
}

/** A live session: its user, and when it ends (milliseconds since the epoch). */
export interface LiveSession extends SessionUser {
  expiresAt: number;
}

/**
 * The `users` table and its console sessions (`user_sessions`), and the only code that reads or
 * writes them. Command-line writes go through
 * TypeORM's repository; the look-up of every authenticated request is plain SQL.
 */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  existsById(id: number): Promise<boolean> {
    return this.users.existsBy({ id });
  }

  existsByLogin(login: string): Promise<boolean> {
    return this.users.existsBy({ login });
  }

  insert(user: NewUser): Promise<UserEntity> {
    return this.users.save(this.users.create({ ...user, createdAt: nowUtcSql() }));
  }

  setPasswordHash(id: number, passwordHash: string): Promise<unknown> {
    return this.users.update({ id }, { passwordHash });
  }

  setLoginPasswordHash(id: number, loginPasswordHash: string): Promise<unknown> {
    return this.users.update({ id }, { loginPasswordHash });
  }

  /**
   * Replaces a stored hash (`column`: the application or the console password's) with another
   * of the same password, unless it changed since it was read: a password set meanwhile stays.
   * Answers whether it was replaced.
   */
  async rehashPassword(
    id: number,
    column: 'passwordHash' | 'loginPasswordHash',
    from: string,
    to: string,
  ): Promise<boolean> {
    const { affected } = await this.users.update({ id, [column]: from }, { [column]: to });
    return (affected ?? 0) > 0;
  }

  /**
   * Deletes user `id` (`changes` null) or changes its fields, unless that leaves no
   * administrator: the administrators are counted under one lock (write-lock.ts; SQLite's single
   * writer), so that two administrators demoting each other at once cannot both succeed.
   * Answers the row as it is afterwards (null once deleted), undefined when there was no such
   * user, or LAST_ADMINISTRATOR when nothing was done.
   */
  async changeKeepingAdministrator(
    id: number,
    changes: UserChanges | null,
  ): Promise<UserEntity | null | undefined | typeof LAST_ADMINISTRATOR> {
    return refusable(
      transaction(this.users.manager.connection, async (m) => {
        await lockKey(m, 'users:administrators');
        const user = await m.findOneBy(UserEntity, { id });
        if (!user) throw new Refusal(undefined);
        const demoted = changes === null || (changes.role ?? user.role) !== 'administrator';
        if (user.role === 'administrator' && demoted) {
          const administrators = await m.countBy(UserEntity, { role: 'administrator' });
          if (administrators <= 1) throw new Refusal(LAST_ADMINISTRATOR);
        }
        if (changes === null) {
          await m.query('DELETE FROM user_sessions WHERE user_id = ?', [id]);
          await m.query('DELETE FROM application_passwords WHERE user_id = ?', [id]);
          await m.delete(UserEntity, { id });
          return null;
        }
        const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
        if (Object.keys(set).length) await m.update(UserEntity, { id }, set);
        return m.findOneBy(UserEntity, { id });
      }),
    );
  }

  byId(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** One page of users, oldest first, and how many there are. */
  page(limit: number, offset: number): Promise<[UserEntity[], number]> {
    return this.users.findAndCount({ order: { id: 'ASC' }, take: limit, skip: offset });
  }

  async applicationPasswords(userId: number): Promise<ApplicationPasswordRow[]> {
    const rows: Array<{
      uuid: string;
      user_id: number | string;
      name: string;
      created_at: number | string;
    }> = await this.users.query(
      'SELECT uuid, user_id, name, created_at FROM application_passwords WHERE user_id = ? ORDER BY created_at, uuid',
      [userId],
    );
    return rows.map((r) => ({
      uuid: r.uuid,
      userId: Number(r.user_id),
      name: r.name,
      createdAt: Number(r.created_at),
    }));
  }

  /**
   * Adds an application password to user `userId`, unless the user has one named alike
   * (`duplicate`) or `max` already (`full`): checked and written under a lock on the user, so that
   * concurrent creates cannot pass either check together.
   */
  async insertApplicationPassword(
    row: ApplicationPasswordRow,
    passwordHash: string,
    max: number,
  ): Promise<'inserted' | 'duplicate' | 'full'> {
    return refusable(
      transaction(this.users.manager.connection, async (m) => {
        await lockKey(m, `users:application-passwords:${row.userId}`);
        const names: Array<{ name: string }> = await m.query(
          'SELECT name FROM application_passwords WHERE user_id = ?',
          [row.userId],
        );
        if (names.some((n) => n.name === row.name)) throw new Refusal('duplicate' as const);
        if (names.length >= max) throw new Refusal('full' as const);
        await m.query(
          'INSERT INTO application_passwords (uuid, user_id, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
          [row.uuid, row.userId, row.name, passwordHash, row.createdAt],
        );
        return 'inserted' as const;
      }),
    );
  }

  /** Whether user `userId` has the application password of this hash: one unique-index look-up. */
  async hasApplicationPassword(userId: number, passwordHash: string): Promise<boolean> {
    const rows: unknown[] = await this.users.query(
      'SELECT 1 AS found FROM application_passwords WHERE password_hash = ? AND user_id = ? LIMIT 1',
      [passwordHash, userId],
    );
    return rows.length > 0;
  }

  async deleteApplicationPassword(userId: number, uuid: string): Promise<void> {
    await this.users.query('DELETE FROM application_passwords WHERE user_id = ? AND uuid = ?', [
      userId,
      uuid,
    ]);
  }

  /** A new session; sessions past their time are deleted on the way (one indexed range). */
  async insertSession(tokenHash: string, userId: number, now: number, expiresAt: number) {
    await this.users.query('DELETE FROM user_sessions WHERE expires_at <= ?', [now]);
    await this.users.query(
      'INSERT INTO user_sessions (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)',
      [tokenHash, userId, expiresAt, now],
    );
  }

  /** The user of a session still live at `now`, or null: one primary-key look-up and a join. */
  async sessionUser(tokenHash: string, now: number): Promise<LiveSession | null> {
    const rows: Array<{
      id: number | string;
      login: string;
      role: Role;
      expires_at: number | string;
    }> = await this.users.query(
      `SELECT u.id, u.login, u.role, s.expires_at FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ? AND s.expires_at > ? LIMIT 1`,
      [tokenHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: Number(row.id),
      login: row.login,
      role: row.role,
      expiresAt: Number(row.expires_at),
    };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.users.query('DELETE FROM user_sessions WHERE token_hash = ?', [tokenHash]);
  }

  async deleteSessionsOf(userId: number): Promise<void> {
    await this.users.query('DELETE FROM user_sessions WHERE user_id = ?', [userId]);
  }

  /** Every user, oldest first. */
  all(): Promise<UserEntity[]> {
    return this.users.find({ order: { id: 'ASC' } });
  }

  /**
   * The row of `login`, read on every authenticated request (a role or password changed by the
   * CLI counts at once): one unique-index look-up in plain SQL, without query building and
   * hydration.
   */
  async byLogin(login: string): Promise<UserEntity | null> {
    const rows: UserRow[] = await this.users.query(
      'SELECT id, login, email, display_name, role, password_hash, login_password_hash, created_at FROM users WHERE login = ? LIMIT 1',
      [login],
    );
    const row = rows[0];
    if (!row) return null;
    return Object.assign(new UserEntity(), {
      id: Number(row.id),
      login: row.login,
      email: row.email,
      displayName: row.display_name,
      role: row.role,
      passwordHash: row.password_hash,
      loginPasswordHash: row.login_password_hash,
      createdAt: row.created_at,
    });
  }
}
