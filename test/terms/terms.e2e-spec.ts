import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PostIdEntity } from '../../src/posts/post-id.entity.js';
import { Writes } from '../../src/database/writes.js';
import { EventsRepository } from '../../src/events/events.repository.js';
import { coldCaches, ownQueries } from '../helpers/query-counter.js';
import { EventTermsRepository } from '../../src/terms/event-terms.repository.js';
import { EventTermLinks } from '../../src/terms/event-term-links.js';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { byNumber } from '../helpers/sort.js';
import { wpError } from '../helpers/wp-error.js';

const BASE = 'http://cal.test/cal/events/v1';
const CATS = '/cal/events/v1/categories';
const TAGS = '/cal/events/v1/tags';

const invalid = (...names: string[]) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${names.join(', ')}`,
  data: {
    status: 400,
    params: Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])),
    details: [],
  },
});

describe('categories and tags (e2e)', () => {
  let app: NestExpressApplication;
  let ds: DataSource;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  let unique = 0;
  /** A name no other test uses, so that lists can be narrowed with `search`. */
  const uniq = (prefix: string) => `${prefix}${++unique}x`;

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.get(DataSource);
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  const editor = () => users.editor.header;

  async function createCategory(body: Record<string, unknown>, prefix = '') {
    const res = await http()
      .post(`${prefix}${CATS}`)
      .set('Authorization', editor())
      .send(body)
      .expect(201);
    return res.body;
  }

  async function createTag(body: Record<string, unknown>, prefix = '') {
    const res = await http()
      .post(`${prefix}${TAGS}`)
      .set('Authorization', editor())
      .send(body)
      .expect(201);
    return res.body;
  }

  /** Events are built by another module: rows go straight into `post_ids`/`events`. */
  /**
   * Fixtures written in SQL, behind the service's back: announced like the service's own
   * committed writes (Writes), so cached answers computed before them are not reused.
   */
  async function sqlWrite(sql: string, params: unknown[]) {
    await ds.query(sql, params);
    // Links written behind the app's back: the terms' kept counts of published events are
    // taken again, as the app's own event writes keep them.
    if (/event_terms/.test(sql)) {
      const terms: Array<{ id: number | string }> = await ds.query('SELECT id FROM terms');
      await app.get(EventTermsRepository).recountPublished(
        ds.manager,
        terms.map((t) => Number(t.id)),
      );
    }
    await coldCaches(app);
  }

  async function insertEvent(
    options: {
      status?: string;
      dateUtc?: string | null;
      terms?: number[];
      kind?: 'event' | 'venue';
    } = {},
  ): Promise<number> {
    const kind = options.kind ?? 'event';
    const { identifiers } = await ds.getRepository(PostIdEntity).insert({ kind });
    const id = Number(identifiers[0].id);
    if (kind !== 'event') return id;
    const dateUtc = options.dateUtc === undefined ? '2020-01-01 10:00:00' : options.dateUtc;
    const date = dateUtc ?? '2020-01-01 10:00:00';
    await sqlWrite(
      `INSERT INTO events (id, status, title, description, excerpt, date, date_utc, modified,
         modified_utc, language, start_date, end_date, start_utc, end_utc, timezone, cost)
       VALUES (?, ?, 'E', '', '', ?, ?, ?, ?, 'en', '2030-01-01 10:00:00', '2030-01-01 11:00:00',
         '2030-01-01 10:00:00', '2030-01-01 11:00:00', 'UTC', '')`,
      [id, options.status ?? 'publish', date, dateUtc, date, date],
    );
    await linkTerms(id, options.terms ?? []);
    return id;
  }

  async function linkTerms(eventId: number, termIds: number[]) {
    for (const termId of termIds) {
      // Term links carry a copy of the event's status, date and language (EventsService keeps
      // it in step).
      await sqlWrite(
        `INSERT INTO event_terms (event_id, term_id, event_status, event_date_utc, event_language)
         SELECT id, ?, status, date_utc, language FROM events WHERE id = ?`,
        [termId, eventId],
      );
    }
  }

  const countOf = async (id: number, collection = CATS) =>
    (await http().get(`${collection}/${id}`).expect(200)).body.count;

  describe('namespace index', () => {
    it('lists the term routes with their method groups and localized args', async () => {
      const res = await http().get('/cal/events/v1').expect(200);
      const routes = res.body.routes;
      const keys = Object.keys(routes);
      expect(keys).toEqual(
        expect.arrayContaining([
          '/cal/events/v1/categories',
          '/cal/events/v1/categories/(?P<id>\\d+)',
          '/cal/events/v1/tags',
          '/cal/events/v1/tags/(?P<id>\\d+)',
        ]),
      );
      const list = routes['/cal/events/v1/categories'];
      expect(list.methods).toEqual(['GET', 'POST']);
      expect(list._links).toEqual({ self: [{ href: `${BASE}/categories` }] });
      const listArgs = list.endpoints[0].args;
      expect(Object.keys(listArgs)).toEqual(
        expect.arrayContaining([
          'page',
          'per_page',
          'search',
          'exclude',
          'include',
          'order',
          'orderby',
          'hide_empty',
          'parent',
          'post',
          'event',
          'slug',
        ]),
      );
      expect(Object.keys(listArgs).at(-1)).toBe('i18n_language');
      expect(listArgs.per_page).toEqual({
        default: 10,
        description: 'The number of event categories to return on each page',
        type: 'integer',
        required: false,
      });
      expect(listArgs.hide_empty).toEqual({
        default: '1',
        description: 'Whether to hide terms not assigned to any posts',
        type: 'boolean',
        required: false,
      });
      expect(listArgs.event.description).toBe(
        'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
      );
      const create = list.endpoints[1].args;
      expect(create.name).toEqual({
        description: 'The event category name',
        type: 'string',
        required: true,
      });
      expect(create.parent).toMatchObject({ type: 'integer', required: false });

      const item = routes['/cal/events/v1/categories/(?P<id>\\d+)'];
      expect(item.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      expect(item.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([
        ['GET'],
        ['POST', 'PUT', 'PATCH'],
        ['DELETE'],
      ]);
      expect(item._links).toBeUndefined();
      expect(item.endpoints[0].args.id).toEqual({
        description: 'the event category term ID',
        type: 'integer',
        required: true,
      });
      expect(item.endpoints[1].args.name.required).toBe(false);

      const tags = routes['/cal/events/v1/tags'];
      expect(tags.endpoints[0].args.parent).toBeUndefined();
      expect(tags.endpoints[0].args.per_page.description).toBe(
        'The number of event tags to return on each page',
      );
      expect(tags.endpoints[1].args.parent).toBeUndefined();
      expect(tags.endpoints[1].args.name.description).toBe('The event tag name');
    });

    it('localizes the term descriptions', async () => {
      const res = await http().get('/hu/cal/events/v1').expect(200);
      const args = res.body.routes['/cal/events/v1/tags'].endpoints[0].args;
      expect(args.per_page.description).toBe('Az oldalanként visszaadott eseménycímkék száma');
    });

    it('documents the Term schema and the list responses', async () => {
      const res = await http().get('/cal/events/v1/doc').expect(200);
      expect(res.body.components.schemas.Term.properties.urls.description).toBe(
        'A list of links to the term own, archive and parent REST URL',
      );
      expect(res.body.paths['/categories'].get.responses['200'].description).toBe(
        'Returns all the event categories matching the search criteria',
      );
      expect(res.body.paths['/tags'].get.responses['404'].description).toBe(
        'No event tags match the query or the requested page was not found.',
      );
      expect(res.body.paths['/tags/{id}'].put).toBeDefined();
      expect(res.body.paths['/tags/{id}'].delete.responses['410'].description).toBe(
        'The event tag with the specified term ID has been deleted already.',
      );
    });
  });

  describe('create', () => {
    it('creates a category: 201, Location and the list form', async () => {
      const res = await http()
        .post(CATS)
        .set('Authorization', editor())
        .send({ name: 'Concerts', description: 'Live music' })
        .expect(201);
      const id = res.body.id;
      expect(res.headers.location).toBe(`${BASE}/categories/${id}`);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(res.body).toEqual({
        id,
        count: 0,
        description: 'Live music',
        name: 'Concerts',
        slug: 'concerts',
        taxonomy: 'cal_events_cat',
        parent: 0,
        meta: [],
        url: 'http://cal.test/events/category/concerts/',
        urls: { self: `${BASE}/categories/${id}`, collection: `${BASE}/categories` },
        language: 'en',
        translations: { en: id },
      });
      expect(Object.keys(res.body)).toEqual([
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        'parent',
        'meta',
        'url',
        'urls',
        'language',
        'translations',
      ]);
    });

    it('creates a tag: no parent key, tag archive url', async () => {
      const res = await http()
        .post(TAGS)
        .set('Authorization', users.administrator.header)
        .type('form')
        .send({ name: 'Outdoor fun', slug: 'outdoors' })
        .expect(201);
      expect(res.headers.location).toBe(`${BASE}/tags/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        count: 0,
        description: '',
        name: 'Outdoor fun',
        slug: 'outdoors',
        taxonomy: 'post_tag',
        meta: [],
        url: 'http://cal.test/tag/outdoors/',
        urls: { self: `${BASE}/tags/${res.body.id}`, collection: `${BASE}/tags` },
        language: 'en',
        translations: { en: res.body.id },
      });
    });

    it('stores the name as escaped text and the description as basic inline HTML', async () => {
      const term = await createTag({
        name: '  Rock &  <b>Roll</b> > Jazz ',
        description: '<p>Hi <strong>there</strong> <a href="https://x.org" onclick="y">x</a></p>',
      });
      expect(term.name).toBe('Rock &amp; Roll &gt; Jazz');
      expect(term.slug).toBe('rock-roll-jazz');
      expect(term.description).toBe('Hi <strong>there</strong> <a href="https://x.org">x</a>');
    });

    it('shares one id sequence between categories and tags', async () => {
      const a = await createCategory({ name: uniq('Seq') });
      const b = await createTag({ name: uniq('Seq') });
      const c = await createCategory({ name: uniq('Seq') });
      expect(b.id).toBe(a.id + 1);
      expect(c.id).toBe(b.id + 1);
    });

    it('validates before checking permissions', async () => {
      const missing = await http().post(CATS).send({}).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): name',
        data: { status: 400, params: { name: 'Missing parameter.' } },
      });
      await http().post(TAGS).set('Authorization', users.subscriber.header).send({}).expect(400);
      const empty = await http().post(CATS).send({ name: '' }).expect(400);
      expect(empty.body).toEqual(invalid('name'));
      const number = await http().post(TAGS).send({ name: 5 }).expect(400);
      expect(number.body).toEqual(invalid('name'));
      const description = await http().post(CATS).send({ name: 'x', description: '' }).expect(400);
      expect(description.body).toEqual(invalid('description'));
      const slug = await http().post(CATS).send({ name: 'x', slug: '' }).expect(400);
      expect(slug.body).toEqual(invalid('slug'));
    });

    it.each([
      ['anonymous', 401],
      ['subscriber', 403],
      ['contributor', 403],
      ['author', 403],
    ] as const)('answers %s with %i rest_forbidden', async (role, status) => {
      for (const path of [CATS, TAGS]) {
        const req = http().post(path);
        if (role !== 'anonymous') req.set('Authorization', users[role].header);
        const res = await req.send({ name: uniq('Forbidden') }).expect(status);
        expect(res.body).toEqual({
          code: 'rest_forbidden',
          message: 'Sorry, you are not allowed to do that.',
          data: { status },
        });
      }
    });

    it('rejects a duplicate name: term_exists with the existing term id', async () => {
      const name = uniq('Dup');
      const cat = await createCategory({ name });
      const again = await http()
        .post(CATS)
        .set('Authorization', editor())
        .send({ name })
        .expect(400);
      expect(again.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: cat.id },
      });
      const tag = await createTag({ name });
      const lower = await http()
        .post(TAGS)
        .set('Authorization', editor())
        .send({ name: name.toLowerCase() })
        .expect(400);
      expect(lower.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists in this taxonomy.',
        data: { status: 400, term_id: tag.id },
      });
      const hu = await http()
        .post(`${TAGS}?i18n_language=hu`)
        .set('Authorization', editor())
        .send({ name: 'Hu dup' });
      expect(hu.status).toBe(201);
      const huAgain = await http()
        .post('/hu' + TAGS)
        .set('Authorization', editor())
        .send({ name: 'Hu dup' })
        .expect(400);
      expect(huAgain.body.message).toBe('Ebben a taxonómiában már létezik ilyen nevű kifejezés.');
    });

    it('allows the same category name under another parent, with a suffixed slug', async () => {
      const name = uniq('Kids');
      const parent = await createCategory({ name: uniq('Family') });
      const top = await createCategory({ name });
      const child = await createCategory({ name, parent: parent.id });
      expect(child.slug).toBe(`${top.slug}-2`);
      expect(child.parent).toBe(parent.id);
    });

    it('allows a duplicate name when a different free slug is asked for', async () => {
      const name = uniq('Twin');
      await createTag({ name });
      const other = await createTag({ name, slug: `${name}-other` });
      expect(other.slug).toBe(`${name.toLowerCase()}-other`);
      // Same slug as the existing one, or a taken slug: still a duplicate.
      await http().post(TAGS).set('Authorization', editor()).send({ name, slug: name }).expect(400);
    });

    it('suffixes a slug that another term already has: -2, -3', async () => {
      const slug = uniq('taken').toLowerCase();
      const a = await createTag({ name: uniq('First'), slug });
      const b = await createTag({ name: uniq('Second'), slug });
      const c = await createTag({ name: uniq('Third'), slug });
      expect([a.slug, b.slug, c.slug]).toEqual([slug, `${slug}-2`, `${slug}-3`]);
      // Categories have their own slugs.
      const cat = await createCategory({ name: uniq('Cat'), slug });
      expect(cat.slug).toBe(slug);
    });

    it('derives the slug from the name, and from the id when nothing is left', async () => {
      const accented = await createTag({ name: 'Árvíztűrő tükörfúrógép Țară' });
      expect(accented.slug).toBe('arvizturo-tukorfurogep-tara');
      expect(accented.name).toBe('Árvíztűrő tükörfúrógép Țară');
      const symbols = await createTag({ name: '!!!' });
      expect(symbols.slug).toBe(String(symbols.id));
    });

    it('rejects a name with nothing left after sanitizing, or too long', async () => {
      const empty = await http()
        .post(TAGS)
        .set('Authorization', editor())
        .send({ name: '<b></b>' })
        .expect(400);
      expect(empty.body).toEqual(invalid('name'));
      await http()
        .post(TAGS)
        .set('Authorization', editor())
        .send({ name: 'x'.repeat(201) })
        .expect(400);
    });

    it('validates parent: an existing category id', async () => {
      const tag = await createTag({ name: uniq('NotParent') });
      for (const parent of [2389, tag.id, '', 'foo', 0, -1, 1.5]) {
        const res = await http()
          .post(CATS)
          .set('Authorization', users.subscriber.header)
          .send({ name: uniq('Child'), parent })
          .expect(400);
        expect(res.body).toEqual(invalid('parent'));
      }
    });

    it('builds the category url from its ancestors and links the parent', async () => {
      const root = await createCategory({ name: 'Arts root', slug: 'arts' });
      const mid = await createCategory({ name: 'Music mid', slug: 'music', parent: root.id });
      const leaf = await createCategory({
        name: 'Jazz leaf',
        slug: 'jazz',
        parent: String(mid.id),
      });
      expect(leaf.parent).toBe(mid.id);
      expect(leaf.url).toBe('http://cal.test/events/category/arts/music/jazz/');
      expect(leaf.urls).toEqual({
        self: `${BASE}/categories/${leaf.id}`,
        collection: `${BASE}/categories`,
        up: `${BASE}/categories/${mid.id}`,
      });
    });

    it('refuses parent on tags after the permission check', async () => {
      const cat = await createCategory({ name: uniq('P') });
      await http()
        .post(TAGS)
        .send({ name: uniq('T'), parent: cat.id })
        .expect(401);
      const res = await http()
        .post(TAGS)
        .set('Authorization', editor())
        .send({ name: uniq('T'), parent: cat.id })
        .expect(400);
      expect(res.body).toEqual(
        wpError(
          400,
          'rest_taxonomy_not_hierarchical',
          'Cannot set parent term, taxonomy is not hierarchical.',
        ),
      );
    });

    it('keeps the language prefix in links and stores the request language', async () => {
      const term = await createTag({ name: uniq('Nyelv') }, '/hu');
      expect(term.urls.self).toBe(`http://cal.test/hu/cal/events/v1/tags/${term.id}`);
      expect(term.url).toBe(`http://cal.test/tag/${term.slug}/`);
      const en = await http().get(`${TAGS}?hide_empty=0&include=${term.id}`).expect(200);
      expect(en.body.tags).toEqual([]);
      const hu = await http().get(`/hu${TAGS}?hide_empty=0&include=${term.id}`).expect(200);
      expect(hu.body.tags.map((t: { id: number }) => t.id)).toEqual([term.id]);
      // Read by id answers any language.
      await http().get(`${TAGS}/${term.id}`).expect(200);
      // Slugs are unique per language only.
      const enTwin = await createTag({ name: term.name });
      expect(enTwin.slug).toBe(term.slug);
    });
  });

  describe('read', () => {
    it('reads a term by id; a term of the other kind or an unknown id is a 400', async () => {
      const cat = await createCategory({ name: uniq('Readable') });
      const tag = await createTag({ name: uniq('Readable') });
      const res = await http().get(`${CATS}/${cat.id}`).expect(200);
      expect(res.body).toEqual(cat);
      expect((await http().get(`${TAGS}/${tag.id}`).expect(200)).body).toEqual(tag);
      expect((await http().get(`${CATS}/${tag.id}`).expect(400)).body).toEqual(invalid('id'));
      expect((await http().get(`${TAGS}/${cat.id}`).expect(400)).body).toEqual(invalid('id'));
      expect((await http().get(`${CATS}/999999`).expect(400)).body).toEqual(invalid('id'));
      await http().get(`${CATS}/0`).expect(400);
      await http().get(`${CATS}/00${cat.id}`).expect(200);
    });

    it('has no by-slug routes and answers non-numeric ids with rest_no_route', async () => {
      const cat = await createCategory({ name: uniq('Slugged') });
      for (const path of [
        `${CATS}/by-slug/${cat.slug}`,
        `${TAGS}/by-slug/${cat.slug}`,
        `${CATS}/abc`,
        `${CATS}/${cat.id}/x`,
      ]) {
        const res = await http().get(path).expect(404);
        expect(res.body).toEqual(
          wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),
        );
      }
      await http().delete(`${CATS}/by-slug/${cat.slug}`).set('Authorization', editor()).expect(404);
      await http().put(CATS).set('Authorization', editor()).send({ name: 'x' }).expect(404);
      // Route matching comes before validation.
      await http().post(`${CATS}/abc`).send({ name: '' }).expect(404);
    });
  });

  describe('update', () => {
    it('changes only the given fields on POST, PUT and PATCH alike', async () => {
      const cat = await createCategory({ name: uniq('Editable'), description: 'Old' });
      const renamed = await http()
        .post(`${CATS}/${cat.id}`)
        .set('Authorization', editor())
        .send({ name: 'Renamed & more' })
        .expect(200);
      expect(renamed.body).toEqual({ ...cat, name: 'Renamed &amp; more' });
      const put = await http()
        .put(`${CATS}/${cat.id}`)
        .set('Authorization', editor())
        .send({ description: '<em>New</em>' })
        .expect(200);
      expect(put.body.description).toBe('<em>New</em>');
      expect(put.body.name).toBe('Renamed &amp; more');
      const patch = await http()
        .patch(`${CATS}/${cat.id}`)
        .set('Authorization', editor())
        .send({ slug: 'Brand New Slug' })
        .expect(200);
      expect(patch.body.slug).toBe('brand-new-slug');
      expect(patch.body.url).toBe('http://cal.test/events/category/brand-new-slug/');
      const tag = await createTag({ name: uniq('EditableTag') });
      const tagPatch = await http()
        .patch(`${TAGS}/${tag.id}`)
        .set('Authorization', editor())
        .type('form')
        .send({ name: 'New tag name' })
        .expect(200);
      expect(tagPatch.body).toEqual({ ...tag, name: 'New tag name' });
    });

    // Regression found by test/fuzz.e2e-spec.ts: null answered 500.
    it('treats null as an absent field, as WordPress does', async () => {
      const tag = await createTag({ name: uniq('NullProof'), slug: null, description: null });
      const res = await http()
        .patch(`${TAGS}/${tag.id}`)
        .set('Authorization', editor())
        .send({ name: null, slug: null, description: 'Given' })
        .expect(200);
      expect(res.body).toEqual({ ...tag, description: 'Given' });
      await http()
        .post(CATS)
        .set('Authorization', editor())
        .send({ name: null })
        .expect(400, /rest_missing_callback_param/);
    });

    it('answers a slug used by another term with duplicate_term_slug', async () => {
      const a = await createTag({ name: uniq('SlugA') });
      const b = await createTag({ name: uniq('SlugB') });
      const res = await http()
        .post(`${TAGS}/${b.id}`)
        .set('Authorization', editor())
        .send({ slug: a.slug })
        .expect(400);
      expect(res.body).toEqual(
        wpError(
          400,
          'duplicate_term_slug',
          `The slug “${a.slug}” is already in use by another term.`,
        ),
      );
      // Its own slug is fine.
      await http()
        .post(`${TAGS}/${b.id}`)
        .set('Authorization', editor())
        .send({ slug: b.slug })
        .expect(200);
    });

    it('validates id and parent before permissions', async () => {
      const tag = await createTag({ name: uniq('Upd') });
      const cat = await createCategory({ name: uniq('Upd') });
      const sub = users.subscriber.header;
      expect(
        (await http().post(`${CATS}/${tag.id}`).set('Authorization', sub).send({}).expect(400))
          .body,
      ).toEqual(invalid('id'));
      expect(
        (
          await http()
            .patch(`${CATS}/999998`)
            .set('Authorization', sub)
            .send({ parent: 999997 })
            .expect(400)
        ).body,
      ).toEqual(invalid('id', 'parent'));
      await http().patch(`${CATS}/${cat.id}`).send({ description: '' }).expect(400);
      await http().patch(`${CATS}/${cat.id}`).send({ name: 'x' }).expect(401);
      await http().put(`${TAGS}/${tag.id}`).set('Authorization', sub).send({}).expect(403);
      await http()
        .put(`${TAGS}/${tag.id}`)
        .set('Authorization', users.author.header)
        .send({ name: 'x' })
        .expect(403);
    });

    it('refuses a parent that would make a cycle', async () => {
      const a = await createCategory({ name: uniq('CycleA') });
      const b = await createCategory({ name: uniq('CycleB'), parent: a.id });
      const c = await createCategory({ name: uniq('CycleC'), parent: b.id });
      for (const parent of [a.id, c.id, b.id]) {
        const res = await http()
          .post(`${CATS}/${a.id}`)
          .set('Authorization', editor())
          .send({ parent })
          .expect(400);
        expect(res.body).toEqual(invalid('parent'));
      }
      const moved = await http()
        .post(`${CATS}/${c.id}`)
        .set('Authorization', editor())
        .send({ parent: a.id })
        .expect(200);
      expect(moved.body.parent).toBe(a.id);
      expect(moved.body.urls.up).toBe(`${BASE}/categories/${a.id}`);
      expect(moved.body.url).toBe(`http://cal.test/events/category/${a.slug}/${c.slug}/`);
    });

    it('refuses parent on a tag update', async () => {
      const tag = await createTag({ name: uniq('NoParent') });
      const res = await http()
        .post(`${TAGS}/${tag.id}`)
        .set('Authorization', editor())
        .send({ parent: 1 })
        .expect(400);
      expect(res.body.code).toBe('rest_taxonomy_not_hierarchical');
    });
  });

  describe('delete', () => {
    it('deletes for good, answers the term as it was, unlinks it and moves children up', async () => {
      const root = await createCategory({ name: uniq('DelRoot') });
      const doomed = await createCategory({ name: uniq('Doomed'), parent: root.id });
      const child = await createCategory({ name: uniq('Orphan'), parent: doomed.id });
      const other = await createCategory({ name: uniq('Kept') });
      const event = await insertEvent({ terms: [doomed.id, other.id] });
      await insertEvent({ status: 'draft', terms: [doomed.id] });

      const res = await http()
        .delete(`${CATS}/${doomed.id}`)
        .set('Authorization', editor())
        .send({ force: false })
        .expect(200);
      expect(res.body).toEqual({ ...doomed, count: 1 });

      const rows = await ds.query('SELECT term_id FROM event_terms WHERE term_id = ?', [doomed.id]);
      expect(rows).toEqual([]);
      const kept = await ds.query('SELECT term_id FROM event_terms WHERE event_id = ?', [event]);
      expect(kept.map((r: { term_id: number | string }) => Number(r.term_id))).toEqual([other.id]);
      const moved = await http().get(`${CATS}/${child.id}`).expect(200);
      expect(moved.body.parent).toBe(root.id);
      expect(moved.body.url).toBe(`http://cal.test/events/category/${root.slug}/${child.slug}/`);

      const again = await http().delete(`${CATS}/${doomed.id}`).set('Authorization', editor());
      expect(again.status).toBe(400);
      expect(again.body).toEqual(invalid('id'));
      await http().get(`${CATS}/${doomed.id}`).expect(400);
    });

    it('deletes tags, after validating the id and the permission', async () => {
      const tag = await createTag({ name: uniq('DelTag') });
      const cat = await createCategory({ name: uniq('DelCat') });
      await http()
        .delete(`${TAGS}/${cat.id}`)
        .set('Authorization', users.subscriber.header)
        .expect(400);
      await http().delete(`${TAGS}/999996`).expect(400);
      await http().delete(`${TAGS}/${tag.id}`).expect(401);
      await http()
        .delete(`${TAGS}/${tag.id}`)
        .set('Authorization', users.author.header)
        .expect(403);
      const res = await http()
        .delete(`${TAGS}/${tag.id}`)
        .set('Authorization', users.administrator.header)
        .expect(200);
      expect(res.body).toEqual(tag);
      await http().get(`${TAGS}/${tag.id}`).expect(400);
    });
  });

  describe('counts', () => {
    it('keeps each count of published events equal to its links through every kind of event write', async () => {
      // What the kept counts (terms.published_count) must equal: the links themselves.
      const drift = async () =>
        (
          await ds.query(
            `SELECT t.id, t.published_count AS kept, (SELECT COUNT(*) FROM event_terms et
               WHERE et.term_id = t.id AND et.event_language = t.language AND et.event_status = 'publish') AS counted
             FROM terms t`,
          )
        ).filter((r: { kept: unknown; counted: unknown }) => Number(r.kept) !== Number(r.counted));
      const events = '/cal/events/v1/events';
      const write = (method: 'post' | 'delete', url: string, body: Record<string, unknown> = {}) =>
        http()[method](url).set('Authorization', editor()).send(body);
      const a = await createCategory({ name: uniq('Kept A') });
      const b = await createCategory({ name: uniq('Kept B') });
      const tag = uniq('kept-tag');
      const event = (title: string, extra: Record<string, unknown> = {}) =>
        write('post', events, {
          title,
          start_date: '2031-03-04 10:00:00',
          end_date: '2031-03-04 11:00:00',
          categories: [a.id],
          tags: [tag],
          ...extra,
        }).expect(201);
      const published = (await event('Kept published')).body;
      const draft = (await event('Kept draft', { status: 'draft' })).body;
      const later = (await event('Kept scheduled', { date: '2999-01-01 00:00:00' })).body;
      expect(later.status).toBe('future');
      expect(await countOf(a.id)).toBe(1);
      expect(await drift()).toEqual([]);

      await write('post', `${events}/${draft.id}`, { status: 'publish' }).expect(200);
      await write('post', `${events}/${published.id}`, { categories: [b.id] }).expect(200);
      expect([await countOf(a.id), await countOf(b.id)]).toEqual([1, 1]);
      await write('post', `${events}/${draft.id}`, {
        status: 'draft',
        categories: [a.id, b.id],
      }).expect(200);
      expect([await countOf(a.id), await countOf(b.id)]).toEqual([0, 1]);
      await write('post', `${events}/${draft.id}`, { status: 'publish', tags: [] }).expect(200);
      expect(await drift()).toEqual([]);

      // Another language: the event leaves the terms' count, and comes back with the term.
      await write('post', `${events}/${published.id}`, { language: 'hu' }).expect(200);
      expect(await countOf(b.id)).toBe(1);
      await write('delete', `${events}/${draft.id}`).expect(200);
      await write('delete', `${events}/${later.id}`).expect(200);
      expect([await countOf(a.id), await countOf(b.id)]).toEqual([0, 0]);
      await http()
        .post(`${CATS}/${b.id}`)
        .set('Authorization', editor())
        .send({ language: 'hu' })
        .expect(200);
      expect(await countOf(b.id, `/hu${CATS}`)).toBe(1);
      expect(await drift()).toEqual([]);
    });

    it('counts published events only, with scheduled ones once their date has passed', async () => {
      const cat = await createCategory({ name: uniq('Counted') });
      await insertEvent({ terms: [cat.id] });
      const future = await insertEvent({
        status: 'future',
        dateUtc: '2000-01-01 00:00:00',
        terms: [cat.id],
      });
      for (const status of ['draft', 'pending', 'private', 'trash']) {
        await insertEvent({ status, terms: [cat.id] });
      }
      await insertEvent({ status: 'future', dateUtc: '2999-01-01 00:00:00', terms: [cat.id] });
      await insertEvent({ status: 'draft', dateUtc: null, terms: [cat.id] });
      expect(await countOf(cat.id)).toBe(2);

      // Later changes of the events show at once.
      await sqlWrite(`UPDATE events SET status = 'draft' WHERE id = ?`, [future]);
      await sqlWrite(`UPDATE event_terms SET event_status = 'draft' WHERE event_id = ?`, [future]);
      expect(await countOf(cat.id)).toBe(1);
      const published = await insertEvent({ terms: [cat.id] });
      expect(await countOf(cat.id)).toBe(2);
      await sqlWrite('DELETE FROM event_terms WHERE event_id = ?', [published]);
      await sqlWrite('DELETE FROM events WHERE id = ?', [published]);
      expect(await countOf(cat.id)).toBe(1);
    });

    it('hides terms without published events by default', async () => {
      const prefix = uniq('Hide');
      const used = await createCategory({ name: `${prefix} used` });
      const draftOnly = await createCategory({ name: `${prefix} draft` });
      const unused = await createCategory({ name: `${prefix} unused` });
      await insertEvent({ terms: [used.id] });
      await insertEvent({ status: 'draft', terms: [draftOnly.id] });
      const ids = (body: { categories: Array<{ id: number }> }) => body.categories.map((c) => c.id);
      const byDefault = await http().get(`${CATS}?search=${prefix}`).expect(200);
      expect(ids(byDefault.body)).toEqual([used.id]);
      expect(byDefault.body.categories[0].count).toBe(1);
      const shown = await http().get(`${CATS}?search=${prefix}&hide_empty=0`).expect(200);
      // Ordered by name: "draft", "unused", "used".
      expect(ids(shown.body)).toEqual([draftOnly.id, unused.id, used.id]);
      const hidden = await http().get(`${CATS}?search=${prefix}&hide_empty=true`).expect(200);
      expect(ids(hidden.body)).toEqual([used.id]);
      const bad = await http().get(`${CATS}?hide_empty=yes`).expect(400);
      expect(bad.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): hide_empty',
        data: {
          status: 400,
          params: { hide_empty: 'hide_empty is not of type boolean.' },
          details: {
            hide_empty: {
              code: 'rest_invalid_type',
              message: 'hide_empty is not of type boolean.',
              data: { param: 'hide_empty' },
            },
          },
        },
      });
    });
  });

  describe('lists', () => {
    let prefix: string;
    let terms: Array<{ id: number; name: string; slug: string }>;

    beforeAll(async () => {
      // Seven tags named out of id order, each with a different number of published events.
      prefix = uniq('Lst');
      terms = [];
      for (const [i, word] of [
        'delta',
        'Alpha',
        'echo',
        'charlie',
        'Bravo',
        'golf',
        'foxtrot',
      ].entries()) {
        const tag = await createTag({
          name: `${prefix} ${word}`,
          description: `${7 - i} description`,
        });
        terms.push(tag);
        for (let n = 0; n <= i % 3; n++) await insertEvent({ terms: [tag.id] });
      }
    });

    const list = (query: string) => http().get(`${TAGS}?search=${prefix}&hide_empty=0&${query}`);
    const namesOf = (body: { tags: Array<{ name: string }> }) =>
      body.tags.map((t) => t.name.slice(prefix.length + 1));

    it('has the term envelope, totals, headers and links', async () => {
      const res = await list('per_page=3&page=2').expect(200);
      expect(Object.keys(res.body)).toEqual([
        'rest_url',
        'total',
        'total_pages',
        'tags',
        'next_rest_url',
        'previous_rest_url',
      ]);
      expect(res.body.total).toBe(7);
      expect(res.body.total_pages).toBe(3);
      expect(res.headers['x-tec-total']).toBe('7');
      expect(res.headers['x-tec-totalpages']).toBe('3');
      expect(namesOf(res.body)).toEqual(['delta', 'echo', 'foxtrot']);
      const self = new URL(res.body.rest_url);
      expect(self.origin + self.pathname).toBe(`${BASE}/tags/`);
      expect(Object.fromEntries(self.searchParams)).toEqual({
        search: prefix,
        hide_empty: '0',
        page: '2',
        per_page: '3',
      });
      expect(new URL(res.body.next_rest_url).searchParams.get('page')).toBe('3');
      const previous = new URL(res.body.previous_rest_url);
      expect(previous.searchParams.has('page')).toBe(false);
      expect(previous.searchParams.get('search')).toBe(prefix);
      // Following the links works (trailing slash before the query).
      const next = await http()
        .get(res.body.next_rest_url.replace('http://cal.test', ''))
        .expect(200);
      expect(namesOf(next.body)).toEqual(['golf']);
      expect(next.body.next_rest_url).toBeUndefined();
    });

    it('answers a page past the last with 200, an empty list and a previous link', async () => {
      const res = await list('per_page=3&page=9').expect(200);
      expect(res.body.tags).toEqual([]);
      expect(res.body.total).toBe(7);
      expect(res.body.total_pages).toBe(3);
      expect(new URL(res.body.previous_rest_url).searchParams.get('page')).toBe('8');
      expect(res.body.next_rest_url).toBeUndefined();
      const none = await http().get(`${TAGS}?search=nothing-matches-this`).expect(200);
      expect(none.body).toEqual({
        rest_url: expect.any(String),
        total: 0,
        total_pages: 0,
        tags: [],
      });
      expect(none.headers['x-tec-total']).toBe('0');
      expect(none.headers['x-tec-totalpages']).toBe('0');
    });

    it('validates page and per_page, clamping per_page to 50', async () => {
      for (const q of ['page=0', 'per_page=0', 'page=foo', 'per_page=-1']) {
        await list(q).expect(400);
      }
      const res = await list('per_page=500').expect(200);
      expect(new URL(res.body.rest_url).searchParams.get('per_page')).toBe('50');
    });

    it.each([
      ['', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']],
      ['order=DESC', ['golf', 'foxtrot', 'echo', 'delta', 'charlie', 'Bravo', 'Alpha']],
      ['order=whatever', ['golf', 'foxtrot', 'echo', 'delta', 'charlie', 'Bravo', 'Alpha']],
      ['orderby=id', ['delta', 'Alpha', 'echo', 'charlie', 'Bravo', 'golf', 'foxtrot']],
      [
        'orderby=term_id&order=desc',
        ['foxtrot', 'golf', 'Bravo', 'charlie', 'echo', 'Alpha', 'delta'],
      ],
      ['orderby=slug', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']],
      ['orderby=description', ['foxtrot', 'golf', 'Bravo', 'charlie', 'echo', 'Alpha', 'delta']],
      // counts 1,2,3,1,2,3,1; ties by id ascending
      ['orderby=count', ['delta', 'charlie', 'foxtrot', 'Alpha', 'Bravo', 'echo', 'golf']],
      [
        'orderby=count&order=desc',
        ['echo', 'golf', 'Alpha', 'Bravo', 'delta', 'charlie', 'foxtrot'],
      ],
      ['orderby=none', ['delta', 'Alpha', 'echo', 'charlie', 'Bravo', 'golf', 'foxtrot']],
      [
        'orderby=term_group&order=desc',
        ['delta', 'Alpha', 'echo', 'charlie', 'Bravo', 'golf', 'foxtrot'],
      ],
      ['orderby=parent', ['delta', 'Alpha', 'echo', 'charlie', 'Bravo', 'golf', 'foxtrot']],
      ['orderby=include_slugs', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']],
      ['orderby=include', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']],
      ['orderby=nonsense', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']],
    ])('sorts with %s', async (query, expected) => {
      const res = await list(`per_page=50&${query}`).expect(200);
      expect(namesOf(res.body)).toEqual(expected);
    });

    it('includes and excludes by id, id, slug or name; include can order', async () => {
      const [delta, alpha, echo] = terms;
      const include = await list(`include=${echo.id},${delta.id}&orderby=include`).expect(200);
      expect(namesOf(include.body)).toEqual(['echo', 'delta']);
      const reversed = await list(
        `include[]=${echo.id}&include[]=${delta.id}&orderby=include&order=desc`,
      ).expect(200);
      expect(namesOf(reversed.body)).toEqual(['delta', 'echo']);
      const exclude = await list(`exclude=${alpha.id},${encodeURIComponent(echo.slug)}`).expect(
        200,
      );
      expect(namesOf(exclude.body)).toEqual([
        'Bravo',
        'charlie',
        'delta',
        'echo',
        'foxtrot',
        'golf',
      ]);
      // Slugs and names pass validation but select nothing.
      const bySlug = await list(`include=${encodeURIComponent(delta.slug)}`).expect(200);
      expect(bySlug.body.tags).toEqual([]);
      await list(`include=${encodeURIComponent(`${prefix} delta`)}`).expect(200);
    });

    it('rejects include/exclude items that are not terms of this kind', async () => {
      const cat = await createCategory({ name: uniq('WrongKind') });
      expect((await list(`include=${cat.id}`).expect(400)).body).toEqual(invalid('include'));
      expect((await list(`exclude=999995`).expect(400)).body).toEqual(invalid('exclude'));
      expect((await list(`include=no-such-term&exclude=nope`).expect(400)).body).toEqual(
        invalid('exclude', 'include'),
      );
      await list('include=').expect(400);
    });

    it('filters by search (name or slug, case-insensitive) and exact slug', async () => {
      const res = await http()
        .get(`${TAGS}?hide_empty=0&search=${prefix.toUpperCase()}%20ALP`)
        .expect(200);
      expect(namesOf(res.body)).toEqual(['Alpha']);
      const bySlugPart = await http()
        .get(`${TAGS}?hide_empty=0&search=${prefix.toLowerCase()}-ech`)
        .expect(200);
      expect(namesOf(bySlugPart.body)).toEqual(['echo']);
      const wildcard = await http().get(`${TAGS}?hide_empty=0&search=%25`).expect(200);
      expect(wildcard.body.tags).toEqual([]);
      const slug = await http().get(`${TAGS}?hide_empty=0&slug=${terms[3].slug}`).expect(200);
      expect(namesOf(slug.body)).toEqual(['charlie']);
      const unknown = await http().get(`${TAGS}?slug=no-such-slug`).expect(200);
      expect(unknown.body.tags).toEqual([]);
      for (const q of ['search=', 'slug=', 'order=', 'orderby=']) {
        await http().get(`${TAGS}?${q}`).expect(400);
      }
    });

    it('filters by post, with event as an alias that wins', async () => {
      const [delta, alpha] = terms;
      const first = await insertEvent({ terms: [delta.id, alpha.id] });
      const second = await insertEvent({ terms: [alpha.id] });
      const byPost = await list(`post=${first}`).expect(200);
      expect(namesOf(byPost.body)).toEqual(['Alpha', 'delta']);
      const byEvent = await list(`post=${first}&event=${second}`).expect(200);
      expect(namesOf(byEvent.body)).toEqual(['Alpha']);
      expect(new URL(byEvent.body.rest_url).searchParams.get('event')).toBe(String(second));
      const venue = await insertEvent({ kind: 'venue' });
      expect((await list(`post=${venue}`).expect(400)).body).toEqual(invalid('post'));
      expect((await list(`event=999994`).expect(400)).body).toEqual(invalid('event'));
      expect((await list(`post=foo&event=0`).expect(400)).body).toEqual(invalid('post', 'event'));
      // A draft event's terms are listed only when empty terms are not hidden.
      const draft = await insertEvent({ status: 'draft', terms: [terms[2].id] });
      const withDraft = await http().get(`${TAGS}?event=${draft}`).expect(200);
      expect(namesOf(withDraft.body)).toEqual(['echo']);
    });

    it('filters categories by parent; tags ignore parent', async () => {
      const parent = await createCategory({ name: uniq('Parent') });
      const a = await createCategory({ name: uniq('ChildA'), parent: parent.id });
      const b = await createCategory({ name: uniq('ChildB'), parent: parent.id });
      await createCategory({ name: uniq('Grandchild'), parent: a.id });
      const res = await http().get(`${CATS}?hide_empty=0&parent=${parent.id}`).expect(200);
      expect(res.body.categories.map((c: { id: number }) => c.id)).toEqual([a.id, b.id]);
      expect(new URL(res.body.rest_url).searchParams.get('parent')).toBe(String(parent.id));
      for (const value of ['0', '', 'foo', '999993', String(terms[0].id)]) {
        const bad = await http().get(`${CATS}?parent=${value}`).expect(400);
        expect(bad.body).toEqual(invalid('parent'));
      }
      const tags = await list(`parent=${parent.id}`).expect(200);
      expect(tags.body.total).toBe(7);
      expect(new URL(tags.body.rest_url).searchParams.has('parent')).toBe(false);
    });

    it('lists only terms of the request language', async () => {
      const hu = await createTag({ name: `${prefix} magyar` }, '/hu');
      const en = await list('per_page=50').expect(200);
      expect(en.body.tags.map((t: { id: number }) => t.id)).not.toContain(hu.id);
      const huList = await http().get(`/hu${TAGS}?search=${prefix}&hide_empty=0`).expect(200);
      expect(huList.body.tags.map((t: { id: number }) => t.id)).toEqual([hu.id]);
      expect(huList.body.rest_url.startsWith('http://cal.test/hu/cal/events/v1/tags/?')).toBe(true);
      const ro = await http()
        .get(`${TAGS}?search=${prefix}&hide_empty=0&i18n_language=ro`)
        .expect(200);
      expect(ro.body.total).toBe(0);
    });

    it('loads a page in a constant number of queries, whatever the page and its size', async () => {
      const base = uniq('Nplus');
      const root = await createCategory({ name: `${base} root` });
      for (let i = 0; i < 50; i++) {
        const cat = await createCategory({
          name: `${base} ${String(i).padStart(2, '0')}`,
          parent: root.id,
        });
        await insertEvent({ terms: [cat.id] });
      }
      const event = await insertEvent({ terms: [root.id] });
      const queriesFor = async (perPage: number, page = 1) => {
        const spy = vi.spyOn(ds.logger, 'logQuery');
        try {
          // Cold: list totals are cached until the next write.
          await coldCaches(app);
          const res = await http()
            .get(
              `${CATS}?search=${base}&per_page=${perPage}&orderby=count&include=${root.id},${base}%2000&exclude=${root.id}`,
            )
            .expect(200);
          expect(res.body.categories.length).toBeLessThanOrEqual(perPage);
          await coldCaches(app);
          const all = await http()
            .get(`${CATS}?search=${base}&per_page=${perPage}&event=${event}`)
            .expect(200);
          expect(all.body.total).toBe(1);
          await coldCaches(app);
          const plain = await http()
            .get(`${CATS}?search=${base}&per_page=${perPage}&page=${page}`)
            .expect(200);
          expect(plain.body.categories).toHaveLength(perPage);
          if (page === 1)
            expect(plain.body.categories[1].url).toMatch(
              /\/events\/category\/nplus\d+x-root\/nplus/,
            );
          return ownQueries(spy).length;
        } finally {
          spy.mockRestore();
        }
      };
      const five = await queriesFor(5);
      expect(await queriesFor(50)).toBe(five);
      expect(await queriesFor(5, 3)).toBe(five);
      expect(await queriesFor(5, 10)).toBe(five);
    });
  });

  describe('service for the events module', () => {
    let terms: EventTermLinks;
    beforeAll(() => {
      terms = app.get(EventTermLinks);
    });
    const ctx = { siteUrl: 'http://cal.test', restBase: BASE };

    it('embeds terms of many events in one query and their counts in one more, in the embedded form', async () => {
      const parent = await createCategory({ name: uniq('EmbParent') });
      const cat = await createCategory({ name: 'Zulu embedded', parent: parent.id });
      const cat2 = await createCategory({ name: 'Able embedded' });
      const tag = await createTag({ name: uniq('EmbTag'), description: 'Tag <em>d</em>' });
      const e1 = await insertEvent({ terms: [cat.id, tag.id, cat2.id] });
      const e2 = await insertEvent({ status: 'draft', terms: [cat.id] });
      const e3 = await insertEvent();
      const spy = vi.spyOn(ds.logger, 'logQuery');
      const map = await terms.embeddedTermsForEvents([e1, e2, e3], ctx);
      // The terms, then the counts of the terms not cached.
      expect(ownQueries(spy).length).toBe(2);
      spy.mockClear();
      // Counts are cached until the next write.
      expect(await terms.embeddedTermsForEvents([e1, e2, e3], ctx as never)).toEqual(map);
      expect(ownQueries(spy).length).toBe(1);
      spy.mockRestore();
      expect(map.get(e3)).toEqual({ categories: [], tags: [] });
      expect(map.get(e2)!.categories.map((c) => c.id)).toEqual([cat.id]);
      const first = map.get(e1)!;
      expect(first.categories.map((c) => c.id)).toEqual([cat2.id, cat.id]);
      expect(first.categories[1]).toEqual({
        name: 'Zulu embedded',
        slug: cat.slug,
        term_group: 0,
        term_taxonomy_id: cat.id,
        taxonomy: 'cal_events_cat',
        description: '',
        parent: parent.id,
        count: 1,
        filter: 'raw',
        id: cat.id,
        urls: {
          self: `${BASE}/categories/${cat.id}`,
          collection: `${BASE}/categories`,
          up: `${BASE}/categories/${parent.id}`,
        },
      });
      expect(Object.keys(first.tags[0])).toEqual([
        'name',
        'slug',
        'term_group',
        'term_taxonomy_id',
        'taxonomy',
        'description',
        'parent',
        'count',
        'filter',
        'id',
        'urls',
      ]);
      expect(first.tags[0]).toMatchObject({
        parent: 0,
        taxonomy: 'post_tag',
        description: 'Tag <em>d</em>',
      });
      expect((await terms.embeddedTermsForEvents([], ctx as never)).size).toBe(0);
    });

    it('validates write items', () => {
      expect(terms.validateWriteItems('tags', 'a, b ,,3')).toEqual(['a', 'b', 3]);
      expect(terms.validateWriteItems('tags', ['x', 4, ' 5 '])).toEqual(['x', 4, 5]);
      expect(terms.validateWriteItems('tags', '')).toEqual([]);
      expect(terms.validateWriteItems('tags', [])).toEqual([]);
      expect(() => terms.validateWriteItems('categories', [{ name: 'X' }])).toThrow(
        expect.objectContaining({
          code: 'rest_invalid_param',
          data: expect.objectContaining({ params: { categories: expect.anything() } }),
        }),
      );
      expect(() => terms.validateWriteItems('tags', [['a']])).toThrow();
      expect(() => terms.validateWriteItems('tags', [null])).toThrow();
      expect(() => terms.validateWriteItems('tags', true)).toThrow();
    });

    it('resolves write items, creating missing terms inside the transaction', async () => {
      const existing = await createTag({ name: uniq('Existing') });
      const cat = await createCategory({ name: uniq('NotATag') });
      const newName = uniq('Brand new');
      const ids = await app
        .get(Writes)
        .run((scope) =>
          terms.resolveForWrite(
            'tag',
            [
              existing.id,
              cat.id,
              999992,
              existing.slug,
              existing.name.toUpperCase(),
              newName,
              newName.toLowerCase(),
              'Tom & Jerry',
            ],
            'en',
            scope,
          ),
        );
      expect(ids[0]).toBe(existing.id);
      expect(ids).toHaveLength(3);
      const created = await http().get(`${TAGS}/${ids[1]}`).expect(200);
      expect(created.body).toMatchObject({ name: newName, count: 0, taxonomy: 'post_tag' });
      const tom = await http().get(`${TAGS}/${ids[2]}`).expect(200);
      expect(tom.body).toMatchObject({ name: 'Tom &amp; Jerry', slug: 'tom-jerry' });
      // Resolving again finds them by name.
      const again = await app
        .get(Writes)
        .run((scope) => terms.resolveForWrite('tag', ['tom & jerry'], 'en', scope));
      expect(again).toEqual([ids[2]]);
      // Nothing is written when the caller's transaction fails.
      const rolledBack = uniq('Rolled back');
      await expect(
        app.get(Writes).run(async (scope) => {
          await terms.resolveForWrite('category', [rolledBack], 'en', scope);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const search = await http()
        .get(`${CATS}?hide_empty=0&search=${encodeURIComponent(rolledBack)}`)
        .expect(200);
      expect(search.body.total).toBe(0);
    });

    it('resolves list filters: slug, then id, then name; categories with descendants', async () => {
      const root = await createCategory({ name: uniq('FilterRoot') });
      const child = await createCategory({ name: uniq('FilterChild'), parent: root.id });
      const grandchild = await createCategory({ name: uniq('FilterGrand'), parent: child.id });
      // A slug unlike the name, so that the name alone matches only by name.
      const other = await createCategory({ name: uniq('FilterOther'), slug: uniq('elsewhere') });
      const tag = await createTag({ name: uniq('FilterTag') });
      expect((await terms.resolveFilter('category', [root.slug], 'en'))!.sort(byNumber)).toEqual(
        [root.id, child.id, grandchild.id].sort(byNumber),
      );
      expect(await terms.resolveFilter('category', [other.id], 'en')).toEqual([other.id]);
      expect(await terms.resolveFilter('category', [String(other.id)], 'en')).toEqual([other.id]);
      expect(await terms.resolveFilter('category', [other.name], 'en')).toEqual([]);
      expect(await terms.resolveFilter('category', [other.slug, 'nope'], 'en')).toBeNull();
      expect(await terms.resolveFilter('category', [tag.id], 'en')).toBeNull();
      expect(await terms.resolveFilter('tag', [tag.slug, tag.id], 'en')).toEqual([tag.id]);
      expect(await terms.resolveFilter('tag', [tag.slug], 'hu')).toBeNull();
    });

    it('replaces the terms of one taxonomy of an event', async () => {
      const cat = await createCategory({ name: uniq('SetCat') });
      const tag = await createTag({ name: uniq('SetTag') });
      const tag2 = await createTag({ name: uniq('SetTag') });
      const event = await insertEvent({ terms: [cat.id, tag.id] });
      const events = app.get(EventsRepository);
      await ds.transaction((manager) =>
        events.setTerms(manager, event, 'post_tag', [tag2.id, tag2.id]),
      );
      const map = await terms.embeddedTermsForEvents([event], ctx);
      expect(map.get(event)!.categories.map((c) => c.id)).toEqual([cat.id]);
      expect(map.get(event)!.tags.map((t) => t.id)).toEqual([tag2.id]);
      await ds.transaction((manager) => events.setTerms(manager, event, 'cal_events_cat', []));
      expect((await terms.embeddedTermsForEvents([event], ctx as never)).get(event)).toMatchObject({
        categories: [],
      });
    });
  });
});
