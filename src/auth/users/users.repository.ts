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
  created_at: string;
}

/**
 * The `users` table, and the only code that reads or writes it. Command-line writes go through
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

  deleteById(id: number): Promise<unknown> {
    return this.users.delete({ id });
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
      'SELECT id, login, email, display_name, role, password_hash, created_at FROM users WHERE login = ? LIMIT 1',
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
      createdAt: row.created_at,
    });
  }
}
