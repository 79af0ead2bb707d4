import type {
  CreateParams,
  DataProvider,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetOneParams,
  RaRecord,
  UpdateParams,
} from 'react-admin';
import { api } from './api';

/** A user as the API answers it (CONTRACT §2 "Users", WordPress's `/wp/v2/users` names). */
interface ApiUser {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: string[];
  registered_date: string;
  has_console_password: boolean;
}

/** The form edits one `role`; the API's `roles` is a list of one. Passwords are never read back. */
const fromApi = (user: ApiUser): RaRecord => ({ ...user, role: user.roles[0], password: '' });

/** What a user form writes: `username` only on create, the console password only when typed. */
function toApi(data: Record<string, unknown>, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (create) body.username = data.username;
  for (const field of ['name', 'email'] as const) {
    if (typeof data[field] === 'string') body[field] = data[field];
  }
  if (typeof data.role === 'string') body.roles = [data.role];
  if (typeof data.password === 'string' && data.password !== '') body.password = data.password;
  return body;
}

/** A page holds at most this many users (the API's bound). */
const MAX_PER_PAGE = 100;

/** The `users` resource's calls (administrators only): WordPress's list is an array, its total in `X-WP-Total`. */
const users = {
  async getList({ pagination }: GetListParams) {
    const { page = 1, perPage = 25 } = pagination ?? {};
    const { body, headers } = await api<ApiUser[]>(
      `/users?page=${page}&per_page=${Math.min(perPage, MAX_PER_PAGE)}`,
    ).catch((error: { status?: number }) => {
      // A page past the last: the API answers 400, a list shows nothing.
      if (error.status === 400 && page > 1)
        return { body: [] as ApiUser[], headers: new Headers({ 'X-WP-Total': '0' }) };
      throw error;
    });
    return { data: body.map(fromApi), total: Number(headers.get('X-WP-Total') ?? body.length) };
  },
  async getOne({ id }: GetOneParams) {
    return { data: fromApi((await api<ApiUser>(`/users/${id}`)).body) };
  },
  async getMany({ ids }: GetManyParams) {
    const answers = await Promise.all(
      ids.slice(0, MAX_PER_PAGE).map((id) => api<ApiUser>(`/users/${id}`)),
    );
    return { data: answers.map(({ body }) => fromApi(body)) };
  },
  async create({ data }: CreateParams) {
    const { body } = await api<ApiUser>('/users', {
      method: 'POST',
      body: JSON.stringify(toApi(data as Record<string, unknown>, true)),
    });
    return { data: fromApi(body) };
  },
  async update({ id, data }: UpdateParams) {
    const { body } = await api<ApiUser>(`/users/${id}`, {
      method: 'POST',
      body: JSON.stringify(toApi(data as Record<string, unknown>, false)),
    });
    return { data: fromApi(body) };
  },
  async delete({ id, previousData }: DeleteParams) {
    await api(`/users/${id}`, { method: 'DELETE' });
    return { data: previousData ?? { id } };
  },
};

/** The console's data provider with the `users` resource beside its collections. */
export const withUsers = (base: DataProvider): DataProvider => ({
  ...base,
  getList: (resource, params) =>
    resource === 'users' ? (users.getList(params) as never) : base.getList(resource, params),
  getOne: (resource, params) =>
    resource === 'users' ? (users.getOne(params) as never) : base.getOne(resource, params),
  getMany: (resource, params) =>
    resource === 'users' ? (users.getMany(params) as never) : base.getMany(resource, params),
  create: (resource, params) =>
    resource === 'users' ? (users.create(params) as never) : base.create(resource, params),
  update: (resource, params) =>
    resource === 'users' ? (users.update(params) as never) : base.update(resource, params),
  delete: (resource, params) =>
    resource === 'users' ? (users.delete(params) as never) : base.delete(resource, params),
});
