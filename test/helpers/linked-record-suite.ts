/**
 * The e2e tests venues and organizers share: both are served by one implementation (src/linked/),
 * so every behaviour that is not about a kind's own fields is tested here, once, for each kind
 * (test/venues.e2e-spec.ts and test/organizers.e2e-spec.ts call `describeLinkedRecords` and keep
 * only their own fields' tests). The suite starts the app; the kind's file reads it from the
 * returned handle in its own tests, which run after these.
 *
 * The lists' tests own the Romanian records (their counts see only those) and the no-N+1 test
 * the Hungarian ones (it needs ten pages of them): the kinds' own tests write English records.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Actor } from '../../src/common/actor.js';
import type { RequestContext } from '../../src/common/http/request-context.js';
import { PostStore } from '../../src/posts/post-store.js';
import { APP_CONFIG, type Language } from '../../src/config/config.js';
import { createRoleUsers, type Credentials, type RoleUsers } from './auth.js';
import { closeApp, createTestApp } from './create-test-app.js';
import { coldCaches, ownQueries } from './query-counter.js';
import { byNumber } from './sort.js';

export const API = '/cal/events/v1';
const FUTURE = '2099-06-01 10:00:00';
const PAST = '2001-06-01 10:00:00';

/** A record as the API answers it (fields read by the tests). */
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;

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
const LEADING_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
];
const TRAILING_KEYS = ['global_id', 'global_id_lineage', 'language', 'translations'];

const idsOf = (list: { id: number }[]) => list.map((x) => x.id);

export function describeLinkedRecords(k: LinkedKindSuite): LinkedSuiteHandle {
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

  beforeAll(async () => {
    t.app = await createTestApp();
    t.ds = t.app.get(DataSource);
    t.users = await createRoleUsers(t.app);
  });
  afterAll(() => closeApp(t.app));

  describe(`POST /${plural}`, () => {
    it(`creates ${A} ${kind} and answers 201 with the ${kind} object, empty fields dropped`, async () => {
      const res = await http().post(ROUTE).set(as(t.users.author)).send(k.create.body).expect(201);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      const r = res.body;
      expect(Object.keys(r)).toEqual([
        ...LEADING_KEYS,
        NAME,
        ...k.create.ownKeys,
        ...TRAILING_KEYS,
      ]);
      expect(r).toMatchObject({
        author: String(t.users.author.id),
        status: 'publish',
        url: `http://cal.test/${kind}/${k.create.slug}/`,
        slug: k.create.slug,
        global_id: `cal.test?id=${r.id}`,
        global_id_lineage: [`cal.test?id=${r.id}`],
        ...k.create.expected,
      });
      expect(r.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(r.date_utc).toBe(r.date);
      expect(r).not.toHaveProperty('json_ld');
      expect(r).not.toHaveProperty('rest_url');
    });

    it(`stores contributors’ ${plural} as drafts without a slug or UTC date (§7.1.6, §7.1.2)`, async () => {
      const r = await create(
        t.users.contributor,
        named('Contributor record', { status: 'publish' }),
      );
      expect(r.status).toBe('pending');
      expect(r.date_utc).toBe('0000-00-00 00:00:00');
      expect(r).not.toHaveProperty('slug');
      expect(r.url).toBe(`http://cal.test/?post_type=cal_${kind}&p=${r.id}`);
      const d = await create(t.users.contributor, named('Contributor draft'));
      expect(d).toMatchObject({ status: 'draft', date_utc: '0000-00-00 00:00:00' });
    });

    it('schedules a publish with a future date and keeps given dates', async () => {
      const later = await create(t.users.author, named('Later', { date: '2099-01-01 10:00:00' }));
      expect(later).toMatchObject({
        status: 'future',
        date: '2099-01-01 10:00:00',
        date_utc: '2099-01-01 10:00:00',
      });
      const past = await create(
        t.users.author,
        named('Older', { date_utc: '2020-05-06 07:08:09' }),
      );
      expect(past).toMatchObject({ status: 'publish', date: '2020-05-06 07:08:09' });
      const ts = await create(t.users.author, named('Timestamp', { date: '1700000000' }));
      expect(ts.date_utc).toBe('2023-11-14 22:13:20');
    });

    it('stores an image URL as given and returns {url, id, extension}', async () => {
      const r = await create(
        t.users.author,
        named('Pictured', { image: 'https://img.example.org/a/b/photo.JPG?x=1' }),
      );
      expect(r.image).toEqual({
        url: 'https://img.example.org/a/b/photo.JPG?x=1',
        id: expect.any(Number),
        extension: 'JPG',
      });
      // The image record of the URL (BEHAVIOR §4.6), not the record's own id.
      expect(r.image.id).not.toBe(r.id);
    });

    it('belongs to the request language', async () => {
      const r = await create(t.users.editor, named(`Magyar ${kind}`), '/hu');
      const hu = await http().get(`/hu${ROUTE}/by-slug/${r.slug}`).expect(200);
      expect(hu.body.id).toBe(r.id);
      await http().get(`${ROUTE}/by-slug/${r.slug}`).expect(400);
      await http().get(`${ROUTE}/${r.id}`).expect(200);
    });

    it('validates before checking permissions', async () => {
      const missing = await http().post(ROUTE).send({ description: 'x' }).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: `Missing parameter(s): ${NAME}`,
        data: { status: 400, params: { [NAME]: 'Missing parameter.' } },
      });
      const empty = await http().post(ROUTE).send(named('')).expect(400);
      expect(empty.body.data.params).toEqual({ [NAME]: 'Invalid parameter.' });
      await http().post(ROUTE).send(named('Fine')).expect(401);
      const res = await http()
        .post(ROUTE)
        .set(as(t.users.subscriber))
        .send(named('Fine'))
        .expect(403);
      expect(res.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 403 },
      });
    });

    it('rejects JSON values of the wrong type for string fields (§1.3)', async () => {
      const res = await http()
        .post(ROUTE)
        .set(as(t.users.editor))
        .send(named('Typed', { phone: 123, [k.typed]: 20500 }))
        .expect(400);
      const reason = (field: string) => `${field} is not of type string.`;
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: expect.stringMatching(/^Invalid parameter\(s\): /),
        data: {
          status: 400,
          params: { phone: reason('phone'), [k.typed]: reason(k.typed) },
          details: Object.fromEntries(
            ['phone', k.typed].map((field) => [
              field,
              { code: 'rest_invalid_type', message: reason(field), data: { param: field } },
            ]),
          ),
        },
      });
      const site = await http()
        .post(ROUTE)
        .send(named('x', { website: 'foo' }))
        .expect(400);
      expect(site.body.data.params).toEqual({
        website: 'website must be an http or https URL, such as https://example.org/.',
      });
    });

    it.each([
      ['website', 'foo'],
      ['image', 23],
      ['image', '23'],
      ['image', 'not a url'],
      ['status', 'trash'],
      ['status', 'foo'],
      ['date', 'before my birthday'],
      ['date_utc', '2024-13-01'],
      ['author', 'abc'],
      ['author', 999999],
    ])('rejects %s = %p with 400', async (field, value) => {
      const res = await http()
        .post(ROUTE)
        .send(named('Bad', { [field]: value }))
        .expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual([field]);
    });

    it('names the allowed statuses in the status reason', async () => {
      const res = await http()
        .post(ROUTE)
        .send(named('x', { status: 'foo' }));
      expect(res.body.data.params.status).toBe(
        'status is not one of publish, future, draft, pending, private.',
      );
    });

    // CONTRACT §2: only editors and administrators create records of others.
    it(`lets only editors and administrators create ${plural} of other users`, async () => {
      for (const user of [t.users.author, t.users.contributor]) {
        const res = await http()
          .post(ROUTE)
          .set(as(user))
          .send(named('For the editor', { author: t.users.editor.id }))
          .expect(403);
        expect(res.body.code).toBe('rest_cannot_create');
      }
      await create(
        t.users.author,
        named('Author private own', { author: t.users.author.id, status: 'private' }),
      );
      const forAuthor = await create(
        t.users.editor,
        named('Editor for author', { author: t.users.author.id, status: 'private' }),
      );
      expect(forAuthor).toMatchObject({ author: String(t.users.author.id), status: 'private' });
    });

    it('lets only uploaders set an image URL (contributor → 400)', async () => {
      const res = await http()
        .post(ROUTE)
        .set(as(t.users.contributor))
        .send(named('With image', { image: 'https://img.example.org/x.png' }))
        .expect(400);
      expect(res.body.data.params).toEqual({ image: 'Invalid parameter.' });
    });

    it('accepts form-encoded bodies', async () => {
      const res = await http()
        .post(ROUTE)
        .set(as(t.users.editor))
        .type('form')
        .send(named('Form record', { phone: '1051', [k.detail]: 'Formed' }))
        .expect(201);
      expect(res.body).toMatchObject(named('Form record', { phone: '1051', [k.detail]: 'Formed' }));
    });

    it('localizes error messages', async () => {
      const res = await http().post(`/hu${ROUTE}`).send({}).expect(400);
      expect(res.body.message).toBe(`Hiányzó paraméter(ek): ${NAME}`);
    });
  });

  describe('duplicates (§7.4.2)', () => {
    it(`returns the existing ${kind} for the same name (and description), updating its details`, async () => {
      const first = await create(
        t.users.editor,
        named('A record', { description: 'A record description', [k.detail]: 'Old', phone: '1' }),
      );
      for (const body of [
        named('A record', { description: 'A record description' }),
        named('A record'),
        named('a record', { description: 'a record description' }),
        named('A RECORD', { phone: '123', website: 'https://dup.example' }),
      ]) {
        const again = await create(t.users.editor, body);
        expect(again.id).toBe(first.id);
      }
      const got = await http().get(`${ROUTE}/${first.id}`).expect(200);
      expect(got.body).toMatchObject(
        named('A record', {
          description: '<p>A record description</p>',
          [k.detail]: 'Old',
          phone: '123',
          website: 'https://dup.example',
        }),
      );
      const changed = await create(t.users.editor, named('a record', { [k.detail]: 'New' }));
      expect(changed).toMatchObject({ id: first.id, [k.detail]: 'New' });
      const other = await create(t.users.editor, named('A record', { description: 'Another one' }));
      expect(other.id).not.toBe(first.id);
    });

    it(`never reuses a trashed ${kind} or one the caller may not see`, async () => {
      const trashed = await create(t.users.editor, named('Gone record'));
      await http().delete(`${ROUTE}/${trashed.id}`).set(as(t.users.editor)).expect(200);
      const fresh = await create(t.users.editor, named('Gone record'));
      expect(fresh.id).not.toBe(trashed.id);

      const hidden = await create(t.users.contributor, named('Hidden draft'));
      const mine = await create(t.users.author, named('Hidden draft', { [k.detail]: 'Elsewhere' }));
      expect(mine.id).not.toBe(hidden.id);
    });

    it(`links a visible ${kind} of someone else without changing it`, async () => {
      const editors = await create(t.users.editor, named('Shared one', { [k.detail]: 'Pécs' }));
      const again = await create(t.users.contributor, named('Shared one', { [k.detail]: 'Győr' }));
      expect(again.id).toBe(editors.id);
      expect(again[k.detail]).toBe('Pécs');
    });
  });

  describe(`GET /${plural}/{id} and /${plural}/by-slug/{slug}`, () => {
    let published: Tec;
    let draft: Tec;
    let eventId: number;

    beforeAll(async () => {
      published = await create(t.users.editor, named('Readable record', { phone: '555' }));
      draft = await create(t.users.contributor, named('Draft record'));
      eventId = await t.insertEvent();
    });

    it('reads by id and by slug in the request language', async () => {
      const res = await http().get(`${ROUTE}/${published.id}`).expect(200);
      expect(res.body).toMatchObject(named('Readable record', { id: published.id, phone: '555' }));
      expect(res.body.json_ld['@type']).toBe(k.jsonLd.type);
      const bySlug = await http().get(`${ROUTE}/by-slug/readable-record`).expect(200);
      expect(bySlug.body.id).toBe(published.id);
      expect(bySlug.body.json_ld['@type']).toBe(k.jsonLd.type);
    });

    it(`answers the ${kind} with its json_ld (a ${k.jsonLd.type})`, async () => {
      const r = await create(t.users.editor, k.jsonLd.body);
      const res = await http().get(`${ROUTE}/${r.id}`).expect(200);
      expect(res.body.json_ld).toEqual({
        '@context': 'http://schema.org',
        '@type': k.jsonLd.type,
        ...k.jsonLd.expected(r),
      });
      const keys = Object.keys(res.body);
      expect(keys.slice(keys.indexOf('json_ld'))).toEqual([
        'json_ld',
        ...k.jsonLd.keysAfter,
        ...TRAILING_KEYS,
      ]);
    });

    it(`answers 400 for ids that are not ${plural}: events, the other kind's, unknown (§1.6)`, async () => {
      const other = await http()
        .post(`${API}/${OTHER}s`)
        .set(as(t.users.editor))
        .send({ [OTHER]: `Not a ${kind}` })
        .expect(201);
      for (const id of [eventId, other.body.id, 999999, 0]) {
        const res = await http().get(`${ROUTE}/${id}`).expect(400);
        expect(res.body).toEqual({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): id',
          data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
        });
      }
      await http().get(`${ROUTE}/by-slug/not-a-${kind}`).expect(400);
    });

    it('answers 400 for unknown slugs and 404 for non-numeric ids or an empty slug', async () => {
      const res = await http().get(`${ROUTE}/by-slug/nope`).expect(400);
      expect(res.body.data.params).toEqual({ slug: 'Invalid parameter.' });
      const route = await http().get(`${ROUTE}/abc`).expect(404);
      expect(route.body.code).toBe('rest_no_route');
      await http().get(`${ROUTE}/by-slug/`).expect(404);
    });

    it(`hides unpublished ${plural} from who may not read them (403 ${kind}-not-accessible)`, async () => {
      for (const headers of [{}, as(t.users.subscriber), as(t.users.author)]) {
        const res = await http().get(`${ROUTE}/${draft.id}`).set(headers).expect(403);
        expect(res.body).toEqual({
          code: `${kind}-not-accessible`,
          message: `The requested ${kind} is not accessible`,
          data: { status: 403 },
        });
      }
      await http().get(`${ROUTE}/${draft.id}`).set(as(t.users.contributor)).expect(200);
      await http().get(`${ROUTE}/${draft.id}`).set(as(t.users.editor)).expect(200);
    });

    it(`lets editors read trashed ${plural} and hides them from the public`, async () => {
      const r = await create(t.users.editor, named('To trash for reading'));
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.editor)).expect(200);
      const res = await http().get(`${ROUTE}/${r.id}`).set(as(t.users.editor)).expect(200);
      expect(res.body.status).toBe('trash');
      await http().get(`${ROUTE}/${r.id}`).expect(403);
    });

    it('supports HEAD', async () => {
      await http().head(`${ROUTE}/${published.id}`).expect(200);
    });
  });

  describe(`password-protected ${plural} (§4.11)`, () => {
    let r: Tec;
    beforeAll(async () => {
      r = await create(
        t.users.editor,
        named('Secret record', {
          description: 'Hidden text',
          website: 'https://secret.example',
          image: 'https://img.example.org/s.png',
          password: 'sesame',
          ...k.protectedFields.body,
        }),
      );
    });

    it('redacts the create response and single reads unless unlocked', async () => {
      expect(r).toMatchObject(
        named([], {
          description: '',
          website: '',
          image: false,
          slug: 'secret-record',
          ...k.protectedFields.redacted,
        }),
      );
      const res = await http().get(`${ROUTE}/${r.id}`).expect(200);
      expect(res.body).toMatchObject(named([], k.protectedFields.redacted));
      expect(res.body).not.toHaveProperty('json_ld');
      const wrong = await http().get(`${ROUTE}/${r.id}?password=Sesame`).expect(200);
      expect(wrong.body[NAME]).toEqual([]);
    });

    it('opens with the right password or context=edit for an editor of it', async () => {
      const open = await http().get(`${ROUTE}/${r.id}?password=sesame`).expect(200);
      expect(open.body).toMatchObject(named('Secret record', k.protectedFields.body));
      expect(open.body.json_ld.name).toBe('Secret record');
      const edit = await http()
        .get(`${ROUTE}/${r.id}?context=edit`)
        .set(as(t.users.editor))
        .expect(200);
      expect(edit.body[NAME]).toBe('Secret record');
      const notEditor = await http()
        .get(`${ROUTE}/${r.id}?context=edit`)
        .set(as(t.users.author))
        .expect(200);
      expect(notEditor.body[NAME]).toEqual([]);
    });

    it('redacts list items unless the list password matches', async () => {
      const nameIn = (list: Tec[]) => list.find((x) => x.id === r.id)?.[NAME];
      const list = await http().get(`${ROUTE}?search=Secret&per_page=50`).expect(200);
      expect(nameIn(list.body[plural])).toEqual([]);
      const open = await http()
        .get(`${ROUTE}?search=Secret&per_page=50&password=sesame`)
        .expect(200);
      expect(nameIn(open.body[plural])).toBe('Secret record');
    });

    it('removes the password with an empty string', async () => {
      await http()
        .post(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ password: '' })
        .expect(200);
      const res = await http().get(`${ROUTE}/${r.id}`).expect(200);
      expect(res.body[NAME]).toBe('Secret record');
    });
  });

  describe(`POST|PUT|PATCH /${plural}/{id} — partial updates (CONTRACT §6)`, () => {
    it('changes only the given fields, on all three methods', async () => {
      const r = await create(
        t.users.editor,
        named('Updatable', {
          description: 'Keep me',
          [k.detail]: 'Debrecen',
          image: 'https://img.example.org/keep.gif',
        }),
      );
      const res = await http()
        .post(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ phone: '06 1 234' })
        .expect(200);
      expect(res.body).toMatchObject(
        named('Updatable', {
          id: r.id,
          description: '<p>Keep me</p>',
          [k.detail]: 'Debrecen',
          phone: '06 1 234',
          status: 'publish',
          image: { url: 'https://img.example.org/keep.gif', id: r.image.id, extension: 'gif' },
        }),
      );
      const put = await http()
        .put(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send(named('Renamed', { [k.detail]: '' }))
        .expect(200);
      expect(put.body[NAME]).toBe('Renamed');
      expect(put.body).not.toHaveProperty(k.detail);
      expect(put.body.slug).toBe('updatable');
      const patch = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ description: '', image: '', phone: '' })
        .expect(200);
      expect(patch.body.description).toBe('<p>Keep me</p>');
      expect(patch.body).not.toHaveProperty('image');
      expect(patch.body).not.toHaveProperty('phone');
    });

    // Regressions found by test/fuzz.e2e-spec.ts: these answered 500.
    it('treats null as an absent field (as WordPress does) and rejects unstorable dates', async () => {
      const r = await create(
        t.users.editor,
        named('Null-proof', { [k.detail]: 'Pécs', author: null, website: null }),
      );
      const res = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send(named(null, { [k.detail]: null, date: null, author: null, phone: '1' }))
        .expect(200);
      expect(res.body).toMatchObject(named('Null-proof', { [k.detail]: 'Pécs', phone: '1' }));
      for (const date of ['0000-00-00', '-0001-01-01']) {
        const bad = await http()
          .post(ROUTE)
          .set(as(t.users.editor))
          .send(named('Dated', { date_utc: date }))
          .expect(400);
        expect(bad.body.data.params).toEqual({
          date_utc: 'date_utc is outside the years 1 to 9999.',
        });
      }
      const bad = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ date: '0000-00-00' })
        .expect(400);
      expect(bad.body.data.params).toEqual({ date: 'date is outside the years 1 to 9999.' });
    });

    it('publishes a draft with a slug and a publication date', async () => {
      const r = await create(t.users.contributor, named('Draft to publish'));
      const res = await http()
        .post(`${ROUTE}/${r.id}`)
        .set(as(t.users.editor))
        .send({ status: 'publish' })
        .expect(200);
      expect(res.body.status).toBe('publish');
      expect(res.body.slug).toBe('draft-to-publish');
      expect(res.body.date_utc).not.toBe('0000-00-00 00:00:00');
    });

    it('validates the id, then the fields, before permissions', async () => {
      const r = await create(t.users.editor, named('Guarded'));
      const eventId = await t.insertEvent();
      const notOfKind = await http().post(`${ROUTE}/${eventId}`).send({}).expect(400);
      expect(notOfKind.body.data.params).toEqual({ id: 'Invalid parameter.' });
      const empty = await http().post(`${ROUTE}/${r.id}`).send(named('')).expect(400);
      expect(empty.body.data.params).toEqual({ [NAME]: 'Invalid parameter.' });
      await http().post(`${ROUTE}/${r.id}`).send({ phone: 'x' }).expect(401);
      await http().post(`${ROUTE}/${r.id}`).set(as(t.users.subscriber)).send({}).expect(403);
      await http().post(`${ROUTE}/${r.id}`).set(as(t.users.author)).send({}).expect(403);
      await http().post(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).send({}).expect(403);
    });

    it(`lets contributors edit their own unpublished ${plural} only`, async () => {
      const own = await create(t.users.contributor, named('Contributor own'));
      const res = await http()
        .post(`${ROUTE}/${own.id}`)
        .set(as(t.users.contributor))
        .send({ [k.detail]: 'Szeged', status: 'publish' })
        .expect(200);
      expect(res.body).toMatchObject({ [k.detail]: 'Szeged', status: 'pending' });
      await http()
        .post(`${ROUTE}/${own.id}`)
        .set(as(t.users.editor))
        .send({ status: 'publish' })
        .expect(200);
      await http()
        .post(`${ROUTE}/${own.id}`)
        .set(as(t.users.contributor))
        .send({ [k.detail]: 'x' })
        .expect(403);
    });

    it(`updates by slug (the path slug identifies the ${kind})`, async () => {
      await create(t.users.author, named('Sluggy'));
      const res = await http()
        .patch(`${ROUTE}/by-slug/sluggy`)
        .set(as(t.users.author))
        .send({ phone: '7621' })
        .expect(200);
      expect(res.body).toMatchObject({ slug: 'sluggy', phone: '7621' });
      const put = await http()
        .put(`${ROUTE}/by-slug/sluggy`)
        .set(as(t.users.author))
        .send(named('Sluggy renamed'))
        .expect(200);
      expect(put.body).toMatchObject(named('Sluggy renamed', { slug: 'sluggy', phone: '7621' }));
      const unknown = await http().post(`${ROUTE}/by-slug/unknown-slug`).send({}).expect(400);
      expect(unknown.body.data.params).toEqual({ slug: 'Invalid parameter.' });
    });
  });

  describe(`DELETE /${plural}/{id}`, () => {
    it(`moves the ${kind} to trash, unlinks it from every event, and answers 410 the second time`, async () => {
      const r = await create(t.users.author, named('Trashable', { [k.detail]: 'Eger' }));
      const events = [
        await t.insertEvent({ linked: [r.id] }),
        await t.insertEvent({ linked: [r.id], status: 'draft' }),
      ];
      const other = await create(t.users.author, named('Stays linked'));
      const kept = await t.insertEvent({ linked: [other.id] });

      const res = await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.author)).expect(200);
      expect(res.body).toMatchObject({
        id: r.id,
        status: 'trash',
        slug: 'trashable',
        [k.detail]: 'Eger',
      });
      for (const e of events) expect(await k.linkedTo(t.ds, e)).toEqual([]);
      expect(await k.linkedTo(t.ds, kept)).toEqual([other.id]);

      const again = await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.author)).expect(410);
      expect(again.body).toEqual({
        code: `${kind}-is-in-trash`,
        message: `The ${kind} is already trashed`,
        data: { status: 410 },
      });
    });

    it('checks the id before permissions and ownership after', async () => {
      const r = await create(t.users.editor, named('Not yours'));
      const eventId = await t.insertEvent();
      await http().delete(`${ROUTE}/999999`).expect(400);
      await http().delete(`${ROUTE}/${eventId}`).expect(400);
      await http().delete(`${ROUTE}/${r.id}`).expect(401);
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(403);
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.author)).expect(403);
    });

    it('lets a contributor trash an own draft (and get 410 after)', async () => {
      const r = await create(t.users.contributor, named('Contributor trash'));
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(200);
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(410);
    });

    // Authorization matrix: a trashed record counts as unpublished for its contributor.
    it(`lets a contributor still update an own trashed ${kind} (another contributor may not)`, async () => {
      const r = await create(t.users.contributor, named('Contributor trash edit'));
      await http().delete(`${ROUTE}/${r.id}`).set(as(t.users.contributor)).expect(200);
      const res = await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(t.users.contributor))
        .send({ [k.detail]: 'Pécs' })
        .expect(200);
      expect(res.body).toMatchObject({ status: 'trash', [k.detail]: 'Pécs' });
      const peer = await createRoleUsers(t.app, `-${kind}-trash`);
      await http()
        .patch(`${ROUTE}/${r.id}`)
        .set(as(peer.contributor))
        .send({ [k.detail]: 'x' })
        .expect(403);
    });

    it('deletes by slug', async () => {
      await create(t.users.editor, named('Slug trash'));
      const res = await http()
        .delete(`${ROUTE}/by-slug/slug-trash`)
        .set(as(t.users.editor))
        .expect(200);
      expect(res.body.status).toBe('trash');
      await http().delete(`${ROUTE}/by-slug/slug-trash`).set(as(t.users.editor)).expect(410);
      await http().delete(`${ROUTE}/by-slug/never-was`).expect(400);
    });
  });

  describe(`GET /${plural} (lists, §5.1/§5.3)`, () => {
    // Lists use Romanian content only, so the other tests' records stay out of the counts.
    const RO = `/ro${ROUTE}`;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      const make = async (who: Credentials, body: Record<string, unknown>) =>
        (await create(who, body, '/ro')).id as number;
      ids.temple = await make(
        t.users.editor,
        named('Le Temple', { description: '100, Avenue du Temple', date: '2020-01-01 00:00:00' }),
      );
      ids.france = await make(
        t.users.editor,
        named('Ile record', { phone: 'France, Ile de France', date: '2020-01-02 00:00:00' }),
      );
      ids.plain = await make(t.users.editor, named('Plain', { date: '2020-01-03 00:00:00' }));
      ids.sameDateA = await make(t.users.editor, named('Same A', { date: '2020-01-04 00:00:00' }));
      ids.sameDateB = await make(t.users.editor, named('Same B', { date: '2020-01-04 00:00:00' }));
      ids.draftOfAuthor = await make(t.users.author, named('Author draft', { status: 'draft' }));
      ids.draftOfEditor = await make(t.users.editor, named('Editor draft', { status: 'draft' }));
    });

    it('answers the envelope with totals and headers, newest first', async () => {
      const res = await http().get(RO).expect(200);
      expect(Object.keys(res.body)).toEqual([plural, 'rest_url', 'total', 'total_pages']);
      expect(res.headers['x-tec-total']).toBe('5');
      expect(res.headers['x-tec-totalpages']).toBe('1');
      expect(res.body.total).toBe(5);
      expect(res.body.total_pages).toBe(1);
      expect(idsOf(res.body[plural])).toEqual([
        ids.sameDateB,
        ids.sameDateA,
        ids.plain,
        ids.france,
        ids.temple,
      ]);
      expect(res.body[plural][0]).not.toHaveProperty('json_ld');
      const url = new URL(res.body.rest_url);
      expect(url.pathname).toBe(`/ro/cal/events/v1/${plural}/`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        page: '1',
        per_page: '10',
        status: 'publish',
      });
    });

    it('pages with next/previous links and 404 past the last page', async () => {
      const p1 = await http().get(`${RO}?per_page=2`).expect(200);
      expect(p1.body.total_pages).toBe(3);
      expect(new URL(p1.body.next_rest_url).searchParams.get('page')).toBe('2');
      expect(p1.body).not.toHaveProperty('previous_rest_url');
      const p2 = await http().get(`${RO}?per_page=2&page=2`).expect(200);
      expect(Object.keys(p2.body)).toEqual([
        plural,
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      expect(new URL(p2.body.previous_rest_url).searchParams.has('page')).toBe(false);
      const p3 = await http().get(`${RO}?per_page=2&page=3`).expect(200);
      expect(p3.body[plural]).toHaveLength(1);
      expect(p3.body).not.toHaveProperty('next_rest_url');
      const past = await http().get(`${RO}?per_page=2&page=4`).expect(404);
      expect(past.body).toEqual({
        code: `${kind}-archive-page-not-found`,
        message: k.messages.roArchivePageNotFound,
        data: { status: 404 },
      });
      const past2 = await http().get(`${ROUTE}?per_page=50&page=99`).expect(404);
      expect(past2.body.message).toBe(`The requested ${kind} archive page does not exist`);
      // Regression found by test/fuzz.e2e-spec.ts: an offset past int64 answered 500.
      const far = await http().get(`${ROUTE}?page=9223372036854775807`).expect(404);
      expect(far.body.code).toBe(`${kind}-archive-page-not-found`);
    });

    it('rejects bad paging and clamps per_page to 50', async () => {
      for (const q of ['per_page=0', 'page=0', 'page=x', 'per_page=1.5']) {
        const res = await http().get(`${RO}?${q}`).expect(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
      const res = await http().get(`${RO}?per_page=500`).expect(200);
      expect(new URL(res.body.rest_url).searchParams.get('per_page')).toBe('50');
    });

    it('answers an empty first page with 200 and zero totals', async () => {
      const res = await http().get(`${RO}?search=zzzzzz`).expect(200);
      expect(res.body).toMatchObject({ [plural]: [], total: 0, total_pages: 0 });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    it('searches fragments within one field (§5.3)', async () => {
      const temple = await http().get(`${RO}?search=temple avenue`).expect(200);
      expect(idsOf(temple.body[plural])).toEqual([ids.temple]);
      const france = await http().get(`${RO}?search=france, ile de`).expect(200);
      expect(idsOf(france.body[plural])).toEqual([ids.france]);
      const mixed = await http().get(`${RO}?search=plain temple`).expect(200);
      expect(mixed.body.total).toBe(0);
      const echoed = new URL(france.body.rest_url).searchParams.get('search');
      expect(echoed).toBe('france, ile de');
      await http().get(`${RO}?search=`).expect(400);
    });

    it('applies status and visibility per caller (§5.2.5, CONTRACT §2)', async () => {
      const bad = await http().get(`${RO}?status=draft`).expect(400);
      expect(bad.body.data.params).toEqual({ status: 'Parametru nevalid.' });
      await http().get(`${RO}?status=publish`).expect(200);
      await http().get(`${RO}?status=foo`).set(as(t.users.editor)).expect(400);

      const editor = await http().get(RO).set(as(t.users.editor)).expect(200);
      expect(editor.body.total).toBe(7);
      expect(new URL(editor.body.rest_url).searchParams.get('status')).toBe('any');
      const drafts = await http().get(`${RO}?status=draft`).set(as(t.users.editor)).expect(200);
      expect(idsOf(drafts.body[plural]).sort(byNumber)).toEqual(
        [ids.draftOfAuthor, ids.draftOfEditor].sort(byNumber),
      );
      const author = await http().get(`${RO}?status=draft`).set(as(t.users.author)).expect(200);
      expect(idsOf(author.body[plural])).toEqual([ids.draftOfAuthor]);
      const subscriber = await http().get(RO).set(as(t.users.subscriber)).expect(200);
      expect(subscriber.body.total).toBe(5);
    });

    it(`searches the ${kind}'s own fields (§5.3)`, async () => {
      for (const { body, search, found } of k.ownSearch) {
        const r = await create(t.users.editor, body);
        const q = new URLSearchParams({ search, per_page: '50' });
        const res = await http().get(`${ROUTE}?${q.toString()}`).expect(200);
        expect(idsOf(res.body[plural])).toEqual(found ? [r.id] : []);
      }
    });

    it(`lists only ${plural} of the request language`, async () => {
      const en = await http().get(`${ROUTE}?search=Temple&per_page=50`).expect(200);
      expect(idsOf(en.body[plural])).not.toContain(ids.temple);
    });

    describe('event filters', () => {
      let withPublished: number;
      let withDraftOnly: number;
      let withPast: number;
      let withPrivateUpcoming: number;
      let eventId: number;

      beforeAll(async () => {
        const make = async (name: string) =>
          (await create(t.users.editor, named(name, { phone: 'Kolozsvár' }), '/ro')).id as number;
        withPublished = await make('Has upcoming');
        withDraftOnly = await make('Only a draft event');
        withPast = await make('Only a past event');
        withPrivateUpcoming = await make('Private upcoming');
        eventId = await t.insertEvent({ linked: [withPublished], language: 'ro' });
        await t.insertEvent({ linked: [withDraftOnly], status: 'draft', language: 'ro' });
        await t.insertEvent({ linked: [withPast], start: PAST, language: 'ro' });
        await t.insertEvent({ linked: [withPrivateUpcoming], status: 'private', language: 'ro' });
      });

      const listed = async (query: string, who?: Credentials) => {
        const req = http().get(`${RO}?search=Kolozsvár&per_page=50&${query}`);
        if (who) req.set(as(who));
        const res = await req.expect(200);
        return idsOf(res.body[plural]).sort(byNumber);
      };

      it('filters by a linked event and rejects ids that are not events', async () => {
        const res = await http().get(`${RO}?event=${eventId}`).expect(200);
        expect(idsOf(res.body[plural])).toEqual([withPublished]);
        expect(new URL(res.body.rest_url).searchParams.get('event')).toBe(String(eventId));
        for (const bad of [String(withPublished), '999999', 'x', '0']) {
          const r = await http().get(`${RO}?event=${bad}`).expect(400);
          expect(r.body.code).toBe('rest_invalid_param');
          expect(Object.keys(r.body.data.params)).toEqual(['event']);
        }
      });

      it('filters by has_events (draft and pending events do not count)', async () => {
        expect(await listed('has_events=1')).toEqual(
          [withPublished, withPast, withPrivateUpcoming].sort(byNumber),
        );
        expect(await listed('has_events=no')).toEqual([withDraftOnly]);
      });

      it('filters by upcoming events the caller may see', async () => {
        expect(await listed('only_with_upcoming=true')).toEqual([withPublished]);
        expect(await listed('only_with_upcoming=1', t.users.editor)).toEqual(
          [withPublished, withDraftOnly, withPrivateUpcoming].sort(byNumber),
        );
        expect(await listed('only_with_upcoming=0')).toHaveLength(4);
        const res = await http().get(`${RO}?only_with_upcoming=yes`).expect(200);
        expect(new URL(res.body.rest_url).searchParams.get('only_with_upcoming')).toBe('1');
      });
    });
  });

  describe('no N+1', () => {
    it('lists a page in the same number of queries whatever the page and its size', async () => {
      for (let i = 0; i < 55; i++) {
        await http()
          .post(`/hu${ROUTE}`)
          .set(as(t.users.editor))
          .send(named(`Bulk ${i}`, { [k.detail]: 'Budapest', password: i % 2 ? 'x' : '' }))
          .expect(201);
      }
      const count = async (perPage: number, page = 1) => {
        await coldCaches(t.app); // cold: list totals are cached until the next write
        const spy = vi.spyOn(t.ds.logger, 'logQuery');
        const res = await http().get(`/hu${ROUTE}?per_page=${perPage}&page=${page}`).expect(200);
        expect(res.body[plural]).toHaveLength(perPage);
        const n = ownQueries(spy).length;
        spy.mockRestore();
        return n;
      };
      const five = await count(5);
      expect(await count(50)).toBe(five);
      expect(await count(5, 3)).toBe(five);
      expect(await count(5, 10)).toBe(five);
      // The total and the page (its ids from the archive index, then its rows, in one statement).
      expect(five).toBeLessThanOrEqual(3);
    });
  });

  describe('service API for the events module', () => {
    it(`embeds several ${plural} in one query, redacting protected ones`, async () => {
      const service = t.app.get(k.service);
      const a = await create(
        t.users.editor,
        named('Embed A', { [k.detail]: 'Sopron', phone: '42' }),
      );
      const b = await create(
        t.users.editor,
        named('Embed B', { [k.detail]: 'Vác', password: 'pw' }),
      );
      const spy = vi.spyOn(t.ds.logger, 'logQuery');
      const map = await service.embedMany([a.id, b.id, a.id, 999999], t.ctxOf(null), {
        jsonLd: true,
      });
      expect(ownQueries(spy)).toHaveLength(1);
      spy.mockRestore();
      expect([...map.keys()].sort(byNumber)).toEqual([a.id, b.id].sort(byNumber));
      expect(map.get(a.id)).toMatchObject(named('Embed A', { [k.detail]: 'Sopron', phone: '42' }));
      expect((map.get(a.id) as Tec).json_ld).toMatchObject({
        '@type': k.jsonLd.type,
        name: 'Embed A',
      });
      expect(map.get(b.id)).toMatchObject(named([], { [k.detail]: '' }));
      expect(map.get(b.id)).not.toHaveProperty('json_ld');
      const plain = await service.embedMany([a.id], t.ctxOf(null), { jsonLd: false });
      expect(plain.get(a.id)).not.toHaveProperty('json_ld');
    });

    it(`tells which ids are ${plural}`, async () => {
      const service = t.app.get(k.service);
      const r = await create(t.users.contributor, named('Existing check'));
      const eventId = await t.insertEvent();
      expect(await service.existingIds([r.id, eventId, 999999])).toEqual(new Set([r.id]));
      expect(await service.existingIds([])).toEqual(new Set());
    });
  });

  describe('namespace index', () => {
    it(`lists the ${kind} routes with their args, localized`, async () => {
      const res = await http().get(API).expect(200);
      const list = res.body.routes[ROUTE];
      expect(list.methods).toEqual(['GET', 'POST']);
      expect(Object.keys(list.endpoints[0].args)).toEqual([
        'page',
        'per_page',
        'search',
        'event',
        'has_events',
        'only_with_upcoming',
        'status',
        'i18n_language',
      ]);
      expect(list.endpoints[0].args.per_page.description).toBe(k.messages.perPage.en);
      expect(list.endpoints[1].args[NAME]).toMatchObject({ type: 'string', required: true });
      expect(list.endpoints[1].args[k.detail]).toMatchObject({ default: null, required: false });
      const item = res.body.routes[`${ROUTE}/(?P<id>\\d+)`];
      expect(item.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      expect(item.endpoints[0].args.id).toMatchObject({ type: 'integer', required: true });
      expect(item.endpoints[2].args[NAME].required).toBe(false);
      const slug = res.body.routes[`${ROUTE}/by-slug/(?P<slug>[^/]+)`];
      expect(slug.endpoints[0].args.slug).toMatchObject({ type: 'string', required: true });
      const hu = await http().get(`/hu${API}`).expect(200);
      expect(hu.body.routes[ROUTE].endpoints[0].args.per_page.description).toBe(
        k.messages.perPage.hu,
      );
    });
  });

  return t;
}
