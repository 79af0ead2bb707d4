/**
 * The authorization matrix's users part (CONTRACT §2 "Users"): every route × method × role ×
 * state of `cal/events/v1/users`, by HTTP Basic and by the console's session, compared with the
 * table below, written here from CONTRACT §2 independently of the service's code:
 *  - only administrators may do anything; anonymous callers get 401 and every other role 403, with
 *    WordPress's code of the route (`rest_forbidden` for reads, `rest_cannot_create_user`, ...);
 *  - parameters are validated first: a bad body is 400 for everyone (CONTRACT §2 "Parameters are
 *    validated before permissions are checked");
 *  - an administrator addressing a user (or application password) that does not exist gets 404;
 *  - a method a route does not have is 404 `rest_no_route` for everyone (CONTRACT §4).
 * Writes address a fresh user (and application password) made for the case, so no case depends on
 * another; after a refused write the fresh user is checked to be unchanged.
 */
import { UsersService } from '../../src/auth/users/users.service.js';
import { closeApp } from './create-test-app.js';
import type { Method, Role } from './matrix/model.js';
import { ROLES } from './matrix/model.js';
import { CONCURRENCY, loginOf, pool } from './matrix/requests.js';
import { MatrixWorld } from './matrix/world.js';

type UserRoute =
  | '/users'
  | '/users/{id}'
  | '/users/{id}/application-passwords'
  | '/users/{id}/application-passwords/{uuid}';
/** `ok`: a well-formed request about something that exists; `missing`: an id or uuid of nothing; `invalid`: a bad body. */
type UserState = 'ok' | 'missing' | 'invalid';

interface UserCase {
  route: UserRoute;
  method: Method;
  role: Role;
  state: UserState;
}

const ROUTES: UserRoute[] = [
  '/users',
  '/users/{id}',
  '/users/{id}/application-passwords',
  '/users/{id}/application-passwords/{uuid}',
];
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The methods each route has, with the success status and the refusal code of CONTRACT §2. */
const TABLE: Record<UserRoute, Partial<Record<Method, { status: number; refusal: string }>>> = {
  '/users': {
    GET: { status: 200, refusal: 'rest_forbidden' },
    POST: { status: 201, refusal: 'rest_cannot_create_user' },
  },
  '/users/{id}': {
    GET: { status: 200, refusal: 'rest_forbidden' },
    POST: { status: 200, refusal: 'rest_cannot_edit' },
    PUT: { status: 200, refusal: 'rest_cannot_edit' },
    PATCH: { status: 200, refusal: 'rest_cannot_edit' },
    DELETE: { status: 200, refusal: 'rest_user_cannot_delete' },
  },
  '/users/{id}/application-passwords': {
    GET: { status: 200, refusal: 'rest_cannot_list_application_passwords' },
    POST: { status: 201, refusal: 'rest_cannot_create_application_passwords' },
  },
  '/users/{id}/application-passwords/{uuid}': {
    DELETE: { status: 200, refusal: 'rest_cannot_delete_application_password' },
  },
};

const hasBody = (method: Method) => method === 'POST' || method === 'PUT' || method === 'PATCH';

export function buildUserCases(): UserCase[] {
  const cases: UserCase[] = [];
  for (const route of ROUTES) {
    for (const method of METHODS) {
      for (const role of ROLES) {
        const states: UserState[] = ['ok'];
        if (TABLE[route][method] && route !== '/users') states.push('missing');
        if (TABLE[route][method] && hasBody(method)) states.push('invalid');
        for (const state of states) cases.push({ route, method, role, state });
      }
    }
  }
  return cases;
}

/** What CONTRACT §2 answers to case `c`. */
function expectedUser(c: UserCase): { status: number; code?: string } {
  const entry = TABLE[c.route][c.method];
  if (!entry) return { status: 404, code: 'rest_no_route' };
  if (c.state === 'invalid') return { status: 400 };
  if (c.role !== 'administrator') {
    return { status: c.role === 'anonymous' ? 401 : 403, code: entry.refusal };
  }
  if (c.state === 'missing') {
    const appPassword = c.route.endsWith('{uuid}');
    return {
      status: 404,
      code: appPassword ? 'rest_application_password_not_found' : 'rest_user_invalid_id',
    };
  }
  return { status: entry.status };
}

const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

function bodyOf(c: UserCase, n: number): Record<string, unknown> | undefined {
  if (!hasBody(c.method)) return undefined;
  const bad = c.state === 'invalid';
  if (c.route === '/users') {
    return bad
      ? { username: 'not a login!' }
      : { username: `mxuser${n}`, roles: ['author'], password: 'matrix console pw' };
  }
  if (c.route === '/users/{id}') return bad ? { email: 'not-an-address' } : { name: `Matrix ${n}` };
  return bad ? { name: '' } : { name: `matrix app ${n}` };
}

/** The users part of the matrix, sent by `transport`. */
export function describeUsersAuthorizationMatrix(transport: 'basic' | 'session'): void {
  describe(`authorization matrix: users via ${transport} (e2e)`, () => {
    const world = new MatrixWorld(transport);

    beforeAll(() => world.start([]), 120_000);
    afterAll(() => closeApp(world.app));

    it('answers every users route × method × role × state as CONTRACT §2 says', async () => {
      const users = world.app.get(UsersService);
      const cases = buildUserCases();
      const lines: string[] = [];
      let serial = 0;
      await pool(cases, CONCURRENCY, async (c) => {
        const n = ++serial;
        // A fresh user (and application password) for each case: writes never meet.
        const { user } = await users.create({ login: `mxtarget${n}`, role: 'subscriber' });
        const made = await users.createApplicationPassword(user.id, 'target');
        const id =
          c.state === 'missing' && c.route !== '/users/{id}/application-passwords/{uuid}'
            ? 999_999
            : user.id;
        const uuid = c.state === 'missing' ? MISSING_UUID : made!.row.uuid;
        const path = c.route.replace('{id}', String(id)).replace('{uuid}', uuid);
        const call = world.send(c.method, path, loginOf(c.role));
        const body = bodyOf(c, n);
        const res = await (body ? call.send(body) : call);
        const exp = expectedUser(c);
        const problems: string[] = [];
        if (res.status !== exp.status) problems.push(`${res.status}`);
        if (exp.code && res.body?.code !== exp.code) problems.push(`code=${res.body?.code}`);
        if (res.status < 300 && /password_hash|scrypt\$/.test(JSON.stringify(res.body)))
          problems.push('a hash in the answer');
        // A refused write changed nothing.
        if (exp.status >= 300 && c.method !== 'GET') {
          const after = await users.byId(user.id);
          const passwords = await users.applicationPasswords(user.id);
          if (!after || after.display_name !== user.display_name || passwords?.length !== 1)
            problems.push('the refused write changed the user');
        }
        if (problems.length) {
          lines.push(
            `${c.method} ${c.route} as ${c.role} [${c.state}]: expected ${exp.status} ${exp.code ?? ''}, got ${problems.join(' ')} ${JSON.stringify(res.body).slice(0, 160)}`,
          );
        }
      });
      const summary = `authorization matrix (users, ${transport}): ${cases.length} cases, ${lines.length} violations`;
      console.log(summary);
      if (lines.length) throw new Error(`${summary}\n${lines.join('\n')}`);
    }, 600_000);
  });
}
