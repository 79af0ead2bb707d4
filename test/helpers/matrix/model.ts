/**
 * The authorization matrix's vocabulary (test/helpers/authorization-matrix.ts): roles, records'
 * states, routes, and the role groups of CONTRACT §2.
 */
import type { Credentials } from '../auth.js';

export type Role =
  'anonymous' | 'subscriber' | 'contributor' | 'author' | 'editor' | 'administrator';
export type Kind = 'event' | 'venue' | 'organizer';
export type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Route = `/${Collection}` | `/${Collection}/{id}` | `/${Collection}/by-slug/{slug}`;

/**
 * The state of a post record: its status (`future-past` = scheduled, date passed, CONTRACT §6),
 * or a published record that is password protected / hidden from listings (events).
 */
export type Condition =
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
export type Owner = 'own' | 'other';
export type Requested = 'publish' | 'future' | 'draft' | 'pending' | 'private';
export type TermUse = 'published-event' | 'draft-event' | 'unused';

/** Update cases that also send `author`: the caller themselves, or a third user. */
type Reassign = 'self' | 'other';

export type State =
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
export type Listed = { condition: Condition; own: boolean } | { use: TermUse };

export interface Expected {
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

export const ROLES: Role[] = [
  'anonymous',
  'subscriber',
  'contributor',
  'author',
  'editor',
  'administrator',
];
export const EDITORS: Role[] = ['editor', 'administrator'];
export const PUBLISHERS: Role[] = ['author', 'editor', 'administrator'];
/** CONTRACT §6: a scheduled record whose date has passed counts as published. */
export const PUBLISHED: Condition[] = ['publish', 'future-past', 'protected', 'hidden'];
/** BEHAVIOR §8.2 "unpublished for contributors": draft, pending, own private; trash (D-a). */
export const CONTRIBUTOR_EDITABLE: Condition[] = ['draft', 'pending', 'private', 'trash'];
/** BEHAVIOR §5.2.5: `any` = everything but trash. */
export const ANY = ['publish', 'future', 'draft', 'pending', 'private'];

export const KIND: Record<'events' | 'venues' | 'organizers', Kind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
};

export const forbidden = (role: Role): Expected => ({
  status: role === 'anonymous' ? 401 : 403,
  code: 'rest_forbidden',
});
export const invalidParam: Expected = { status: 400, code: 'rest_invalid_param' };

/**
 * Who update cases with `author: other` name: a user who is neither the caller nor the owner
 * of any record an update case may succeed on (a subscriber may own records, as in WordPress).
 */
export const REASSIGNEE = 'subscriber2';

export interface Case {
  route: Route;
  method: Method;
  role: Role;
  state: State;
}

/**
 * How a case is sent: with its own method, or as WordPress clients behind hosts that block PUT,
 * PATCH and DELETE send it (src/common/http/wp-conventions.ts): a POST naming the method with
 * `X-HTTP-Method-Override` or `?_method=`, a string-only body moved into the query string. A GET
 * carrying an override (never honoured) must answer as the GET. Either way the answer is the one
 * CONTRACT §2 gives the method, so no route is reachable with a method its permission check did
 * not see.
 */
export type Via = 'direct' | 'override';

/** A seeded record. */
export interface Seed {
  kind: Kind;
  condition: Condition;
  ownerLogin: string;
  id: number;
  slug: string;
  /** The stored status, to restore after an unexpected write. */
  status: string;
}

/** Users by login: `{role}` and a peer `{role}2` for each of the five roles. */
export type Accounts = Record<string, Credentials>;
