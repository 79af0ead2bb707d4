import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/actor.js';
import { ApiError, invalidParams, t } from '../common/errors/api-error.js';
import { UserInputError, UsersService } from '../auth/users/users.service.js';
import type { CreateUserDto, ListUsersQuery, UpdateUserDto } from './dto/user.dto.js';
import {
  toWpApplicationPassword,
  toWpUser,
  type WpApplicationPassword,
  type WpUser,
} from './user.mapper.js';

/** The WordPress code and message of a refusal to a caller who is not an administrator. */
type Refusal =
  | 'rest_forbidden'
  | 'rest_cannot_create_user'
  | 'rest_cannot_edit'
  | 'rest_user_cannot_delete'
  | 'rest_cannot_list_application_passwords'
  | 'rest_cannot_create_application_passwords'
  | 'rest_cannot_delete_application_password';

const notFound = () => new ApiError('rest_user_invalid_id', 404);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A refusal of the users service (UserInputError) as the API answers it: a login taken is
 * WordPress's `existing_user_login`, a duplicate application password name its
 * `application_password_duplicate_name` (409), the last administrator 409
 * `rest_user_last_administrator`, each with its code's message (errors.json, as the fuzzer holds
 * every API error to); any other a 400 on its parameter, with the same message as the CLI's (the
 * catalogues' cli.users).
 */
function asApiError(error: unknown): unknown {
  if (!(error instanceof UserInputError)) return error;
  const args = error.args as Record<string, string | number>;
  // The codes' own messages (errors.json), as every API error's; the name in question in them.
  switch (error.key) {
    case 'cli.users.login_taken':
      return new ApiError(
        'existing_user_login',
        400,
        {},
        t('errors.existing_user_login_named', args),
      );
    case 'cli.users.duplicate_application_password':
      return new ApiError(
        'application_password_duplicate_name',
        409,
        {},
        t('errors.application_password_duplicate_name_named', args),
      );
    case 'cli.users.last_administrator':
      return new ApiError('rest_user_last_administrator', 409);
    default:
      return invalidParams({ [error.field]: t(error.key, args) });
  }
}

async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw asApiError(error);
  }
}

/**
 * The users routes (CONTRACT §2 "Users"): administrators only, after validation as every route;
 * every write is UsersService's, which the CLI's commands call too.
 */
@Injectable()
export class UsersAdminService {
  constructor(private readonly users: UsersService) {}

  async list(
    query: ListUsersQuery,
    actor: Actor,
  ): Promise<{ users: WpUser[]; total: number; totalPages: number }> {
    this.authorize(actor, 'rest_forbidden');
    const perPage = query.per_page ?? 10;
    const page = query.page ?? 1;
    const { users, total } = await this.users.page(perPage, (page - 1) * perPage);
    const totalPages = Math.ceil(total / perPage);
    // WordPress: a page past the last is rest_invalid_page_number.
    if (page > 1 && page > totalPages) throw new ApiError('rest_invalid_page_number', 400);
    return { users: users.map(toWpUser), total, totalPages };
  }

  async get(id: number, actor: Actor): Promise<WpUser> {
    this.authorize(actor, 'rest_forbidden');
    const user = await this.users.byId(id);
    if (!user) throw notFound();
    return toWpUser(user);
  }

  async create(dto: CreateUserDto, actor: Actor): Promise<WpUser> {
    this.authorize(actor, 'rest_cannot_create_user');
    const { user } = await answering(
      this.users.create({
        login: dto.username,
        role: dto.roles?.[0] ?? 'subscriber',
        email: dto.email,
        displayName: dto.name,
        consolePassword: dto.password,
      }),
    );
    return this.get(user.id, actor);
  }

  async update(id: number, dto: UpdateUserDto, actor: Actor): Promise<WpUser> {
    this.authorize(actor, 'rest_cannot_edit', 'errors.rest_cannot_edit_user');
    const current = await this.users.byId(id);
    if (!current) throw notFound();
    if (dto.username !== undefined && dto.username !== current.login) {
      throw new ApiError('rest_user_invalid_argument', 400);
    }
    const updated = await answering(
      this.users.update(id, {
        email: dto.email,
        displayName: dto.name,
        role: dto.roles?.[0],
        consolePassword: dto.password,
      }),
    );
    if (!updated) throw notFound();
    return toWpUser(updated);
  }

  /** WordPress's answer to a forced delete: `{deleted: true, previous}`. */
  async remove(id: number, actor: Actor): Promise<{ deleted: true; previous: WpUser }> {
    this.authorize(actor, 'rest_user_cannot_delete');
    const previous = await answering(this.users.deleteById(id));
    if (!previous) throw notFound();
    return { deleted: true, previous: toWpUser(previous) };
  }

  async applicationPasswords(id: number, actor: Actor): Promise<WpApplicationPassword[]> {
    this.authorize(actor, 'rest_cannot_list_application_passwords');
    const rows = await this.users.applicationPasswords(id);
    if (!rows) throw notFound();
    return rows.map(toWpApplicationPassword);
  }

  /** The new password is in this answer only (WordPress shows it once). */
  async createApplicationPassword(
    id: number,
    name: string,
    actor: Actor,
  ): Promise<WpApplicationPassword> {
    this.authorize(actor, 'rest_cannot_create_application_passwords');
    const made = await answering(this.users.createApplicationPassword(id, name.trim()));
    if (!made) throw notFound();
    return { ...toWpApplicationPassword(made.row), password: made.password };
  }

  async revokeApplicationPassword(
    id: number,
    uuid: string,
    actor: Actor,
  ): Promise<{ deleted: true; previous: WpApplicationPassword }> {
    this.authorize(actor, 'rest_cannot_delete_application_password');
    if (!(await this.users.byId(id))) throw notFound();
    const revoked = UUID.test(uuid) ? await this.users.revokeApplicationPassword(id, uuid) : null;
    if (!revoked) throw new ApiError('rest_application_password_not_found', 404);
    return { deleted: true, previous: toWpApplicationPassword(revoked) };
  }

  /**
   * Administrators only: 401 without credentials, 403 with a lesser role (CONTRACT §2), with
   * WordPress's code of the route (`rest_cannot_create_user`, ...).
   */
  private authorize(actor: Actor, code: Refusal, message = `errors.${code}`): void {
    if (actor.user?.role === 'administrator') return;
    throw new ApiError(code, actor.user ? 403 : 401, {}, t(message));
  }
}
