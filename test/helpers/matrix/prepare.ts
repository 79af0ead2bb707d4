/** What a case of the authorization matrix addresses and sends (matrix/run-case.ts sends it). */
import { KIND, REASSIGNEE, type Case, type Collection, type Expected, type Seed } from './model.js';
import { createBody, inDays, loginOf, ok, ownerLogin, PASSWORD, seedKey } from './requests.js';
import type { MatrixWorld } from './world.js';

/** The shared record a case addresses (none for creates, lists, missing ids). */
export function targetOf(w: MatrixWorld, c: Case): Seed | undefined {
  const collection = c.route.split('/')[1] as Collection;
  if (collection === 'categories' || collection === 'tags') return undefined;
  const kind = KIND[collection];
  if (c.state.type === 'record') {
    return w.seeds.get(seedKey(kind, c.state.condition, ownerLogin(c.role, c.state.owner)));
  }
  // Another kind's record: a venue for event routes, an event for venue/organizer routes.
  if (c.state.type === 'foreign') {
    return w.seeds.get(seedKey(kind === 'event' ? 'venue' : 'event', 'publish', 'administrator'));
  }
  return undefined;
}

export interface Prepared {
  path: string;
  body?: Record<string, unknown>;
  query: Record<string, string>;
  target?: Seed;
  shared: boolean;
}

export async function prepareTerm(w: MatrixWorld, c: Case, name: string): Promise<Prepared> {
  const collection = c.route.split('/')[1] as 'categories' | 'tags';
  let id: number;
  if (c.state.type === 'term-gone') id = w.terms[collection].gone;
  else if (c.method === 'DELETE') {
    // Every term DELETE gets its own term (a success removes it for good).
    const made = await ok(
      await w.send('POST', `/${collection}`, 'editor').send({ name }),
      `term ${name}`,
    );
    id = made.id as number;
  } else id = w.terms[collection]['published-event'];
  const query: Record<string, string> = {};
  let body: Record<string, unknown> | undefined;
  if (c.method === 'POST' && c.route === `/${collection}`) body = { name };
  else if (c.method !== 'GET' && c.method !== 'DELETE') body = { description: 'Matrix update' };
  else if (c.state.type === 'term-list') {
    Object.assign(query, { search: 'mxseedterm', per_page: '50' });
    if (c.state.hideEmpty === false) query.hide_empty = 'false';
  }
  return { path: c.route.replace('{id}', String(id)), body, query, shared: true };
}

/** The body of a create case. */
function createFields(w: MatrixWorld, c: Case): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (c.state.type !== 'create') return fields;
  if (c.state.status) fields.status = c.state.status;
  if (c.state.futureDate) fields.date = inDays(30);
  if (c.state.author === 'other') {
    fields.author = w.accounts[c.role === 'administrator' ? 'editor' : 'administrator'].id;
  } else if (c.state.author === 'self') {
    // Anonymous callers have no id: any existing user (they get 401 all the same).
    fields.author = w.accounts[loginOf(c.role) ?? 'subscriber'].id;
  }
  return fields;
}

export async function prepareRecord(w: MatrixWorld, c: Case, exp: Expected, name: string) {
  const kind = KIND[c.route.split('/')[1] as 'events'];
  const { state } = c;
  let target = targetOf(w, c);
  let shared = true;
  if (state.type === 'record' && c.method === 'DELETE' && exp.status === 200) {
    // A successful DELETE trashes: it gets a record of its own in the same state.
    target = await w.makeRecord(kind, state.condition, target!.ownerLogin, name);
    shared = false;
  }
  let path = c.route as string;
  if (state.type === 'missing')
    path = path.replace('{id}', '999999').replace('{slug}', 'mx-missing');
  else if (target) path = path.replace('{id}', String(target.id)).replace('{slug}', target.slug);
  const query: Record<string, string> = {};
  if (state.type === 'record' && state.unlock === 'password') query.password = PASSWORD;
  if (state.type === 'record' && state.unlock === 'edit') query.context = 'edit';
  let body: Record<string, unknown> | undefined;
  if (state.type === 'create') body = createBody(kind, name, createFields(w, c));
  else if (c.method !== 'GET' && c.method !== 'DELETE') {
    body = { description: 'Matrix update' };
    // A module's write field rides along every event update (Virtual Events).
    if (kind === 'event') body.virtual_video_source = 'zoom';
    if (state.type === 'record' && state.reassign) {
      const login = state.reassign === 'self' ? (loginOf(c.role) ?? 'subscriber') : REASSIGNEE;
      body.author = w.accounts[login].id;
    }
  }
  return { path, body, query, target, shared } satisfies Prepared;
}
