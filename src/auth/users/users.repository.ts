import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { nowUtcSql } from '../../database/columns.js';
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

  async deleteById(id: number): Promise<void> {
    await this.users.manager.transaction(async (m) => {
      await m.query('DELETE FROM user_sessions WHERE user_id = ?', [id]);
      await m.delete(UserEntity, { id });
    });
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
