import { Injectable, Logger, OnApplicationBootstrap, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CredentialCache } from '../credential-cache.js';
import {
  decoyHash,
  generateApplicationPassword,
  generateLoginPassword,
  hashPassword,
  MIN_PASSWORD_LENGTH,
  normalizeApplicationPassword,
  passwordLength,
  verifyPassword,
} from '../password.js';
import { isRole, ROLES, type Role } from '../../common/roles.js';
import { LocalizedError } from '../../config/messages.js';
import type { UserEntity } from './user.entity.js';
import { UsersRepository } from './users.repository.js';

export interface PublicUser {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: Role;
}

/** A value given to a user command that cannot be used; its message is in the catalogues (cli.users). */
class UserInputError extends LocalizedError {}

const LOGIN = /^[A-Za-z0-9_.@+-]{1,60}$/;
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
    throw new UserInputError('cli.users.short_password', {
      count: MIN_PASSWORD_LENGTH,
      length: passwordLength(password),
    });
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
  }): Promise<{ user: PublicUser; password: string }> {
    if (!LOGIN.test(input.login)) {
      throw new UserInputError('cli.users.invalid_login', { login: input.login });
    }
    if (!isRole(input.role)) {
      throw new UserInputError('cli.users.unknown_role', {
        role: input.role,
        roles: ROLES.join(', '),
      });
    }
    if (input.email !== undefined && !isEmail(input.email)) {
      throw new UserInputError('cli.users.invalid_email', { email: input.email });
    }
    if (input.displayName !== undefined && [...input.displayName].length > 250) {
      throw new UserInputError('cli.users.long_display_name', { count: 250 });
    }
    if (input.password !== undefined) checkChosenPassword(input.password);
    if (await this.users.existsByLogin(input.login)) {
      throw new UserInputError('cli.users.login_taken', { login: input.login });
    }
    const password = input.password ?? generateApplicationPassword();
    const saved = await this.users.insert({
      login: input.login,
      role: input.role,
      email: input.email ?? '',
      displayName: input.displayName ?? input.login,
      passwordHash: await hashPassword(normalizeApplicationPassword(password)),
    });
    return { user: toPublic(saved), password };
  }

  /**
   * Replaces the user's application password with `chosen` or a generated one, and returns it.
   * The server sees the new hash on the next request (its credential cache checks the hash).
   */
  async setPassword(login: string, chosen?: string): Promise<string> {
    if (chosen !== undefined) checkChosenPassword(chosen);
    const user = await this.users.byLogin(login);
    if (!user) throw new UserInputError('cli.users.no_user', { login });
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
    if (!user) throw new UserInputError('cli.users.no_user', { login });
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
    const hash = user?.loginPasswordHash ?? (await decoyHash());
    const ok = await verifyPassword(password, hash);
    return user?.loginPasswordHash && ok ? user : null;
  }

  async list(): Promise<PublicUser[]> {
    return (await this.users.all()).map(toPublic);
  }

  async delete(login: string): Promise<boolean> {
    const user = await this.users.byLogin(login);
    if (!user) return false;
    await this.users.deleteById(user.id);
    this.cache.forgetUser(user.id);
    return true;
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
      await verifyPassword(password, await decoyHash());
      return null;
    }
    const key = this.cache.key(login, password);
    if (this.cache.has(key, user)) return user;
    if (!(await this.verifyOnce(key, password, user.passwordHash))) return null;
    this.cache.remember(key, user);
    return user;
  }

  /** Verifications running, by credential key and stored hash. */
  private readonly verifying = new Map<string, Promise<boolean>>();

  /**
   * One scrypt run for the concurrent requests that bring the same credential before it is
   * remembered (a client's first requests in parallel): each run costs 0.1 s of CPU and 32 MB.
   */
  private verifyOnce(key: string, password: string, hash: string): Promise<boolean> {
    const flight = `${key}\0${hash}`;
    let verified = this.verifying.get(flight);
    if (!verified) {
      verified = verifyPassword(password, hash).finally(() => this.verifying.delete(flight));
      this.verifying.set(flight, verified);
    }
    return verified;
  }
}

const toPublic = (u: UserEntity): PublicUser => ({
  id: u.id,
  login: u.login,
  email: u.email,
  display_name: u.displayName,
  role: u.role,
});
