/** What every part of the venues' and organizers' shared suite (linked-record-suite.ts) is given. */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../../src/common/actor.js';
import type { RequestContext } from '../../../src/common/http/request-context.js';
import { PostStore } from '../../../src/posts/post-store.js';
import { APP_CONFIG, type Language } from '../../../src/config/config.js';
import type { Credentials, RoleUsers } from '../auth.js';
import { POST_KEYS } from '../tec-event.js';

export const API = '/cal/events/v1';
const FUTURE = '2099-06-01 10:00:00';
export const PAST = '2001-06-01 10:00:00';

/** A record as the API answers it (fields read by the tests). */
// oxlint-disable-next-line typescript/no-explicit-any
export type Tec = Record<string, any>;

/** The part of `VenueEventLinks` / `OrganizerEventLinks` the events module calls. */
interface EventLinksService {
  embedMany(
    ids: number[],
    ctx: RequestContext,
    opts: { jsonLd: boolean },
  ): Promise<Map<number, unknown>>;
  existingIds(ids: number[]): Promise<Set<number>>;
}

/** What the shared tests need to know of a kind. */
export interface LinkedKindSuite {
  /** Its collection is `${kind}s`, its post type (in draft URLs) `cal_${kind}`. */
  kind: 'venue' | 'organizer';
  /** A free-text field of the kind's own (stored as given), to see details kept, changed, dropped. */
  detail: 'city' | 'email';
  /** Another string field of the kind's own, for the JSON type check. */
  typed: 'zip' | 'email';
  /**
   * The create test: a body naming `slug`'s record, and the answer's keys between the name and
   * `global_id` (in order) and its own values.
   */
  create: {
    body: Record<string, unknown>;
    slug: string;
    ownKeys: string[];
    expected: Record<string, unknown>;
  };
  /**
   * The kind's own searchable fields (BEHAVIOR §5.3): the record of each `body` is the one `search`
   * finds (among English records), or with `found: false` one it does not find.
   */
  ownSearch: { body: Record<string, unknown>; search: string; found: boolean }[];
  /** A password-protected record's own fields, and how the redacted answer shows them. */
  protectedFields: { body: Record<string, unknown>; redacted: Record<string, unknown> };
  /**
   * Single reads carry schema.org JSON-LD (BEHAVIOR §4.10): the record `body` creates, its
   * `json_ld` (given the created record, for its url), and the keys between `json_ld` and
   * `global_id`.
   */
  jsonLd: {
    type: 'Place' | 'Person';
    body: Record<string, unknown>;
    expected: (record: Tec) => Record<string, unknown>;
    keysAfter: string[];
  };
  /** The kind's answers that are not built from its name alone. */
  messages: { roArchivePageNotFound: string; perPage: { en: string; hu: string } };
  /** The service class the events module uses (embedding, existing ids). */
  service: abstract new (...args: never[]) => EventLinksService;
  /** Links records of the kind to an event, and reads them back (in order). */
  linkEvent(ds: DataSource, eventId: number, ids: number[]): Promise<void>;
  linkedTo(ds: DataSource, eventId: number): Promise<number[]>;
}

/** What a kind's own tests use: filled in when the suite's app has started. */
export interface LinkedSuiteHandle {
  app: NestExpressApplication;
  ds: DataSource;
  users: RoleUsers;
  http: () => ReturnType<typeof request>;
  as: (who: Credentials) => { Authorization: string };
  /** Creates a record as `who` (201 expected), under a language prefix (`/hu`) if given. */
  create: (who: Credentials, body: Record<string, unknown>, prefix?: string) => Promise<Tec>;
  /** An events row written directly (the events routes are another module's), linked to `linked`. */
  insertEvent: (o?: {
    linked?: number[];
    status?: string;
    start?: string;
    language?: Language;
  }) => Promise<number>;
  ctxOf: (who: Credentials | null, language?: Language) => RequestContext;
}

/** The keys every record's answer starts with (before its name), and ends with. */
export const LEADING_KEYS = ['id', ...POST_KEYS];
export const TRAILING_KEYS = ['global_id', 'global_id_lineage', 'language', 'translations'];

export const idsOf = (list: { id: number }[]) => list.map((x) => x.id);

/** A kind's names, its app handle (filled in by the suite's beforeAll) and the shortcuts its tests use. */
export function suiteScope(k: LinkedKindSuite) {
  const { kind } = k;
  const plural = `${kind}s`;
  const NAME = kind;
  /** The other kind: its ids are not records of this one. */
  const OTHER = kind === 'venue' ? 'organizer' : 'venue';
  const A = kind === 'venue' ? 'a' : 'an';
  const ROUTE = `${API}/${plural}`;
  const t = {
    http: () => request(t.app.getHttpServer()),
    as: (who: Credentials) => ({ Authorization: who.header }),
    async create(who: Credentials, body: Record<string, unknown>, prefix = '') {
      const res = await t.http().post(`${prefix}${ROUTE}`).set(t.as(who)).send(body);
      expect(res.status).toBe(201);
      return res.body as Tec;
    },
    async insertEvent(o: Parameters<LinkedSuiteHandle['insertEvent']>[0] = {}) {
      const ds = t.ds;
      const id = await new PostStore(ds).allocateId(ds.manager, 'event');
      const start = o.start ?? FUTURE;
      await ds.query(
        `INSERT INTO events (id, author_id, status, title, slug, description, excerpt, date, date_utc,
           modified, modified_utc, language, start_date, end_date, start_utc, end_utc, timezone, cost)
         VALUES (?, 0, ?, ?, NULL, '', '', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'UTC', '')`,
        [
          id,
          o.status ?? 'publish',
          `Event ${id}`,
          PAST,
          PAST,
          PAST,
          PAST,
          o.language ?? 'en',
          start,
          start,
          start,
          start,
        ],
      );
      if (o.linked?.length) await k.linkEvent(ds, id, o.linked);
      return id;
    },
    ctxOf(who: Credentials | null, language: Language = 'en'): RequestContext {
      const actor: Actor = who
        ? { user: { id: who.id, login: who.login, role: who.login as never } }
        : { user: null };
      return {
        actor,
        language,
        restBase: `http://cal.test${API}`,
        siteUrl: 'http://cal.test',
        config: t.app.get(APP_CONFIG),
        query: {},
      };
    },
  } as LinkedSuiteHandle;
  const http = () => t.http();
  const as = (who: Credentials) => t.as(who);
  const create = (who: Credentials, body: Record<string, unknown>, prefix = '') =>
    t.create(who, body, prefix);
  const named = (name: unknown, more: Record<string, unknown> = {}) => ({ [NAME]: name, ...more });

  return { k, kind, plural, NAME, OTHER, A, ROUTE, t, http, as, create, named };
}

export type LinkedSuiteScope = ReturnType<typeof suiteScope>;
