import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Actor } from '../src/auth/actor.js';
import { PostStore } from '../src/common/posts/post-store.js';
import { Writes } from '../src/database/writes.js';
import type { RequestContext } from '../src/common/http/request-context.js';
import { APP_CONFIG, type AppConfig, type Language } from '../src/config/config.js';
import { OrganizerEventLinks } from '../src/organizers/organizers.service.js';
import { createRoleUsers, type Credentials, type RoleUsers } from './helpers/auth.js';
import { closeApp, createTestApp } from './helpers/create-test-app.js';
import { coldCaches, ownQueries } from './helpers/query-counter.js';
import { byNumber } from './helpers/sort.js';

const API = '/cal/events/v1';

/** A record as the API answers it (fields read by the tests). */
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;
const FUTURE = '2099-06-01 10:00:00';
const PAST = '2001-06-01 10:00:00';

/** Events rows written directly: the events routes are another module's (and may change). */
async function insertEvent(
  ds: DataSource,
  o: { organizers?: number[]; status?: string; start?: string; language?: Language } = {},
): Promise<number> {
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
  for (const [position, organizerId] of (o.organizers ?? []).entries()) {
    await ds.query(
      'INSERT INTO event_organizers (event_id, organizer_id, position) VALUES (?, ?, ?)',
      [id, organizerId, position],
    );
  }
  return id;
}

const organizersOf = async (ds: DataSource, eventId: number) =>
  (
    await ds.query(
      'SELECT organizer_id FROM event_organizers WHERE event_id = ? ORDER BY position',
      [eventId],
    )
  ).map((r: { organizer_id: number | string }) => Number(r.organizer_id));

describe('organizers (e2e)', () => {
  let app: NestExpressApplication;
  let ds: DataSource;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  const as = (who: Credentials) => ({ Authorization: who.header });

  const create = async (who: Credentials, body: Record<string, unknown>, prefix = '') => {
    const res = await http().post(`${prefix}${API}/organizers`).set(as(who)).send(body);
    expect(res.status).toBe(201);
    return res.body as Tec;
  };

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.get(DataSource);
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  describe('POST /organizers', () => {
    it('creates an organizer and answers 201 with the organizer object, empty fields dropped', async () => {
      const res = await http()
        .post(`${API}/organizers`)
        .set(as(users.author))
        .send({
          organizer: 'Jane & Co',
          phone: ' 555\n0100 ',
          email: 'not-an-email',
          website: 'http://example',
        })
        .expect(201);
      const o = res.body;
      expect(Object.keys(o)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'slug',
        'phone',
        'website',
        'email',
        'global_id',
        'global_id_lineage',
        'language',
        'translations',
      ]);
      expect(o).toMatchObject({
        author: String(users.author.id),
        status: 'publish',
        url: 'http://cal.test/organizer/jane-co/',
        organizer: 'Jane &#038; Co',
        slug: 'jane-co',
        phone: '555 0100',
        email: 'not-an-email',
        website: 'http://example',
        global_id: `cal.test?id=${o.id}`,
      });
      expect(o).not.toHaveProperty('show_map');
    });

    it('validates before checking permissions', async () => {
      const missing = await http().post(`${API}/organizers`).send({}).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): organizer',
        data: { status: 400, params: { organizer: 'Missing parameter.' } },
      });
      const typed = await http()
        .post(`${API}/organizers`)
        .send({ organizer: 'x', phone: 123, website: 'foo' })
        .expect(400);
      expect(typed.body.data.params).toEqual({
        phone: 'phone is not of type string.',
        website: 'website must be an http or https URL, such as https://example.org/.',
      });
      await http().post(`${API}/organizers`).send({ organizer: 'Fine' }).expect(401);
      await http()
        .post(`${API}/organizers`)
        .set(as(users.subscriber))
        .send({ organizer: 'Fine' })
        .expect(403);
      const d = await create(users.contributor, { organizer: 'Contributor org' });
      expect(d).toMatchObject({ status: 'draft', date_utc: '0000-00-00 00:00:00' });
      expect(d.url).toBe(`http://cal.test/?post_type=cal_organizer&p=${d.id}`);
    });

    // CONTRACT §2: only editors and administrators create organizers of others.
    it('lets only editors and administrators create organizers of others', async () => {
      const res = await http()
        .post(`${API}/organizers`)
        .set(as(users.author))
        .send({ organizer: 'For the editor', author: users.editor.id })
        .expect(403);
      expect(res.body.code).toBe('rest_cannot_create');
      const editors = await http()
        .post(`${API}/organizers`)
        .set(as(users.editor))
        .send({ organizer: 'Private for the author', author: users.author.id, status: 'private' })
        .expect(201);
      expect(editors.body).toMatchObject({ author: String(users.author.id), status: 'private' });
    });

    it('reuses a duplicate (name, and description if given) and overwrites its contact details', async () => {
      const first = await create(users.editor, {
        organizer: 'Dup Org',
        description: 'Org description',
        phone: '1',
        email: 'a@example.org',
      });
      const again = await create(users.editor, {
        organizer: 'DUP ORG',
        email: 'b@example.org',
        website: 'https://dup.example',
      });
      expect(again.id).toBe(first.id);
      expect(again).toMatchObject({
        organizer: 'Dup Org',
        phone: '1',
        email: 'b@example.org',
        website: 'https://dup.example',
        description: '<p>Org description</p>',
      });
      const other = await create(users.editor, { organizer: 'Dup Org', description: 'Other' });
      expect(other.id).not.toBe(first.id);
    });
  });

  describe('reads', () => {
    let org: Tec;
    beforeAll(async () => {
      org = await create(users.editor, {
        organizer: 'Readable Org',
        description: 'One two three',
        phone: '777',
        email: 'org@example.org',
        website: 'https://org.example',
      });
    });

    it('answers the organizer with json_ld (a Person whose url is the website)', async () => {
      const res = await http().get(`${API}/organizers/${org.id}`).expect(200);
      expect(res.body.json_ld).toEqual({
        '@context': 'http://schema.org',
        '@type': 'Person',
        name: 'Readable Org',
        description: '<p>One two three</p>',
        url: 'https://org.example',
        telephone: '777',
        email: 'org@example.org',
        sameAs: 'https://org.example',
      });
      const bySlug = await http().get(`${API}/organizers/by-slug/readable-org`).expect(200);
      expect(bySlug.body.id).toBe(org.id);
    });

    it('answers 400 for ids of other kinds and unknown slugs', async () => {
      const venue = await http()
        .post(`${API}/venues`)
        .set(as(users.editor))
        .send({ venue: 'Not an organizer' })
        .expect(201);
      const res = await http().get(`${API}/organizers/${venue.body.id}`).expect(400);
      expect(res.body.data.params).toEqual({ id: 'Invalid parameter.' });
      await http().get(`${API}/organizers/by-slug/not-an-organizer`).expect(400);
    });

    it('hides unpublished organizers (403 organizer-not-accessible)', async () => {
      const draft = await create(users.contributor, { organizer: 'Hidden org' });
      const res = await http().get(`${API}/organizers/${draft.id}`).expect(403);
      expect(res.body).toEqual({
        code: 'organizer-not-accessible',
        message: 'The requested organizer is not accessible',
        data: { status: 403 },
      });
    });

    it('redacts a protected organizer unless unlocked', async () => {
      const p = await create(users.editor, {
        organizer: 'Protected org',
        email: 'p@example.org',
        phone: '9',
        password: 'pw',
      });
      expect(p).toMatchObject({ organizer: [], email: '', phone: '' });
      const open = await http().get(`${API}/organizers/${p.id}?password=pw`).expect(200);
      expect(open.body).toMatchObject({ organizer: 'Protected org', email: 'p@example.org' });
    });
  });

  describe('updates and trash', () => {
    it('updates only the given fields, by id and by slug', async () => {
      const o = await create(users.author, {
        organizer: 'Editable org',
        phone: '1',
        email: 'e@example.org',
      });
      const res = await http()
        .patch(`${API}/organizers/${o.id}`)
        .set(as(users.author))
        .send({ phone: '' })
        .expect(200);
      expect(res.body).toMatchObject({ organizer: 'Editable org', email: 'e@example.org' });
      expect(res.body).not.toHaveProperty('phone');
      const bySlug = await http()
        .put(`${API}/organizers/by-slug/editable-org`)
        .set(as(users.author))
        .send({ organizer: 'Edited org' })
        .expect(200);
      expect(bySlug.body).toMatchObject({ organizer: 'Edited org', slug: 'editable-org' });
      await http()
        .post(`${API}/organizers/${o.id}`)
        .set(as(users.contributor))
        .send({ phone: '2' })
        .expect(403);
      await http().post(`${API}/organizers/${o.id}`).send({ organizer: '' }).expect(400);
    });

    // Regressions found by test/fuzz.e2e-spec.ts: these answered 500.
    it('treats null as an absent field (as WordPress does) and rejects unstorable dates', async () => {
      const o = await create(users.editor, { organizer: 'Null-proof org', email: null });
      const res = await http()
        .post(`${API}/organizers/by-slug/null-proof-org`)
        .set(as(users.editor))
        .send({ organizer: null, author: null, date_utc: null, phone: '3' })
        .expect(200);
      expect(res.body).toMatchObject({ id: o.id, organizer: 'Null-proof org', phone: '3' });
      const bad = await http()
        .patch(`${API}/organizers/${o.id}`)
        .set(as(users.editor))
        .send({ date: '0000-00-00' })
        .expect(400);
      expect(bad.body.data.params).toEqual({ date: 'date is outside the years 1 to 9999.' });
    });

    it('trashes, removes the organizer from every event, and answers 410 the second time', async () => {
      const a = await create(users.editor, { organizer: 'Trash org A' });
      const b = await create(users.editor, { organizer: 'Trash org B' });
      const e1 = await insertEvent(ds, { organizers: [a.id, b.id] });
      const e2 = await insertEvent(ds, { organizers: [a.id] });
      const res = await http()
        .delete(`${API}/organizers/${a.id}`)
        .set(as(users.editor))
        .expect(200);
      expect(res.body).toMatchObject({ id: a.id, status: 'trash' });
      expect(await organizersOf(ds, e1)).toEqual([b.id]);
      expect(await organizersOf(ds, e2)).toEqual([]);
      const again = await http()
        .delete(`${API}/organizers/${a.id}`)
        .set(as(users.editor))
        .expect(410);
      expect(again.body).toEqual({
        code: 'organizer-is-in-trash',
        message: 'The organizer is already trashed',
        data: { status: 410 },
      });
      await http().delete(`${API}/organizers/${b.id}`).expect(401);
      await http().delete(`${API}/organizers/${e1}`).expect(400);
    });

    // Authorization matrix: a trashed record counts as unpublished for its contributor.
    it('lets a contributor update an own trashed organizer and get 410 on a second delete', async () => {
      const o = await create(users.contributor, { organizer: 'Contributor trash org' });
      await http().delete(`${API}/organizers/${o.id}`).set(as(users.contributor)).expect(200);
      const res = await http()
        .put(`${API}/organizers/${o.id}`)
        .set(as(users.contributor))
        .send({ phone: '42' })
        .expect(200);
      expect(res.body).toMatchObject({ status: 'trash', phone: '42' });
      await http().delete(`${API}/organizers/${o.id}`).set(as(users.contributor)).expect(410);
    });
  });

  describe('GET /organizers', () => {
    const RO = `/ro${API}`;
    let withEvent: number;
    let noEvent: number;
    let draftEventOnly: number;
    let eventId: number;

    beforeAll(async () => {
      withEvent = (
        await create(users.editor, { organizer: 'Ana', email: 'ana@cluj.example' }, '/ro')
      ).id;
      noEvent = (
        await create(
          users.editor,
          { organizer: 'Bogdan', website: 'https://bogdan.example' },
          '/ro',
        )
      ).id;
      draftEventOnly = (await create(users.editor, { organizer: 'Cosmin' }, '/ro')).id;
      eventId = await insertEvent(ds, { organizers: [withEvent], language: 'ro' });
      await insertEvent(ds, { organizers: [draftEventOnly], status: 'draft', language: 'ro' });
    });

    it('lists newest first with the envelope and headers', async () => {
      const res = await http().get(`${RO}/organizers`).expect(200);
      expect(Object.keys(res.body)).toEqual(['organizers', 'rest_url', 'total', 'total_pages']);
      expect(res.body.organizers.map((o: { id: number }) => o.id)).toEqual([
        draftEventOnly,
        noEvent,
        withEvent,
      ]);
      expect(res.headers['x-tec-total']).toBe('3');
      expect(new URL(res.body.rest_url).pathname).toBe('/ro/cal/events/v1/organizers/');
      const past = await http().get(`${API}/organizers?page=50`).expect(404);
      expect(past.body).toEqual({
        code: 'organizer-archive-page-not-found',
        message: 'The requested organizer archive page does not exist',
        data: { status: 404 },
      });
    });

    it('searches name, e-mail and website', async () => {
      const email = await http().get(`${RO}/organizers?search=cluj`).expect(200);
      expect(email.body.organizers.map((o: { id: number }) => o.id)).toEqual([withEvent]);
      const site = await http().get(`${RO}/organizers?search=bogdan.example`).expect(200);
      expect(site.body.organizers.map((o: { id: number }) => o.id)).toEqual([noEvent]);
    });

    it('filters by event, has_events and only_with_upcoming', async () => {
      const ids = async (q: string) =>
        (await http().get(`${RO}/organizers?${q}`).expect(200)).body.organizers
          .map((o: { id: number }) => o.id)
          .sort(byNumber);
      expect(await ids(`event=${eventId}`)).toEqual([withEvent]);
      expect(await ids('has_events=1')).toEqual([withEvent]);
      expect(await ids('has_events=0')).toEqual([noEvent, draftEventOnly].sort(byNumber));
      expect(await ids('only_with_upcoming=1')).toEqual([withEvent]);
      await http().get(`${RO}/organizers?event=${withEvent}`).expect(400);
    });

    it('lists a page in the same number of queries whatever the page and its size', async () => {
      for (let i = 0; i < 52; i++) {
        await create(users.editor, { organizer: `Bulk org ${i}`, email: `b${i}@x.example` }, '/hu');
      }
      const count = async (perPage: number, page = 1) => {
        await coldCaches(app); // cold: list totals are cached until the next write
        const spy = vi.spyOn(ds.logger, 'logQuery');
        const res = await http()
          .get(`/hu${API}/organizers?per_page=${perPage}&page=${page}`)
          .expect(200);
        expect(res.body.organizers).toHaveLength(perPage);
        const n = ownQueries(spy).length;
        spy.mockRestore();
        return n;
      };
      const five = await count(5);
      expect(await count(50)).toBe(five);
      expect(await count(5, 3)).toBe(five);
      expect(await count(5, 10)).toBe(five);
    });
  });

  describe('service API for the events module', () => {
    let service: OrganizerEventLinks;
    let config: AppConfig;
    const ctxOf = (who: Credentials): RequestContext => {
      const actor: Actor = { user: { id: who.id, login: who.login, role: who.login as never } };
      return {
        actor,
        language: 'en',
        restBase: `http://cal.test${API}`,
        siteUrl: 'http://cal.test',
        config,
        query: {},
      };
    };

    beforeAll(() => {
      service = app.get(OrganizerEventLinks);
      config = app.get(APP_CONFIG);
    });

    it('plans lists, comma-separated ids and inline organizers, then applies them in order', async () => {
      const a = await create(users.editor, { organizer: 'Plan A' });
      const b = await create(users.editor, { organizer: 'Plan B' });
      const ctx = ctxOf(users.author);
      expect(await service.planReferences(`${b.id}, ${a.id}`, ctx)).toEqual([
        { id: b.id },
        { id: a.id },
      ]);
      expect(await service.planReferences('', ctx)).toEqual([]);
      const plan = await service.planReferences(
        [a.id, { organizer: 'Inline org', email: 'in@example.org' }, { id: a.id }, String(b.id)],
        ctx,
      );
      const ids = await app.get(Writes).run((scope) => service.applyPlan(plan, ctx, scope));
      expect(ids).toHaveLength(3);
      expect(ids[0]).toBe(a.id);
      expect(ids[2]).toBe(b.id);
      const inline = await http().get(`${API}/organizers/${ids[1]}`).expect(200);
      expect(inline.body).toMatchObject({
        organizer: 'Inline org',
        email: 'in@example.org',
        status: 'publish',
        author: String(users.author.id),
      });
    });

    it('rejects invalid references on the organizer field', async () => {
      const ctx = ctxOf(users.editor);
      for (const bad of ['x', [1.5], `999999`, { email: 'no name' }, '1,foo']) {
        await expect(service.planReferences(bad, ctx)).rejects.toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { organizer: { key: 'validation.invalid' } } },
        });
      }
    });

    it('embeds organizers and tells which ids exist', async () => {
      const o = await create(users.editor, { organizer: 'Embedded org', phone: '42' });
      const map = await service.embedMany([o.id], ctxOf(users.editor), { jsonLd: false });
      expect(map.get(o.id)).toMatchObject({ organizer: 'Embedded org', phone: '42' });
      expect(await service.existingIds([o.id, 999999])).toEqual(new Set([o.id]));
    });
  });

  describe('namespace index', () => {
    it('lists the organizer routes', async () => {
      const res = await http().get(API).expect(200);
      const list = res.body.routes[`${API}/organizers`];
      expect(list.methods).toEqual(['GET', 'POST']);
      expect(list.endpoints[1].args.organizer).toMatchObject({ required: true });
      expect(list.endpoints[0].args.per_page.description).toBe(
        'The number of organizers to return on each page',
      );
      const hu = await http().get(`/hu${API}`).expect(200);
      expect(hu.body.routes[`${API}/organizers`].endpoints[0].args.per_page.description).toBe(
        'Az oldalanként visszaadott szervezők száma',
      );
      const item = res.body.routes[`${API}/organizers/(?P<id>\\d+)`];
      expect(item.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
    });
  });
});
