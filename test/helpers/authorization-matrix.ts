/**
 * Authorization matrix (CONTRACT §2's capabilities by role), walked in parts (one test file per part, so that the test
 * workers share it out: test/auth/authorization-matrix-*.e2e-spec.ts); together they walk every case.
 *
 * Walks every route × method × role × record state of the five resources and compares each
 * answer with `expected()`, an explicit encoding of the roles table of CONTRACT §2 written here,
 * independently of the service's own policy code (src/auth/post-policy.ts is never imported):
 * details from BEHAVIOR §8.2 (matrix), §6.1/§6.2 (single reads), §7.2-§7.6 (writes), §5.2.5
 * (list visibility), §4.11 (password protection), §1.1 (validation before permission).
 *
 * Records are built in beforeAll through the API, as their author where the author's role can
 * produce the state, else as an editor with `author` set; what the API cannot produce directly
 * is set in the database (a `future` record whose date has passed; the slug of a draft venue or
 * organizer, which WordPress assigns only on publication). Update cases send one harmless field
 * (`description`), so a successful update leaves the record in its state; every DELETE that is
 * expected to succeed gets a fresh record; an unexpected success on a shared record is reported
 * and the record's status restored, so no case depends on the order the cases run in.
 *
 * Decisions where CONTRACT and BEHAVIOR leave a case open (what the CONTRACT table implies):
 *  D-a  A trashed record counts as unpublished for its contributor (CONTRACT §2 "own unpublished
 *       records"; WordPress checks a trashed post against its pre-trash status, and the only way a
 *       contributor's record reaches the trash through the API is from draft/pending): the
 *       contributor may update it, may read it (venues/organizers, BEHAVIOR §6.2 "readable by
 *       callers who may edit them"), and a second DELETE answers 410 like everyone's (CONTRACT §3).
 *  D-b  Naming another user as `author` (CONTRACT §2 "any `author`" / "only as themselves", as
 *       WordPress's `edit_others_posts`): editors and administrators may, on create and update;
 *       authors and contributors get 403 `rest_cannot_create` (create) or `rest_cannot_edit`
 *       (update), after the general permission check (so a record they may not edit at all is
 *       still `rest_forbidden`). Naming themselves is always allowed.
 *  D-c  GET /events/by-slug/{slug} of an event the caller may not read: 403 event-not-accessible
 *       (the plugin's answer; BEHAVIOR §6.1 accepts 400 too, neither leaks the record).
 *  D-d  DELETE (and update) of a password-protected record without its password: 200 for whoever
 *       may edit it, the record redacted in the answer (BEHAVIOR §4.11, §7.3: `password` only
 *       unlocks the response); the 403 `event-password-protected` is the answer of event reads
 *       only (CONTRACT §6 "the plugin's ... answer").
 *  D-e  A contributor may not update or delete an own `future` record (WordPress treats scheduled
 *       like published; BEHAVIOR §8.2 lists draft, pending and own private as unpublished).
 *  D-f  An event route given the id of a venue or organizer answers 400 rest-invalid-event-id to
 *       every caller, writes included (BEHAVIOR §1.6, CONTRACT §6: the id is checked like a
 *       parameter, before permissions, as venue/organizer routes do; the plugin checks the
 *       caller's rights on that other post first, so anonymous callers would get 401 there).
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createRoleUsers, logIn, type Credentials, type Session } from './auth.js';
import { closeApp, createTestApp } from './create-test-app.js';

// =================================================================================================
// The CONTRACT §2 table, encoded independently
// =================================================================================================

type Role = 'anonymous' | 'subscriber' | 'contributor' | 'author' | 'editor' | 'administrator';
type Kind = 'event' | 'venue' | 'organizer';
type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Route = `/${Collection}` | `/${Collection}/{id}` | `/${Collection}/by-slug/{slug}`;

/**
 * The state of a post record: its status (`future-past` = scheduled, date passed, CONTRACT §6),
 * or a published record that is password protected / hidden from listings (events).
 */
type Condition =
  | 'publish'
  | 'future-past'
  | 'protected'
  | 'hidden'
  | 'draft'
  | 'pending'
  | 'private'
  | 'future'
  | 'trash';
/**
 * Whose record, seen from the caller: their own, or another user's. "Other" is a second user of
 * the caller's own role for subscribers, contributors and authors (so ownership must be decided by
 * user, not by role), the administrator's for editors (and the editor's for administrators), the
 * administrator's for anonymous callers. Lists see the records of all eight owners.
 */
type Owner = 'own' | 'other';
type Requested = 'publish' | 'future' | 'draft' | 'pending' | 'private';
type TermUse = 'published-event' | 'draft-event' | 'unused';

/** Update cases that also send `author`: the caller themselves, or a third user. */
type Reassign = 'self' | 'other';

type State =
  | {
      type: 'record';
      condition: Condition;
      owner: Owner;
      unlock?: 'password' | 'edit';
      reassign?: Reassign;
    }
  | { type: 'missing' }
  | { type: 'foreign' }
  | { type: 'create'; status?: Requested; futureDate?: boolean; author?: Reassign }
  | { type: 'list'; status?: string }
  | { type: 'term' }
  | { type: 'term-gone' }
  | { type: 'term-list'; hideEmpty?: false };

/** A seeded record as a list sees it. */
type Listed = { condition: Condition; own: boolean } | { use: TermUse };

interface Expected {
  status: number;
  code?: string;
  /** Create: the status stored (BEHAVIOR §7.1.6). */
  stored?: string;
  /** Create: whose record it is (`other`: the user the case named); update: see `authorLogin`. */
  author?: 'self' | 'other';
  /** Update with `author`: the login the record belongs to afterwards. */
  authorLogin?: string;
  /** Single 200 answers of protected records: redacted (BEHAVIOR §4.11) or not. */
  redacted?: boolean;
  /** Lists: which seeded records the caller sees. */
  sees?: (record: Listed) => boolean;
}

const ROLES: Role[] = [
  'anonymous',
  'subscriber',
  'contributor',
  'author',
  'editor',
  'administrator',
];
const EDITORS: Role[] = ['editor', 'administrator'];
const PUBLISHERS: Role[] = ['author', 'editor', 'administrator'];
/** CONTRACT §6: a scheduled record whose date has passed counts as published. */
const PUBLISHED: Condition[] = ['publish', 'future-past', 'protected', 'hidden'];
/** BEHAVIOR §8.2 "unpublished for contributors": draft, pending, own private; trash (D-a). */
const CONTRIBUTOR_EDITABLE: Condition[] = ['draft', 'pending', 'private', 'trash'];
/** BEHAVIOR §5.2.5: `any` = everything but trash. */
const ANY = ['publish', 'future', 'draft', 'pending', 'private'];

const KIND: Record<'events' | 'venues' | 'organizers', Kind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
};

const forbidden = (role: Role): Expected => ({
  status: role === 'anonymous' ? 401 : 403,
  code: 'rest_forbidden',
});
const invalidParam: Expected = { status: 400, code: 'rest_invalid_param' };

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

function expected(route: Route, method: Method, role: Role, state: State): Expected {
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

// =================================================================================================
// The cases
// =================================================================================================

interface Case {
  route: Route;
  method: Method;
  role: Role;
  state: State;
}

/** States written to: the statuses of CONTRACT §3 and a password-protected published record. */
const WRITE_CONDITIONS: Condition[] = [
  'publish',
  'protected',
  'draft',
  'pending',
  'private',
  'future',
  'trash',
];
/** States read (and listed): also a scheduled record whose date passed, and hidden events. */
const READ_CONDITIONS: Record<Kind, Condition[]> = {
  event: [...WRITE_CONDITIONS, 'future-past', 'hidden'],
  venue: [...WRITE_CONDITIONS, 'future-past'],
  organizer: [...WRITE_CONDITIONS, 'future-past'],
};
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/**
 * Who update cases with `author: other` name: a user who is neither the caller nor the owner
 * of any record an update case may succeed on (a subscriber may own records, as in WordPress).
 */
const REASSIGNEE = 'subscriber2';
/**
 * Whose records a role is walked on. Anonymous callers own nothing. Editors and administrators
 * may write "any record" whoever owns it, so their writes are walked on others' records only
 * (their reads on both); this keeps the file within its time budget.
 */
const ownersOf = (role: Role, method: Method): Owner[] => {
  if (role === 'anonymous') return ['other'];
  if (method !== 'GET' && EDITORS.includes(role)) return ['other'];
  return ['own', 'other'];
};
/** The owners of seeded records, by login (`{role}2` is a second user of that role). */
const OWNER_LOGINS = [
  'subscriber',
  'subscriber2',
  'contributor',
  'contributor2',
  'author',
  'author2',
  'editor',
  'administrator',
];

const CREATE_STATES: State[] = [
  { type: 'create' },
  { type: 'create', status: 'publish' },
  { type: 'create', status: 'draft' },
  { type: 'create', status: 'pending' },
  { type: 'create', status: 'private' },
  { type: 'create', status: 'future' },
  { type: 'create', status: 'publish', futureDate: true },
  { type: 'create', status: 'future', futureDate: true },
  { type: 'create', status: 'publish', author: 'other' },
  { type: 'create', status: 'draft', author: 'other' },
  { type: 'create', status: 'private', author: 'other' },
  { type: 'create', status: 'publish', author: 'self' },
  { type: 'create', status: 'draft', author: 'self' },
];
const LIST_STATUSES = [undefined, 'publish', 'future', 'draft,pending', 'trash', 'any'];

/**
 * The parts, one per test file: `buildCases` is split by the collection a case addresses. Three
 * parts of about 1,200 cases: every file costs its own app and module loading (~2.5 s of CPU), so
 * more parts would balance the workers no better and cost more in all.
 */
const MATRIX_PARTS = {
  events: ['events', 'categories', 'tags'],
  venues: ['venues'],
  organizers: ['organizers'],
} as const satisfies Record<string, readonly Collection[]>;
export type MatrixPart = keyof typeof MATRIX_PARTS;

const collectionOf = (c: Case) => c.route.split('/')[1] as Collection;

/** Every case of the matrix, and the part each one is walked in. */
export function casesByPart(): { all: number; parts: Record<MatrixPart, number> } {
  const cases = buildCases();
  const parts = Object.fromEntries(
    Object.entries(MATRIX_PARTS).map(([part, collections]) => [
      part,
      cases.filter((c) => (collections as readonly Collection[]).includes(collectionOf(c))).length,
    ]),
  ) as Record<MatrixPart, number>;
  return { all: cases.length, parts };
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  for (const collection of ['events', 'venues', 'organizers'] as const) {
    const kind = KIND[collection];
    for (const route of [`/${collection}/{id}`, `/${collection}/by-slug/{slug}`] as Route[]) {
      for (const method of METHODS) {
        for (const role of ROLES) {
          for (const owner of ownersOf(role, method)) {
            const conditions = method === 'GET' ? READ_CONDITIONS[kind] : WRITE_CONDITIONS;
            for (const condition of conditions) {
              cases.push({ route, method, role, state: { type: 'record', condition, owner } });
              // D-b on update: PATCH stands for the three update methods (one service path).
              if (method === 'PATCH') {
                for (const reassign of ['self', 'other'] as const) {
                  cases.push({
                    route,
                    method,
                    role,
                    state: { type: 'record', condition, owner, reassign },
                  });
                }
              }
              if (method === 'GET' && condition === 'protected') {
                for (const unlock of ['password', 'edit'] as const) {
                  cases.push({
                    route,
                    method,
                    role,
                    state: { type: 'record', condition, owner, unlock },
                  });
                }
              }
            }
          }
          cases.push({ route, method, role, state: { type: 'missing' } });
          if (!route.includes('by-slug'))
            cases.push({ route, method, role, state: { type: 'foreign' } });
        }
      }
    }
    for (const role of ROLES) {
      for (const state of CREATE_STATES) {
        cases.push({ route: `/${collection}`, method: 'POST', role, state });
      }
      for (const status of LIST_STATUSES) {
        cases.push({
          route: `/${collection}`,
          method: 'GET',
          role,
          state: { type: 'list', status },
        });
      }
    }
  }
  for (const collection of ['categories', 'tags'] as const) {
    for (const role of ROLES) {
      for (const method of METHODS) {
        for (const type of ['term', 'term-gone'] as const) {
          cases.push({ route: `/${collection}/{id}`, method, role, state: { type } });
        }
      }
      cases.push({ route: `/${collection}`, method: 'POST', role, state: { type: 'create' } });
      for (const hideEmpty of [undefined, false] as const) {
        cases.push({
          route: `/${collection}`,
          method: 'GET',
          role,
          state: { type: 'term-list', hideEmpty },
        });
      }
    }
  }
  return cases;
}

const describeState = (state: State): string => {
  switch (state.type) {
    case 'record':
      return `${state.condition}/${state.owner}${state.unlock ? `+${state.unlock}` : ''}${state.reassign ? ` author=${state.reassign}` : ''}`;
    case 'create':
      return `create status=${state.status ?? '(none)'}${state.futureDate ? ' date=future' : ''}${state.author ? ` author=${state.author}` : ''}`;
    case 'list':
      return `list status=${state.status ?? '(none)'}`;
    case 'term-list':
      return `list hide_empty=${state.hideEmpty ?? '(default)'}`;
    default:
      return state.type;
  }
};

// =================================================================================================
// The test
// =================================================================================================

const API = '/cal/events/v1';
const PASSWORD = 'mx-secret';
const TEXT = 'Matrix text';
const TABLE: Record<Kind, string> = { event: 'events', venue: 'venues', organizer: 'organizers' };
const COLLECTION: Record<Kind, 'events' | 'venues' | 'organizers'> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
};
/** Requests in flight: the app is CPU-bound in this process, a few hide the database waits. */
const CONCURRENCY = 8;

const sqlTime = (dt: DateTime) => dt.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
const inDays = (days: number) => sqlTime(DateTime.utc().plus({ days }));

interface Seed {
  kind: Kind;
  condition: Condition;
  ownerLogin: string;
  id: number;
  slug: string;
  /** The stored status, to restore after an unexpected write. */
  status: string;
}

interface Violation {
  route: Route;
  method: Method;
  via: Via;
  role: Role;
  state: string;
  expected: string;
  got: string;
}

/**
 * How a case is sent: with its own method, or as WordPress clients behind hosts that block PUT,
 * PATCH and DELETE send it (src/common/http/wp-conventions.ts): a POST naming the method with
 * `X-HTTP-Method-Override` or `?_method=`, a string-only body moved into the query string. A GET
 * carrying an override (never honoured) must answer as the GET. Either way the answer is the one
 * CONTRACT §2 gives the method, so no route is reachable with a method its permission check did
 * not see.
 */
type Via = 'direct' | 'override';

/**
 * Cases also sent by override: every write by id or slug (PUT, PATCH, DELETE), and the reads by
 * id or slug of published records (an override honoured on a GET would answer them as a delete).
 */
const alsoByOverride = (method: Method, route: Route, state: State) =>
  route.includes('{') &&
  (method === 'PUT' ||
    method === 'PATCH' ||
    method === 'DELETE' ||
    (method === 'GET' && state.type === 'record' && state.condition === 'publish'));

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The matrix's cases of one part, against an app seeded with the records that part addresses.
 * `transport: 'session'` sends every case as the console does (CONTRACT §2): a session cookie with its
 * `X-WP-Nonce` for each role, and for `anonymous` an administrator's session cookie without the
 * nonce, which must count for nothing; the expected answers are the same.
 */
export function describeAuthorizationMatrix(
  part: MatrixPart,
  { transport = 'basic' }: { transport?: 'basic' | 'session' } = {},
): void {
  describe(`authorization matrix: ${part} via ${transport} (e2e)`, () => {
    const collections: readonly Collection[] = MATRIX_PARTS[part];
    const kinds = new Set(
      collections.flatMap((c) => (c === 'categories' || c === 'tags' ? [] : [KIND[c]])),
    );
    let app: NestExpressApplication;
    let ds: DataSource;
    let baseUrl: string;
    /** Users by login: `{role}` and a peer `{role}2` for each of the five roles. */
    const accounts: Record<string, Credentials> = {};
    /** With `transport: 'session'`: a console session per login. */
    const sessions: Record<string, Session> = {};
    const seeds = new Map<string, Seed>();
    const terms: Record<'categories' | 'tags', Record<TermUse | 'gone', number>> = {
      categories: {} as Record<TermUse | 'gone', number>,
      tags: {} as Record<TermUse | 'gone', number>,
    };
    let serial = 0;

    const http = () => request(baseUrl);
    const send = (method: Method, path: string, login?: string) => {
      const call = http()[method.toLowerCase() as 'get'](`${API}${path}`);
      if (transport === 'session') {
        const session = sessions[login ?? 'administrator'];
        const withCookie = call.set('Cookie', session.cookie);
        return login ? withCookie.set('X-WP-Nonce', session.nonce) : withCookie;
      }
      return login ? call.set('Authorization', accounts[login].header) : call;
    };
    const roleOf = (login: string) => login.replace(/2$/, '') as Role;
    const ownerLogin = (role: Role, owner: Owner): string => {
      if (owner === 'own') return role;
      if (role === 'subscriber' || role === 'contributor' || role === 'author') return `${role}2`;
      return role === 'administrator' ? 'editor' : 'administrator';
    };
    const loginOf = (role: Role) => (role === 'anonymous' ? undefined : role);
    const seedKey = (kind: Kind, condition: Condition, login: string) =>
      `${kind}/${condition}/${login}`;

    /** Must succeed: setup requests are not cases. */
    async function ok(res: request.Response, what: string) {
      if (res.status >= 300) {
        throw new Error(`setup failed (${what}): ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body as Record<string, unknown>;
    }

    function createBody(kind: Kind, name: string, extra: Record<string, unknown>) {
      if (kind === 'event') {
        return {
          title: name,
          slug: name,
          description: TEXT,
          start_date: `${inDays(5).slice(0, 10)} 10:00:00`,
          end_date: `${inDays(5).slice(0, 10)} 12:00:00`,
          ...extra,
        };
      }
      return { [kind]: name, description: TEXT, ...extra };
    }

    /**
     * A record of `kind` in `condition` owned by `login`, named `name` (also its slug), made as its
     * owner when the owner's role can produce it, else as an editor with `author` set.
     */
    async function makeRecord(kind: Kind, condition: Condition, login: string, name: string) {
      const role = roleOf(login);
      const selfMade =
        PUBLISHERS.includes(role) ||
        (role === 'contributor' && ['draft', 'pending', 'trash'].includes(condition));
      const creator = selfMade ? login : 'editor';
      const fields: Record<string, unknown> = selfMade ? {} : { author: accounts[login].id };
      if (condition === 'protected')
        Object.assign(fields, { status: 'publish', password: PASSWORD });
      else if (condition === 'hidden')
        Object.assign(fields, { status: 'publish', hide_from_listings: true });
      else if (condition === 'future' || condition === 'future-past') {
        Object.assign(fields, { status: 'future', date: inDays(30) });
      } else if (condition === 'trash') {
        fields.status = role === 'contributor' ? 'draft' : 'publish';
      } else fields.status = condition;

      const body = await ok(
        await send('POST', `/${COLLECTION[kind]}`, creator).send(createBody(kind, name, fields)),
        `create ${kind} ${name}`,
      );
      const id = body.id as number;
      let status = body.status as string;
      if (status !== fields.status) throw new Error(`setup: ${name} is ${status}`);
      if (condition === 'future-past') {
        // The API cannot schedule in the past (it publishes instead): move the date back.
        await ds.query(`UPDATE ${TABLE[kind]} SET \`date\` = ?, \`date_utc\` = ? WHERE id = ?`, [
          inDays(-1),
          inDays(-1),
          id,
        ]);
      }
      if (body.slug !== name) {
        // Drafts and pending venues/organizers get their slug on publication (§7.1.8).
        await ds.query(`UPDATE ${TABLE[kind]} SET slug = ? WHERE id = ?`, [name, id]);
      }
      if (condition === 'trash') {
        await ok(await send('DELETE', `/${COLLECTION[kind]}/${id}`, creator), `trash ${name}`);
        status = 'trash';
      }
      return { kind, condition, ownerLogin: login, id, slug: name, status } satisfies Seed;
    }

    beforeAll(async () => {
      app = await createTestApp();
      await app.listen(0, '127.0.0.1');
      baseUrl = await app.getUrl();
      ds = app.get(DataSource);
      for (const suffix of ['', '2']) {
        const users = await createRoleUsers(app, suffix);
        for (const credentials of Object.values(users)) accounts[credentials.login] = credentials;
      }
      if (transport === 'session') {
        for (const login of Object.keys(accounts)) {
          sessions[login] = await logIn(app, baseUrl, login);
        }
      }

      const jobs: Array<() => Promise<void>> = [];
      for (const kind of ['event', 'venue', 'organizer'] as const) {
        for (const condition of READ_CONDITIONS[kind]) {
          for (const login of OWNER_LOGINS) {
            // This part's kinds, and the other kind's record that `foreign` cases address.
            const foreign = kinds.has('event') ? 'venue' : 'event';
            const needed =
              kinds.has(kind) ||
              (kinds.size > 0 &&
                kind === foreign &&
                condition === 'publish' &&
                login === 'administrator');
            if (!needed) continue;
            jobs.push(async () => {
              const name = `mxseed-${kind}-${condition}-${login}`;
              seeds.set(
                seedKey(kind, condition, login),
                await makeRecord(kind, condition, login, name),
              );
            });
          }
        }
      }
      // Terms: one used by a published event, one by a draft event only, one unused, one deleted.
      for (const collection of ['categories', 'tags'] as const) {
        jobs.push(async () => {
          for (const use of ['published-event', 'draft-event', 'unused', 'gone'] as const) {
            const body = await ok(
              await send('POST', `/${collection}`, 'editor').send({ name: `mxseedterm ${use}` }),
              `create ${collection} ${use}`,
            );
            terms[collection][use] = body.id as number;
          }
          await ok(
            await send('DELETE', `/${collection}/${terms[collection].gone}`, 'editor'),
            `delete ${collection}`,
          );
        });
      }
      await pool(jobs, CONCURRENCY, (job) => job());
      for (const [status, use] of [
        ['publish', 'published-event'],
        ['draft', 'draft-event'],
      ] as const) {
        await ok(
          await send('POST', '/events', 'editor').send(
            createBody('event', `mxterms-${use}`, {
              status,
              categories: [terms.categories[use]],
              tags: [terms.tags[use]],
            }),
          ),
          `event using ${use} terms`,
        );
      }
    }, 120_000);

    afterAll(() => closeApp(app));

    it('answers every route × method × role × state as CONTRACT §2 says', async () => {
      const cases = buildCases().filter((c) => collections.includes(collectionOf(c)));
      const violations: Violation[] = [];
      const report = (c: Case, exp: Expected, got: string, via: Via = 'direct') =>
        violations.push({
          route: c.route,
          method: c.method,
          via,
          role: c.role,
          state: describeState(c.state),
          expected: `${exp.status}${exp.code ? ` ${exp.code}` : ''}${exp.stored ? ` status=${exp.stored}` : ''}${exp.author ? ` author=${exp.author}` : ''}${exp.authorLogin ? ` author=${exp.authorLogin}` : ''}${exp.redacted !== undefined ? ` redacted=${exp.redacted}` : ''}`,
          got,
        });

      /** The shared record a case addresses (none for creates, lists, missing ids). */
      const targetOf = (c: Case): Seed | undefined => {
        const collection = c.route.split('/')[1] as Collection;
        if (collection === 'categories' || collection === 'tags') return undefined;
        const kind = KIND[collection];
        if (c.state.type === 'record') {
          return seeds.get(seedKey(kind, c.state.condition, ownerLogin(c.role, c.state.owner)));
        }
        // Another kind's record: a venue for event routes, an event for venue/organizer routes.
        if (c.state.type === 'foreign') {
          return seeds.get(
            seedKey(kind === 'event' ? 'venue' : 'event', 'publish', 'administrator'),
          );
        }
        return undefined;
      };

      async function runCase(c: Case, via: Via) {
        const exp = expected(c.route, c.method, c.role, c.state);
        const collection = c.route.split('/')[1] as Collection;
        const login = loginOf(c.role);
        const isTerm = collection === 'categories' || collection === 'tags';
        let target = targetOf(c);
        let shared = true;
        let path = c.route as string;
        let body: Record<string, unknown> | undefined;
        const query: Record<string, string> = {};
        const n = ++serial;
        const name = `mxfresh-${n}`;

        if (isTerm) {
          let id: number;
          if (c.state.type === 'term-gone') id = terms[collection].gone;
          else if (c.method === 'DELETE') {
            // Every term DELETE gets its own term (a success removes it for good).
            const made = await ok(
              await send('POST', `/${collection}`, 'editor').send({ name }),
              `term ${name}`,
            );
            id = made.id as number;
          } else id = terms[collection]['published-event'];
          path = path.replace('{id}', String(id));
          if (c.method === 'POST' && c.route === `/${collection}`) body = { name };
          else if (c.method !== 'GET' && c.method !== 'DELETE')
            body = { description: 'Matrix update' };
          else if (c.state.type === 'term-list') {
            Object.assign(query, { search: 'mxseedterm', per_page: '50' });
            if (c.state.hideEmpty === false) query.hide_empty = 'false';
          }
        } else {
          const kind = KIND[collection];
          if (c.state.type === 'record' && c.method === 'DELETE' && exp.status === 200) {
            // A successful DELETE trashes: it gets a record of its own in the same state.
            target = await makeRecord(kind, c.state.condition, target!.ownerLogin, name);
            shared = false;
          }
          if (c.state.type === 'missing')
            path = path.replace('{id}', '999999').replace('{slug}', 'mx-missing');
          else if (target)
            path = path.replace('{id}', String(target.id)).replace('{slug}', target.slug);
          if (c.state.type === 'record' && c.state.unlock === 'password') query.password = PASSWORD;
          if (c.state.type === 'record' && c.state.unlock === 'edit') query.context = 'edit';
          if (c.state.type === 'create') {
            const fields: Record<string, unknown> = {};
            if (c.state.status) fields.status = c.state.status;
            if (c.state.futureDate) fields.date = inDays(30);
            if (c.state.author === 'other') {
              fields.author = accounts[c.role === 'administrator' ? 'editor' : 'administrator'].id;
            } else if (c.state.author === 'self') {
              // Anonymous callers have no id: any existing user (they get 401 all the same).
              fields.author = accounts[login ?? 'subscriber'].id;
            }
            body = createBody(kind, name, fields);
          } else if (c.method !== 'GET' && c.method !== 'DELETE') {
            body = { description: 'Matrix update' };
            if (c.state.type === 'record' && c.state.reassign) {
              body.author =
                accounts[c.state.reassign === 'self' ? (login ?? 'subscriber') : REASSIGNEE].id;
            }
          }
        }

        if (c.state.type === 'list' || c.state.type === 'term-list') {
          await checkList(c, exp, collection, query);
          return;
        }
        let call;
        if (via === 'direct') call = send(c.method, path, login).query(query);
        else if (c.method === 'GET') {
          // Never honoured on a GET: this must stay a read.
          call = send('GET', path, login)
            .query({ ...query, _method: 'DELETE' })
            .set('X-HTTP-Method-Override', 'DELETE');
        } else {
          call = send('POST', path, login);
          if (n % 2) call = call.query(query).set('X-HTTP-Method-Override', c.method);
          else {
            // The parameters in the query string, as a form-less client sends them.
            const inQuery = body && Object.values(body).every((v) => typeof v === 'string');
            call = call.query({ ...query, ...(inQuery ? body : {}), _method: c.method });
            if (inQuery) body = undefined;
          }
        }
        if (body) call = call.send(body);
        const res = await call;
        const problems: string[] = [];
        if (res.status !== exp.status) problems.push(`${res.status}`);
        if (exp.code && res.body?.code !== exp.code) problems.push(`code=${res.body?.code}`);
        if (exp.stored && res.body?.status !== exp.stored)
          problems.push(`status=${res.body?.status}`);
        if (exp.authorLogin && res.status < 300) {
          if (res.body?.author !== String(accounts[exp.authorLogin].id))
            problems.push(`author=${res.body?.author}`);
        }
        if (exp.author && res.status < 300) {
          const wanted =
            exp.author === 'self'
              ? accounts[login!].id
              : accounts[c.role === 'administrator' ? 'editor' : 'administrator'].id;
          if (res.body?.author !== String(wanted)) problems.push(`author=${res.body?.author}`);
        }
        if (exp.redacted !== undefined && res.status === 200) {
          const kind = KIND[collection as 'events'];
          const redacted =
            kind === 'event' ? res.body.description === '' : Array.isArray(res.body[kind]);
          if (redacted !== exp.redacted) problems.push(`redacted=${redacted}`);
        }
        // A read answers the record as it is: an honoured override would have trashed it.
        if (via === 'override' && c.method === 'GET' && res.body?.status === 'trash')
          problems.push('status=trash');
        if (problems.length) {
          report(c, exp, `${problems.join(' ')} ${JSON.stringify(res.body).slice(0, 160)}`, via);
        }
        // A write that should have failed changed a shared record: put its status back.
        if (shared && target && c.method !== 'GET' && res.status < 300 && exp.status >= 300) {
          await ds.query(`UPDATE ${TABLE[target.kind]} SET status = ? WHERE id = ?`, [
            target.status,
            target.id,
          ]);
        }
        // An update that named an author (rightly or not) gives the shared record back to its owner.
        if (shared && target && c.state.type === 'record' && c.state.reassign && res.status < 300) {
          await ds.query(`UPDATE ${TABLE[target.kind]} SET author_id = ? WHERE id = ?`, [
            accounts[target.ownerLogin].id,
            target.id,
          ]);
        }
      }

      /** All pages of a list, restricted to the seeded records the search selects. */
      async function checkList(
        c: Case,
        exp: Expected,
        collection: Collection,
        query: Record<string, string>,
      ) {
        const login = loginOf(c.role);
        const catalogue = new Map<number, { listed: Listed; label: string }>();
        if (collection === 'categories' || collection === 'tags') {
          for (const use of ['published-event', 'draft-event', 'unused'] as const) {
            catalogue.set(terms[collection][use], { listed: { use }, label: use });
          }
        } else {
          const kind = KIND[collection];
          Object.assign(query, { search: 'mxseed', per_page: '50' });
          if (c.state.type === 'list' && c.state.status !== undefined)
            query.status = c.state.status;
          for (const seed of seeds.values()) {
            if (seed.kind !== kind) continue;
            catalogue.set(seed.id, {
              listed: { condition: seed.condition, own: seed.ownerLogin === login },
              label: `${seed.condition}/${seed.ownerLogin}`,
            });
          }
        }
        const got = new Set<number>();
        let total: number | undefined;
        for (let page = 1; ; page++) {
          const res = await send('GET', `/${collection}`, login).query({
            ...query,
            page: String(page),
          });
          if (res.status !== exp.status || (exp.code && res.body?.code !== exp.code)) {
            report(c, exp, `${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
            return;
          }
          if (res.status !== 200) return;
          total = res.body.total as number;
          for (const item of res.body[collection] as Array<{ id: number }>) got.add(item.id);
          if (page >= (res.body.total_pages as number)) break;
        }
        const want = new Set(
          [...catalogue].filter(([, v]) => exp.sees!(v.listed)).map(([id]) => id),
        );
        const missing = [...want].filter((id) => !got.has(id));
        const extra = [...got].filter((id) => !want.has(id));
        const label = (id: number) => catalogue.get(id)?.label ?? `#${id}`;
        if (missing.length || extra.length || total !== want.size) {
          report(
            c,
            exp,
            `total=${total} (want ${want.size}); missing [${missing.map(label).join(', ')}]; extra [${extra.map(label).join(', ')}]`,
          );
        }
      }

      // Cases that address one shared record run one after the other (a wrong success is restored
      // before the next case); the groups run concurrently.
      const groups = new Map<string, Case[]>();
      cases.forEach((c, i) => {
        const target = targetOf(c);
        const key = target ? `seed:${target.id}` : `case:${i}`;
        groups.set(key, [...(groups.get(key) ?? []), c]);
      });
      await pool([...groups.values()], CONCURRENCY, async (group) => {
        for (const c of group) {
          await runCase(c, 'direct');
          if (alsoByOverride(c.method, c.route, c.state)) await runCase(c, 'override');
        }
      });

      const overridden = cases.filter((c) => alsoByOverride(c.method, c.route, c.state)).length;
      const summary = `authorization matrix (${part}): ${cases.length} cases (${overridden} of them also by method override), ${violations.length} violations`;
      console.log(summary);
      if (violations.length) {
        const lines = violations.map(
          (v) =>
            `${v.method}${v.via === 'override' ? ' (by override)' : ''} ${v.route} as ${v.role} [${v.state}]: expected ${v.expected}, got ${v.got}`,
        );
        throw new Error(`${summary}\n${lines.join('\n')}`);
      }
      // Twice the cases it walked before the override joined (the writes are sent both ways):
      // the events part took 305 s in a whole-suite run on a loaded two-core machine.
    }, 600_000);
  });
}
