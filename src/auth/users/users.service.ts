import { createHash, randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CredentialCache } from '../credential-cache.js';
import {
  checkDecoy,
  generateApplicationPassword,
  generateLoginPassword,
  hashPassword,
  MIN_PASSWORD_LENGTH,
  needsRehash,
  normalizeApplicationPassword,
  passwordLength,
  verifyPassword,
} from '../password.js';
import { isRole, ROLES, type Role } from '../../common/roles.js';
import { LocalizedError } from '../../config/messages.js';
import type { UserEntity } from './user.entity.js';
import {
  LAST_ADMINISTRATOR,
  UsersRepository,
  type ApplicationPasswordRow,
} from './users.repository.js';

export interface PublicUser {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: Role;
}

/** A user as administrators see it (the API's users routes). */
export interface UserRecord extends PublicUser {
  /** Whether the user may log in to the console. */
  hasConsolePassword: boolean;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  registered: string;
}

/**
 * A value given to a user command or route that cannot be used; its message is in the catalogues
 * (cli.users), `field` the parameter it concerns.
 */
export class UserInputError extends LocalizedError {
  constructor(
    key: string,
    args: Record<string, string | number>,
    readonly field: string,
  ) {
    super(key, args);
  }
}

/** Application passwords one user may have through the API (WordPress sets no limit). */
export const MAX_APPLICATION_PASSWORDS = 50;

/** Names the user's application passwords are told apart by (WordPress: unique per user). */
export const MAX_APPLICATION_PASSWORD_NAME = 200;

export const LOGIN = /^[A-Za-z0-9_.@+-]{1,60}$/;
export const MAX_DISPLAY_NAME = 250;

/** The fast hash of a generated application password (the migration says why not scrypt). */
const fastHash = (password: string) =>
  createHash('sha256').update(normalizeApplicationPassword(password)).digest('hex');
/** WordPress's is_email(), in short: local@domain with a dot, no spaces; 100 fits the column. */
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const EMAIL_DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

export function isEmail(value: string): boolean {
  if (value.length > 100) return false;
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@')) return false;
  const labels = value.slice(at + 1).split('.');
  return (
    EMAIL_LOCAL.test(value.slice(0, at)) &&
    labels.length >= 2 &&
    labels.every((l) => l.length <= 63 && EMAIL_DOMAIN_LABEL.test(l))
  );
}

/** A password a person chose: as long as ADMIN_PASSWORD must be. */
function checkChosenPassword(password: string): void {
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) {
    throw new UserInputError(
      'cli.users.short_password',
      { count: MIN_PASSWORD_LENGTH, length: passwordLength(password) },
      'password',
    );
  }
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('UsersService');
  private readonly cache = new CredentialCache();

  constructor(
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * ADMIN_LOGIN/ADMIN_PASSWORD: create that administrator once, when no such login exists, with
   * ADMIN_PASSWORD as both its application and its console password; an administrator created
   * before the console existed gets ADMIN_PASSWORD as console password when it has none.
   */
  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.admin;
    if (!admin) return;
    const existing = await this.users.byLogin(admin.login);
    if (existing && existing.loginPasswordHash !== null) return;
    if (!existing) {
      await this.create({ login: admin.login, role: 'administrator', password: admin.password });
      this.logger.log(`created administrator "${admin.login}" from ADMIN_LOGIN`);
    }
    await this.setLoginPassword(admin.login, admin.password);
  }

  async create(input: {
    login: string;
    role: string;
    email?: string;
    displayName?: string;
    password?: string;
    /** A console password to give at once (the API's `password`). */
    consolePassword?: string;
  }): Promise<{ user: PublicUser; password: string }> {
    if (!LOGIN.test(input.login)) {
      throw new UserInputError('cli.users.invalid_login', { login: input.login }, 'username');
    }
    if (!isRole(input.role)) {
      throw new UserInputError(
        'cli.users.unknown_role',
        { role: input.role, roles: ROLES.join(', ') },
        'roles',
      );
    }
    if (input.email !== undefined && !isEmail(input.email)) {
      throw new UserInputError('cli.users.invalid_email', { email: input.email }, 'email');
    }
    if (input.displayName !== undefined && [...input.displayName].length > MAX_DISPLAY_NAME) {
      throw new UserInputError('cli.users.long_display_name', { count: MAX_DISPLAY_NAME }, 'name');
    }
    if (input.password !== undefined) checkChosenPassword(input.password);
    if (input.consolePassword !== undefined) checkChosenPassword(input.consolePassword);
    if (await this.users.existsByLogin(input.login)) {
      throw new UserInputError('cli.users.login_taken', { login: input.login }, 'username');
    }
    const password = input.password ?? generateApplicationPassword();
    const saved = await this.users.insert({
      login: input.login,
      role: input.role,
      email: input.email ?? '',
      displayName: input.displayName ?? input.login,
      passwordHash: await hashPassword(normalizeApplicationPassword(password)),
    });
    if (input.consolePassword !== undefined) {
      await this.users.setLoginPasswordHash(saved.id, await hashPassword(input.consolePassword));
    }
    return { user: toPublic(saved), password };
  }

  /**
   * Replaces the user's application password with `chosen` or a generated one, and returns it.
   * The server sees the new hash on the next request (its credential cache checks the hash).
   */
  async setPassword(login: string, chosen?: string): Promise<string> {
    if (chosen !== undefined) checkChosenPassword(chosen);
    const user = await this.users.byLogin(login);
    if (!user) throw new UserInputError('cli.users.no_user', { login }, 'login');
    const password = chosen ?? generateApplicationPassword();
    await this.users.setPasswordHash(
      user.id,
      await hashPassword(normalizeApplicationPassword(password)),
    );
    this.cache.forgetUser(user.id);
    return password;
  }

  /**
   * Gives `login` the console password `chosen` or a generated one, and returns it; the user's
   * sessions end (as WordPress ends them when a password changes). The application password is
   * left as it is.
   */
  async setLoginPassword(login: string, chosen?: string): Promise<string> {
    if (chosen !== undefined) checkChosenPassword(chosen);
    const user = await this.users.byLogin(login);
    if (!user) throw new UserInputError('cli.users.no_user', { login }, 'login');
    const password = chosen ?? generateLoginPassword();
    await this.users.setLoginPasswordHash(user.id, await hashPassword(password));
    await this.users.deleteSessionsOf(user.id);
    return password;
  }

  /**
   * The user whose console password this is, or null. Application passwords do not open the
   * console (WordPress's login form refuses them too); a user without a console password, or
   * an unknown login, pays for one scrypt run like a wrong password.
   */
  async authenticateLogin(login: string, password: string): Promise<UserEntity | null> {
    const user = await this.users.byLogin(login);
    if (!user?.loginPasswordHash) {
      await checkDecoy(password);
      return null;
    }
    const hash = await this.check(user, 'loginPasswordHash', password);
    return hash ? { ...user, loginPasswordHash: hash } : null;
  }

  async list(): Promise<PublicUser[]> {
    return (await this.users.all()).map(toPublic);
  }

  /** Deletes `login`, unless it is the last administrator (UserInputError); false: no such user. */
  async delete(login: string): Promise<boolean> {
    const user = await this.users.byLogin(login);
    if (!user) return false;
    return (await this.deleteById(user.id)) !== undefined;
  }

  // The administrators' routes (CONTRACT §2 "Users"), by id.

  async page(limit: number, offset: number): Promise<{ users: UserRecord[]; total: number }> {
    const [rows, total] = await this.users.page(limit, offset);
    return { users: rows.map(toRecord), total };
  }

  async byId(id: number): Promise<UserRecord | null> {
    const user = await this.users.byId(id);
    return user ? toRecord(user) : null;
  }

  /**
   * Changes user `id`'s e-mail, display name, role and console password (each when given).
   * Refuses (UserInputError on `roles`) to take the role of the last administrator; a new console
   * password ends the user's sessions. Undefined: no such user.
   */
  async update(
    id: number,
    changes: { email?: string; displayName?: string; role?: string; consolePassword?: string },
  ): Promise<UserRecord | undefined> {
    if (changes.role !== undefined && !isRole(changes.role)) {
      throw new UserInputError(
        'cli.users.unknown_role',
        { role: changes.role, roles: ROLES.join(', ') },
        'roles',
      );
    }
    if (changes.email !== undefined && changes.email !== '' && !isEmail(changes.email)) {
      throw new UserInputError('cli.users.invalid_email', { email: changes.email }, 'email');
    }
    if (changes.displayName !== undefined && [...changes.displayName].length > MAX_DISPLAY_NAME) {
      throw new UserInputError('cli.users.long_display_name', { count: MAX_DISPLAY_NAME }, 'name');
    }
    if (changes.consolePassword !== undefined) checkChosenPassword(changes.consolePassword);
    const hash =
      changes.consolePassword === undefined
        ? undefined
        : await hashPassword(changes.consolePassword);
    const result = await this.users.changeKeepingAdministrator(id, {
      email: changes.email,
      displayName: changes.displayName,
      role: changes.role,
    });
    if (result === LAST_ADMINISTRATOR) {
      throw new UserInputError('cli.users.last_administrator', {}, 'roles');
    }
    if (!result) return undefined;
    if (hash !== undefined) {
      await this.users.setLoginPasswordHash(id, hash);
      await this.users.deleteSessionsOf(id);
    }
    this.cache.forgetUser(id);
    return toRecord({ ...result, loginPasswordHash: hash ?? result.loginPasswordHash });
  }

  /**
   * Deletes user `id` with its sessions and application passwords, unless it is the last
   * administrator (UserInputError). Answers the user as it was; undefined: no such user.
   */
  async deleteById(id: number): Promise<UserRecord | undefined> {
    const before = await this.users.byId(id);
    if (!before) return undefined;
    const result = await this.users.changeKeepingAdministrator(id, null);
    if (result === LAST_ADMINISTRATOR) {
      throw new UserInputError('cli.users.last_administrator', {}, 'id');
    }
    if (result === undefined) return undefined;
    this.cache.forgetUser(id);
    return toRecord(before);
  }

  /** User `id`'s application passwords of the API, oldest first; undefined: no such user. */
  async applicationPasswords(id: number): Promise<ApplicationPasswordRow[] | undefined> {
    if (!(await this.users.existsById(id))) return undefined;
    return this.users.applicationPasswords(id);
  }

  /**
   * A new application password named `name` for user `id`: generated, and answered this once
   * (only its hash is kept). Names are unique per user (UserInputError on `name`, as WordPress's
   * `application_password_duplicate_name`), and a user has at most MAX_APPLICATION_PASSWORDS.
   */
  async createApplicationPassword(
    id: number,
    name: string,
  ): Promise<{ row: ApplicationPasswordRow; password: string } | undefined> {
    if (!(await this.users.existsById(id))) return undefined;
    const password = generateApplicationPassword();
    const row = { uuid: randomUUID(), userId: id, name, createdAt: Date.now() };
    const result = await this.users.insertApplicationPassword(
      row,
      fastHash(password),
      MAX_APPLICATION_PASSWORDS,
    );
    if (result === 'duplicate') {
      throw new UserInputError('cli.users.duplicate_application_password', { name }, 'name');
    }
    if (result === 'full') {
      throw new UserInputError(
        'cli.users.too_many_application_passwords',
        { count: MAX_APPLICATION_PASSWORDS },
        'name',
      );
    }
    return { row, password };
  }

  /** Revokes one application password; null: the user has none of that uuid. */
  async revokeApplicationPassword(
    id: number,
    uuid: string,
  ): Promise<ApplicationPasswordRow | null> {
    const found = (await this.users.applicationPasswords(id)).find((p) => p.uuid === uuid);
    if (!found) return null;
    await this.users.deleteApplicationPassword(id, uuid);
    return found;
  }

  async exists(id: number): Promise<boolean> {
    return this.users.existsById(id);
  }

  /**
   * The user these credentials open, or null. Unknown logins still pay for one scrypt run so
   * that timing does not reveal which logins exist.
   */
  async authenticate(login: string, rawPassword: string): Promise<UserEntity | null> {
    const password = normalizeApplicationPassword(rawPassword);
    const user = await this.users.byLogin(login);
    if (!user) {
      await checkDecoy(password);
      return null;
    }
    const key = this.cache.key(login, password);
    if (this.cache.has(key, user)) return user;
    // An application password of the API's: one indexed look-up, never cached, so that a
    // revocation counts at once in every process.
    if (await this.users.hasApplicationPassword(user.id, fastHash(password))) return user;
    const hash = await this.verifyOnce(key, password, user);
    if (!hash) return null;
    const verified = { ...user, passwordHash: hash };
    this.cache.remember(key, verified);
    return verified;
  }

  /** Verifications running, by credential key and stored hash. */
  private readonly verifying = new Map<string, Promise<string | null>>();

  /**
   * One check (`check`) for the concurrent requests that bring the same credential before it is
   * remembered (a client's first requests in parallel): each scrypt run costs 0.16 s of CPU and
   * 16 MB.
   */
  private verifyOnce(key: string, password: string, user: UserEntity): Promise<string | null> {
    const flight = `${key}\0${user.passwordHash}`;
    let verified = this.verifying.get(flight);
    if (!verified) {
      verified = this.check(user, 'passwordHash', password).finally(() =>
        this.verifying.delete(flight),
      );
      this.verifying.set(flight, verified);
    }
    return verified;
  }

  /**
   * Whether `password` is the one the user's hash `column` was made from: the hash stored now
   * when it is, null when not (or when there is none). A hash made at another cost than today's is replaced by one
   * at today's cost (needsRehash), unless the password changed meanwhile; a failure to store it
   * leaves the old one, which still verifies, and is logged.
   */
  private async check(
    user: UserEntity,
    column: 'passwordHash' | 'loginPasswordHash',
    password: string,
  ): Promise<string | null> {
    const stored = user[column];
    if (!stored || !(await verifyPassword(password, stored))) return null;
    if (!needsRehash(stored)) return stored;
    try {
      const fresh = await hashPassword(password);
      return (await this.users.rehashPassword(user.id, column, stored, fresh)) ? fresh : stored;
    } catch (error) {
      this.logger.warn(`the password hash of ${user.login} was not replaced: ${String(error)}`);
      return stored;
    }
  }
}

const toRecord = (u: UserEntity): UserRecord => ({
  ...toPublic(u),
  hasConsolePassword: u.loginPasswordHash !== null,
  registered: u.createdAt,
});

const toPublic = (u: UserEntity): PublicUser => ({
  id: u.id,
  login: u.login,
  email: u.email,
  display_name: u.displayName,
  role: u.role,
});
