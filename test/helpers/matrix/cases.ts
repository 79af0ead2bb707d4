/** The authorization matrix's cases: every route × method × role × state, in three parts. */
import {
  EDITORS,
  KIND,
  ROLES,
  type Case,
  type Collection,
  type Condition,
  type Kind,
  type Method,
  type Owner,
  type Role,
  type Route,
  type State,
} from './model.js';

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
export const READ_CONDITIONS: Record<Kind, Condition[]> = {
  event: [...WRITE_CONDITIONS, 'future-past', 'hidden'],
  venue: [...WRITE_CONDITIONS, 'future-past'],
  organizer: [...WRITE_CONDITIONS, 'future-past'],
};
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
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
export const OWNER_LOGINS = [
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
export const MATRIX_PARTS = {
  events: ['events', 'categories', 'tags'],
  venues: ['venues'],
  organizers: ['organizers'],
} as const satisfies Record<string, readonly Collection[]>;
export type MatrixPart = keyof typeof MATRIX_PARTS;

export const collectionOf = (c: Case) => c.route.split('/')[1] as Collection;

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

export function buildCases(): Case[] {
  const cases: Case[] = [];
  for (const collection of ['events', 'venues', 'organizers'] as const) {
    const kind = KIND[collection];
    for (const route of [`/${collection}/{id}`, `/${collection}/by-slug/{slug}`] as Route[]) {
      for (const method of METHODS) {
        for (const role of ROLES) {
          for (const owner of ownersOf(role, method)) {
            const conditions = method === 'GET' ? READ_CONDITIONS[kind] : WRITE_CONDITIONS;
            for (const condition of conditions) {
              const variants: Array<{
                reassign?: 'self' | 'other';
                unlock?: 'password' | 'edit';
              }> = [{}];
              // D-b on update: PATCH stands for the three update methods (one service path).
              if (method === 'PATCH') variants.push({ reassign: 'self' }, { reassign: 'other' });
              if (method === 'GET' && condition === 'protected')
                variants.push({ unlock: 'password' }, { unlock: 'edit' });
              for (const variant of variants) {
                cases.push({
                  route,
                  method,
                  role,
                  state: { type: 'record', condition, owner, ...variant },
                });
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

export const describeState = (state: State): string => {
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

/**
 * Cases also sent by override: every write by id or slug (PUT, PATCH, DELETE), and the reads by
 * id or slug of published records (an override honoured on a GET would answer them as a delete).
 */
export const alsoByOverride = (method: Method, route: Route, state: State) =>
  route.includes('{') &&
  (method === 'PUT' ||
    method === 'PATCH' ||
    method === 'DELETE' ||
    (method === 'GET' && state.type === 'record' && state.condition === 'publish'));
