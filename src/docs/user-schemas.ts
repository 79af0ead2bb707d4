import { resourceDoc } from '../common/i18n/doc-key.js';
import { ROLES } from '../common/roles.js';
import { adminResponses, ref, routeResponses, type ResponseObject, type Schema } from './schema.js';

/** `users.doc.<key>` in i18n/<lang>/users.json. */
const udoc = resourceDoc('users');
const prop = (type: string, key: string, extra: Schema = {}): Schema => ({
  type,
  description: udoc(`schema.${key}`),
  ...extra,
});
const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
});

const user = {
  id: prop('integer', 'id'),
  username: prop('string', 'username'),
  name: prop('string', 'name'),
  email: prop('string', 'email'),
  roles: prop('array', 'roles', { items: { type: 'string', enum: [...ROLES] } }),
  registered_date: prop('string', 'registered_date', { format: 'date-time' }),
  has_console_password: prop('boolean', 'has_console_password'),
};
const USER_FIELDS = Object.keys(user);

const applicationPassword = {
  uuid: prop('string', 'uuid', { format: 'uuid' }),
  app_id: prop('string', 'app_id'),
  name: prop('string', 'app_password_name'),
  created: prop('string', 'created', { format: 'date-time' }),
  last_used: prop('string', 'last_used', { nullable: true }),
  last_ip: prop('string', 'last_ip', { nullable: true }),
};
const APPLICATION_PASSWORD_FIELDS = Object.keys(applicationPassword);

/** The users routes' bodies (CONTRACT §2 "Users"). */
export const USER_SCHEMAS: Record<string, Schema> = {
  User: object(user, USER_FIELDS),
  UserList: { type: 'array', description: udoc('schema.users'), items: ref('User') },
  DeletedUser: object(
    { deleted: prop('boolean', 'deleted'), previous: prop('object', 'previous_user', ref('User')) },
    ['deleted', 'previous'],
  ),
  ApplicationPassword: object(applicationPassword, APPLICATION_PASSWORD_FIELDS),
  ApplicationPasswordWithPassword: object(
    { ...applicationPassword, password: prop('string', 'password') },
    [...APPLICATION_PASSWORD_FIELDS, 'password'],
  ),
  ApplicationPasswordList: {
    type: 'array',
    description: udoc('schema.application_passwords'),
    items: ref('ApplicationPassword'),
  },
  DeletedApplicationPassword: object(
    {
      deleted: prop('boolean', 'deleted'),
      previous: prop('object', 'previous_password', ref('ApplicationPassword')),
    },
    ['deleted', 'previous'],
  ),
};

const { ok, error, guarded, item } = adminResponses(udoc);
const TOTALS = {
  'X-WP-Total': { description: udoc('responses.total'), schema: { type: 'integer' } },
  'X-WP-TotalPages': { description: udoc('responses.total_pages'), schema: { type: 'integer' } },
};

/** POST, PUT and PATCH of one record answer alike. */
const UPDATED = {
  '200': ok('update_200', 'User'),
  '400': error('write_400'),
  ...item,
  '409': error('last_administrator'),
};

/** The documented responses of each users route, by method and path (relative to the namespace). */
const USER_RESPONSES: Record<string, Record<string, ResponseObject>> = {
  'get /users': {
    '200': { ...ok('list_200', 'UserList'), headers: TOTALS },
    '400': error('list_400'),
    ...guarded,
  },
  'post /users': { '201': ok('create_201', 'User'), '400': error('write_400'), ...guarded },
  'get /users/{id}': { '200': ok('get_200', 'User'), ...item },
  'post /users/{id}': UPDATED,
  'put /users/{id}': UPDATED,
  'patch /users/{id}': UPDATED,
  'delete /users/{id}': {
    '200': ok('delete_200', 'DeletedUser'),
    ...item,
    '409': error('last_administrator'),
  },
  'get /users/{id}/application-passwords': {
    '200': ok('passwords_200', 'ApplicationPasswordList'),
    ...item,
  },
  'post /users/{id}/application-passwords': {
    '201': ok('password_201', 'ApplicationPasswordWithPassword'),
    '400': error('write_400'),
    ...item,
    '409': error('duplicate_name'),
  },
  'delete /users/{id}/application-passwords/{uuid}': {
    '200': ok('password_delete_200', 'DeletedApplicationPassword'),
    ...item,
  },
};

/** The documented responses of a users route (`path` relative to the namespace). */
export const userResponses = routeResponses(USER_RESPONSES);
