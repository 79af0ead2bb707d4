/**
 * The CONTRACT §2 table, encoded independently of the service's policy code
 * (src/auth/post-policy.ts is never imported); the decisions D-a to D-f are explained in
 * test/helpers/authorization-matrix.ts.
 */
import {
  ANY,
  CONTRIBUTOR_EDITABLE,
  EDITORS,
  forbidden,
  invalidParam,
  KIND,
  PUBLISHED,
  PUBLISHERS,
  REASSIGNEE,
  type Collection,
  type Condition,
  type Expected,
  type Kind,
  type Method,
  type Owner,
  type Requested,
  type Role,
  type Route,
  type State,
} from './model.js';

/** CONTRACT §2 "read draft/pending/private/future records": all / own / own / no. */
function readsUnpublished(role: Role, owner: Owner): boolean {
  if (EDITORS.includes(role)) return true;
  if (role === 'author' || role === 'contributor') return owner === 'own';
  return false;
}

/** CONTRACT §2 "update / delete": any / own / own unpublished / no. */
function edits(role: Role, owner: Owner, condition: Condition): boolean {
  if (EDITORS.includes(role)) return true;
  if (owner !== 'own') return false;
  if (role === 'author') return true;
  if (role === 'contributor') return CONTRIBUTOR_EDITABLE.includes(condition);
  return false;
}

/** BEHAVIOR §4.11: the right password, or `context=edit` by someone who may edit the record. */
function opens(role: Role, owner: Owner, unlock: 'password' | 'edit' | undefined): boolean {
  if (unlock === 'password') return true;
  return unlock === 'edit' && edits(role, owner, 'protected');
}

/** BEHAVIOR §7.1.6 with CONTRACT §3: what a create stores. */
function storedStatus(role: Role, requested: Requested | undefined, futureDate: boolean): string {
  if (!PUBLISHERS.includes(role)) {
    if (requested === 'draft' || requested === 'pending') return requested;
    return requested === undefined ? 'draft' : 'pending';
  }
  const status = requested ?? 'publish';
  if (status === 'publish' && futureDate) return 'future';
  if (status === 'future' && !futureDate) return 'publish';
  return status;
}

export function expected(route: Route, method: Method, role: Role, state: State): Expected {
  const collection = route.split('/')[1] as Collection;
  if (collection === 'categories' || collection === 'tags') {
    return expectedTerm(route === `/${collection}`, method, role, state);
  }
  const kind = KIND[collection];
  if (route === `/${collection}`) {
    return method === 'GET' ? expectedList(kind, role, state) : expectedCreate(role, state);
  }
  const bySlug = route.includes('/by-slug/');
  if (method === 'GET') return expectedRead(kind, bySlug, role, state);
  return expectedWrite(kind, bySlug, method === 'DELETE', role, state);
}

/** BEHAVIOR §6.1 (events) and §6.2 (venues, organizers). */
function expectedRead(kind: Kind, bySlug: boolean, role: Role, state: State): Expected {
  if (state.type === 'missing') {
    return kind === 'event' && !bySlug
      ? { status: 404, code: 'rest-event-not-found' }
      : invalidParam;
  }
  if (state.type === 'foreign') {
    return kind === 'event' ? { status: 400, code: 'rest-invalid-event-id' } : invalidParam;
  }
  if (state.type !== 'record') throw new Error(`no read of ${JSON.stringify(state)}`);
  const { condition, owner, unlock } = state;
  const published = PUBLISHED.includes(condition);
  if (kind === 'event') {
    if (condition === 'trash') return { status: 403, code: 'event-no-longer-available' };
    if (!published && !readsUnpublished(role, owner)) {
      return { status: 403, code: 'event-not-accessible' }; // D-c for by-slug
    }
    if (condition === 'protected' && !opens(role, owner, unlock)) {
      return { status: 403, code: 'event-password-protected' };
    }
    return { status: 200, redacted: false };
  }
  // §6.2: trashed venues/organizers are readable by whoever may edit them (D-a).
  const readable =
    condition === 'trash'
      ? edits(role, owner, condition)
      : published || readsUnpublished(role, owner);
  if (!readable) return { status: 403, code: `${kind}-not-accessible` };
  // Protected venues/organizers are never a 403: redacted unless unlocked (§4.11).
  return { status: 200, redacted: condition === 'protected' && !opens(role, owner, unlock) };
}

/** BEHAVIOR §7.2/§7.3 (events), §7.4.3/§7.4.4 (venues; organizers alike, §7.5). */
function expectedWrite(
  kind: Kind,
  bySlug: boolean,
  isDelete: boolean,
  role: Role,
  state: State,
): Expected {
  // D-f: another kind's id is a 400 before the permission check.
  if (state.type === 'foreign') {
    return kind === 'event' ? { status: 400, code: 'rest-invalid-event-id' } : invalidParam;
  }
  if (state.type === 'missing') {
    // Venues/organizers: an unknown id or slug is a 400 before the permission check. Events: an
    // unknown slug on DELETE likewise; otherwise the permission check falls back to the general
    // capability (contributor and above), then 404 (§7.2, §7.3; by-slug update "ID 0").
    if (kind !== 'event' || (bySlug && isDelete)) return invalidParam;
    if (role === 'anonymous' || role === 'subscriber') return forbidden(role);
    return { status: 404, code: 'rest-event-not-found' };
  }
  if (state.type !== 'record') throw new Error(`no write of ${JSON.stringify(state)}`);
  if (!edits(role, state.owner, state.condition)) return forbidden(role);
  if (isDelete && state.condition === 'trash') return { status: 410, code: `${kind}-is-in-trash` };
  // D-b: only editors and administrators give a record to someone else.
  if (state.reassign === 'other' && !EDITORS.includes(role)) {
    return { status: 403, code: 'rest_cannot_edit' };
  }
  // §4.11: write answers redact a protected record the request has not unlocked (D-d).
  const redacted = state.condition === 'protected';
  if (!state.reassign) return { status: 200, redacted };
  return { status: 200, redacted, authorLogin: state.reassign === 'self' ? role : REASSIGNEE };
}

/** CONTRACT §2 "create events, venues, organizers" and BEHAVIOR §7.1.6. */
function expectedCreate(role: Role, state: State): Expected {
  if (state.type !== 'create') throw new Error(`no create of ${JSON.stringify(state)}`);
  if (role === 'anonymous' || role === 'subscriber') return forbidden(role);
  // D-b: only editors and administrators create records of others.
  if (state.author === 'other' && !EDITORS.includes(role)) {
    return { status: 403, code: 'rest_cannot_create' };
  }
  const stored = storedStatus(role, state.status, !!state.futureDate);
  return { status: 201, stored, author: state.author === 'other' ? 'other' : 'self' };
}

/** BEHAVIOR §5.2.5 (and §5.3 for venues/organizers), with the CONTRACT §2 visibility rules. */
function expectedList(kind: Kind, role: Role, state: State): Expected {
  if (state.type !== 'list') throw new Error(`no list of ${JSON.stringify(state)}`);
  const mayAsk = role !== 'anonymous' && role !== 'subscriber';
  let statuses: string[];
  if (!mayAsk) {
    // Only exactly `publish` may be asked for by callers without the edit capability.
    if (state.status !== undefined && state.status !== 'publish') return invalidParam;
    statuses = ['publish'];
  } else {
    const asked = state.status === undefined ? ['any'] : state.status.split(',');
    statuses = asked.flatMap((s) => (s === 'any' ? ANY : [s]));
  }
  return {
    status: 200,
    sees: (record) => {
      if (!('condition' in record)) return false;
      // §5.2.2: hidden events are never listed, for anyone, under any filter.
      if (kind === 'event' && record.condition === 'hidden') return false;
      const status = PUBLISHED.includes(record.condition) ? 'publish' : record.condition;
      if (!statuses.includes(status)) return false;
      return status === 'publish' || readsUnpublished(role, record.own ? 'own' : 'other');
    },
  };
}

/** BEHAVIOR §5.4, §6.3, §7.6 with CONTRACT §2: terms are managed by editors/administrators. */
function expectedTerm(collection: boolean, method: Method, role: Role, state: State): Expected {
  if (collection) {
    if (method === 'GET') {
      if (state.type !== 'term-list') throw new Error('term list state expected');
      // Same for every caller: hide_empty counts published events only.
      const all = state.hideEmpty === false;
      return {
        status: 200,
        sees: (record) => 'use' in record && (all || record.use === 'published-event'),
      };
    }
    return EDITORS.includes(role) ? { status: 201 } : forbidden(role);
  }
  // An id that is no term of the kind is a 400 before the permission check (§1.1, §7.6).
  if (state.type === 'term-gone') return invalidParam;
  if (method === 'GET') return { status: 200 };
  return EDITORS.includes(role) ? { status: 200 } : forbidden(role);
}
