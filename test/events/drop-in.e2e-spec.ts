import { createRoleUsers } from '../helpers/auth.js';
import { postEvent, useAppPerTest, useTestApp } from '../helpers/app-fixture.js';
import { wpError } from '../helpers/wp-error.js';

const SITE = 'http://cal.test';
const CAL = '/cal/events/v1';
const TRIBE = '/wp-json/tribe/events/v1';
const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';
const DISCOVERY = `<${SITE}/wp-json/>; rel="https://api.w.org/"`;

type Body = Record<string, unknown>;

/**
 * A client of the plugin works against the service with only its site address changed.
 * The plugin's namespace at WordPress's REST root (`/wp-json/tribe/events/v1`, with the plugin's
 * names), WordPress discovery (`/wp-json/`, `?rest_route=`, the `Link` header, `rest_no_route` for
 * every unknown path) and the plugin's tolerance of inline venues/organizers and image ids.
 */
describe('drop-in for the plugin clients (e2e)', () => {
  const { http, users } = useTestApp();
  const editor = () => users.editor.header;
  /** A `method` request on `path` as the editor. */
  const asEditor = (method: 'post' | 'put' | 'patch' | 'delete', path: string) =>
    http()[method](path).set('Authorization', editor());

  const seed = { events: [] as Body[], venueId: 0, organizerId: 0, categoryId: 0, tagId: 0 };

  beforeAll(async () => {
    for (const [i, title] of ['Jazz night', 'Folk evening', 'Opera gala'].entries()) {
      const res = await postEvent(http, editor(), {
        title,
        start_date: `2030-05-0${i + 1} 19:00`,
        end_date: `2030-05-0${i + 1} 22:00`,
        categories: ['Concerts'],
        tags: ['live'],
        venue: { venue: 'Drop-in Hall', city: 'Sopron' },
        organizer: [{ organizer: 'Drop-in Org', email: 'org@example.org' }],
        cost: '10',
      }).expect(201);
      seed.events.push(res.body as Body);
    }
    const first = seed.events[0] as {
      venue: { id: number };
      organizer: Array<{ id: number }>;
      categories: Array<{ id: number }>;
      tags: Array<{ id: number }>;
    };
    seed.venueId = first.venue.id;
    seed.organizerId = first.organizer[0].id;
    seed.categoryId = first.categories[0].id;
    seed.tagId = first.tags[0].id;
  });

  describe('the plugin namespace at /wp-json/tribe/events/v1', () => {
    it('lists events with the plugin links: rest_url, next_rest_url, previous_rest_url', async () => {
      const res = await http().get(`${TRIBE}/events?${WINDOW}&per_page=1&page=2`).expect(200);
      expect(res.body.events).toHaveLength(1);
      for (const key of ['rest_url', 'next_rest_url', 'previous_rest_url']) {
        expect(res.body[key]).toMatch(new RegExp(`^${SITE}/wp-json/tribe/events/v1/events/\\?`));
      }
      expect(res.body.events[0].rest_url).toBe(
        `${SITE}/wp-json/tribe/events/v1/events/${res.body.events[0].id}`,
      );
      expect(res.headers['x-tec-total']).toBe('3');
      // A client follows the links as given.
      const next = await http().get(res.body.next_rest_url.slice(SITE.length)).expect(200);
      expect(next.body.events[0].id).not.toBe(res.body.events[0].id);
      expect(next.body.previous_rest_url).toMatch(/\/wp-json\/tribe\/events\/v1\/events\/\?/);
      // Unchanged under our own namespace.
      const own = await http().get(`${CAL}/events?${WINDOW}&per_page=1&page=2`).expect(200);
      expect(own.body.next_rest_url).toMatch(new RegExp(`^${SITE}/cal/events/v1/events/\\?`));
    });

    it('answers the namespace index of tribe/events/v1', async () => {
      const res = await http().get(TRIBE).expect(200);
      expect(res.body.namespace).toBe('tribe/events/v1');
      const routes = Object.keys(res.body.routes);
      expect(routes).toContain('/tribe/events/v1/events');
      expect(routes).toContain('/tribe/events/v1/venues/(?P<id>\\d+)');
      expect(routes.every((r) => r.startsWith('/tribe/events/v1'))).toBe(true);
      expect(res.body.routes['/tribe/events/v1/events'].namespace).toBe('tribe/events/v1');
      expect(res.body.routes['/tribe/events/v1/events']._links.self[0].href).toBe(
        `${SITE}/wp-json/tribe/events/v1/events`,
      );
      expect(res.body._links.up[0].href).toBe(`${SITE}/wp-json/`);
      await http().get(`${TRIBE}?namespace=tribe/events/v1`).expect(200);
      // Our own index is unchanged.
      const own = await http().get(CAL).expect(200);
      expect(own.body.namespace).toBe('cal/events/v1');
      expect(Object.keys(own.body.routes).every((r) => r.startsWith('/cal/events/v1'))).toBe(true);
    });

    it("uses the plugin's taxonomy and post type names, and ours under cal/events/v1", async () => {
      const id = (seed.events[0] as { id: number }).id;
      const tribe = (await http().get(`${TRIBE}/events/${id}`).expect(200)).body;
      expect(tribe.categories[0].taxonomy).toBe('tribe_events_cat');
      expect(tribe.categories[0].urls.self).toBe(
        `${SITE}/wp-json/tribe/events/v1/categories/${seed.categoryId}`,
      );
      expect(tribe.tags[0].taxonomy).toBe('post_tag');
      const cal = (await http().get(`${CAL}/events/${id}`).expect(200)).body;
      expect(cal.categories[0].taxonomy).toBe('cal_events_cat');
      const terms = (await http().get(`${TRIBE}/categories`).expect(200)).body;
      expect(terms.categories[0].taxonomy).toBe('tribe_events_cat');
      const term = (await http().get(`${TRIBE}/categories/${seed.categoryId}`).expect(200)).body;
      expect(term.taxonomy).toBe('tribe_events_cat');

      // Draft records link their page in the query form, with the plugin's post types.
      const draft = (
        await postEvent(
          http,
          editor(),
          {
            title: 'Draft at the alias',
            status: 'draft',
            start_date: '2030-06-01 10:00',
            end_date: '2030-06-01 11:00',
            venue: { venue: 'Draft Hall', status: 'draft' },
            organizer: [{ organizer: 'Draft Org', status: 'draft' }],
          },
          TRIBE,
        ).expect(201)
      ).body;
      expect(draft.url).toBe(`${SITE}/?post_type=tribe_events&p=${draft.id}`);
      expect(draft.website).toBe(draft.url);
      expect(draft.rest_url).toBe(`${SITE}/wp-json/tribe/events/v1/events/${draft.id}`);
      expect(draft.venue.url).toBe(`${SITE}/?post_type=tribe_venue&p=${draft.venue.id}`);
      expect(draft.organizer[0].url).toBe(
        `${SITE}/?post_type=tribe_organizer&p=${draft.organizer[0].id}`,
      );
      const own = (
        await http().get(`${CAL}/events/${draft.id}`).set('Authorization', editor()).expect(200)
      ).body;
      expect(own.url).toBe(`${SITE}/?post_type=cal_events&p=${draft.id}`);
      expect(own.venue.url).toBe(`${SITE}/?post_type=cal_venue&p=${draft.venue.id}`);
      expect(JSON.stringify(own)).not.toContain('tribe');
    });

    it('serves every route and method under the alias: venues, organizers, tags, by slug', async () => {
      const venue = (await http().get(`${TRIBE}/venues/${seed.venueId}`).expect(200)).body;
      expect(venue.venue).toBe('Drop-in Hall');
      await http().get(`${TRIBE}/venues/by-slug/${venue.slug}`).expect(200);
      await http().get(`${TRIBE}/organizers/${seed.organizerId}`).expect(200);
      await http().get(`${TRIBE}/tags/${seed.tagId}`).expect(200);
      await http().get(`${TRIBE}/events/by-slug/jazz-night`).expect(200);
      const tag = await asEditor('post', `${TRIBE}/tags`).send({ name: 'alias tag' }).expect(201);
      expect(tag.body.urls.self).toBe(`${SITE}/wp-json/tribe/events/v1/tags/${tag.body.id}`);
      expect(tag.headers.location).toBe(tag.body.urls.self);
      await asEditor('put', `${TRIBE}/tags/${tag.body.id}`).send({ description: 'x' }).expect(200);
      await asEditor('delete', `${TRIBE}/tags/${tag.body.id}`).expect(200);
      const organizer = await asEditor('post', `${TRIBE}/organizers`)
        .send({ organizer: 'Alias Org' })
        .expect(201);
      await asEditor('patch', `${TRIBE}/organizers/${organizer.body.id}`)
        .send({ phone: '123' })
        .expect(200);
      const trashed = await asEditor('delete', `${TRIBE}/organizers/${organizer.body.id}`).expect(
        200,
      );
      expect(trashed.body.status).toBe('trash');
    });

    it('takes language prefixes before and after /wp-json', async () => {
      const id = (seed.events[1] as { id: number }).id;
      const before = await http().get(`/hu/wp-json/tribe/events/v1/events/${id}`).expect(200);
      expect(before.body.rest_url).toBe(`${SITE}/wp-json/hu/tribe/events/v1/events/${id}`);
      const after = await http().get(`/wp-json/hu/tribe/events/v1/events/${id}`).expect(200);
      expect(after.body.rest_url).toBe(before.body.rest_url);
      const missing = await http().get('/hu/wp-json/tribe/events/v1/events/999999').expect(404);
      expect(missing.body.code).toBe('rest-event-not-found');
      expect(missing.body.message).toBe('Nem létezik 999999 azonosítójú esemény.');
      const ro = await http().get('/wp-json/ro/tribe/events/v1/events/999999').expect(404);
      expect(ro.body.message).not.toBe(missing.body.message);
    });

    it('describes the plugin namespace in /doc and in the Swagger UI', async () => {
      const tribe = (await http().get(`${TRIBE}/doc`).expect(200)).body;
      const cal = (await http().get(`${CAL}/doc`).expect(200)).body;
      expect(tribe.servers).toEqual([{ url: `${SITE}/wp-json/tribe/events/v1/` }]);
      // Everything but the service's own webhooks, users and recurrence preview, which are not
      // the plugin's (CONTRACT §2, §8, §9).
      expect(Object.keys(tribe.paths)).toEqual(
        Object.keys(cal.paths).filter((path) => !/^\/(webhooks|users|recurrence)(\/|$)/.test(path)),
      );
      expect(JSON.stringify(tribe)).not.toContain('cal/events/v1');
      expect(tribe.paths['/'].get.parameters[0].schema.default).toBe('tribe/events/v1');
      const hu = (await http().get(`/hu${TRIBE}/doc`).expect(200)).body;
      expect(hu.servers).toEqual([{ url: `${SITE}/wp-json/hu/tribe/events/v1/` }]);

      const ui = await http().get(`/hu${TRIBE}/doc/ui/`).expect(200);
      expect(ui.headers['content-type']).toMatch(/text\/html/);
      expect(ui.text).toContain('<html lang="hu">');
      expect(ui.text).toContain('<title>tribe/events/v1</title>');
      const init = await http().get(`${TRIBE}/doc/ui/swagger-ui-init.js`).expect(200);
      expect(init.text).toContain(`${SITE}/wp-json/tribe/events/v1/`);
      expect(init.text).not.toContain('cal/events/v1');
    });
  });

  describe('WordPress REST discovery', () => {
    it('answers the WordPress REST index at /wp-json/ with both namespaces', async () => {
      const res = await http().get('/wp-json/').expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(res.body).toMatchObject({
        name: 'The Events Calendar REST API',
        url: SITE,
        home: SITE,
        gmt_offset: 0,
        timezone_string: 'UTC',
        namespaces: ['tribe/events/v1', 'cal/events/v1'],
        authentication: { 'application-passwords': expect.any(Object) },
      });
      expect(typeof res.body.description).toBe('string');
      const routes = res.body.routes as Record<string, { namespace: string; _links?: unknown }>;
      expect(routes['/'].namespace).toBe('');
      expect(routes['/tribe/events/v1'].namespace).toBe('tribe/events/v1');
      expect(routes['/tribe/events/v1/events']._links).toEqual({
        self: [{ href: `${SITE}/wp-json/tribe/events/v1/events` }],
      });
      expect(routes['/cal/events/v1/tags/(?P<id>\\d+)'].namespace).toBe('cal/events/v1');
      expect(routes['/cal/events/v1/events']._links).toEqual({
        self: [{ href: `${SITE}/wp-json/cal/events/v1/events` }],
      });
      // Every route of the index answers.
      await http().get('/wp-json/cal/events/v1/events').expect(200);
      await http().get('/wp-json').expect(200);
      const hu = await http().get('/hu/wp-json/').expect(200);
      expect(hu.body.description).not.toBe(res.body.description);
      expect(hu.body.routes['/tribe/events/v1/events']._links.self[0].href).toBe(
        `${SITE}/wp-json/hu/tribe/events/v1/events`,
      );
    });

    it('answers ?rest_route= like the pretty path, for every route and method', async () => {
      const id = (seed.events[2] as { id: number }).id;
      for (const path of [
        `/tribe/events/v1/events?${WINDOW}&per_page=2`,
        `/tribe/events/v1/events/${id}`,
        `/tribe/events/v1/events/by-slug/opera-gala`,
        `/tribe/events/v1/venues`,
        `/tribe/events/v1/venues/${seed.venueId}`,
        `/tribe/events/v1/organizers/${seed.organizerId}`,
        `/tribe/events/v1/categories`,
        `/tribe/events/v1/tags/${seed.tagId}`,
        '/tribe/events/v1',
        `/cal/events/v1/events/${id}`,
        '/cal/events/v1/events/999999',
      ]) {
        const [route, query] = path.split('?');
        const form = `/?rest_route=${encodeURIComponent(route)}${query ? `&${query}` : ''}`;
        // The WordPress form is WordPress's REST root: links name /wp-json (both namespaces).
        const pretty = `/wp-json${path}`;
        const a = await http().get(form);
        const b = await http().get(pretty);
        expect([form, a.status]).toEqual([form, b.status]);
        expect(a.body).toEqual(b.body);
      }
      // The index, /index.php and an unencoded route.
      expect((await http().get('/?rest_route=/').expect(200)).body.namespaces).toHaveLength(2);
      await http()
        .get('/index.php?rest_route=/tribe/events/v1/events/' + id)
        .expect(200);
      await http().get('/?rest_route=/nope').expect(404);

      // Writes: create, update (POST, PUT, PATCH), delete.
      const created = await asEditor('post', '/?rest_route=/tribe/events/v1/events')
        .send({
          title: 'Plain permalinks',
          start_date: '2030-07-01 10:00',
          end_date: '2030-07-01 11:00',
        })
        .expect(201);
      expect(created.body.rest_url).toBe(
        `${SITE}/wp-json/tribe/events/v1/events/${created.body.id}`,
      );
      const route = `/?rest_route=/tribe/events/v1/events/${created.body.id}`;
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await asEditor(method, route).send({ excerpt: method }).expect(200);
        expect(res.body.excerpt).toBe(`<p>${method}</p>`);
      }
      await asEditor('post', `/?rest_route=/tribe/events/v1/events/by-slug/${created.body.slug}`)
        .type('form')
        .send({ featured: 'true' })
        .expect(200);
      const deleted = await asEditor('delete', route).expect(200);
      expect(deleted.body.status).toBe('trash');
      expect((await asEditor('delete', route)).status).toBe(410);
    });

    it('sends the discovery Link header on every answer, errors included', async () => {
      for (const [method, path] of [
        ['get', `${TRIBE}/events`],
        ['get', `${CAL}/events`],
        ['get', '/wp-json/'],
        ['get', `${CAL}/doc`],
        ['get', '/nope'],
        ['post', `${CAL}/events`],
      ] as const) {
        const res = await http()[method](path);
        expect([path, res.headers.link]).toEqual([path, DISCOVERY]);
      }
      const broken = await http()
        .post(`${TRIBE}/events`)
        .set('Content-Type', 'application/json')
        .send('{"title":');
      expect(broken.status).toBe(400);
      expect(broken.headers.link).toBe(DISCOVERY);
      // Browser clients may read it.
      const cors = await http().get(`${TRIBE}/events`).set('Origin', 'https://client.example');
      expect(cors.headers['access-control-expose-headers']).toContain('Link');
    });

    it('answers unknown paths with rest_no_route, localized, never an HTML page', async () => {
      for (const [method, path] of [
        ['get', '/nope'],
        ['get', '/wp-json/wp/v2/posts'],
        ['get', '/wp-json/tribe/events/v2/events'],
        ['get', '/wp-json/tribe/events/v1/nope'],
        ['post', `${TRIBE}/doc`],
        ['delete', `${TRIBE}/events`],
        ['put', '/wp-json/'],
        ['get', '/wp-admin/authorize-application.php'],
        ['patch', '/nope/deeper'],
      ] as const) {
        const res = await http()[method](path);
        expect([method, path, res.status, res.body.code]).toEqual([
          method,
          path,
          404,
          'rest_no_route',
        ]);
        expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      }
      const hu = await http().get('/hu/wp-json/wp/v2/posts').expect(404);
      expect(hu.body).toEqual(
        wpError(
          404,
          'rest_no_route',
          'Nem található az URL-nek és a kérés metódusának megfelelő útvonal.',
        ),
      );
    });
  });

  describe('writes as tolerant as the plugin', () => {
    const event = (extra: Body) => ({
      title: 'Tolerant',
      start_date: '2030-08-01 10:00',
      end_date: '2030-08-01 11:00',
      ...extra,
    });

    it('takes JSON booleans for an inline venue show_map/show_map_link, create and update', async () => {
      const created = await postEvent(
        http,
        editor(),
        event({ venue: { venue: 'Bool Hall', show_map: true, show_map_link: false } }),
        TRIBE,
      ).expect(201);
      expect(created.body.venue).toMatchObject({
        venue: 'Bool Hall',
        show_map: true,
        show_map_link: false,
      });
      const stored = await http().get(`${CAL}/venues/${created.body.venue.id}`).expect(200);
      expect(stored.body).toMatchObject({ show_map: true, show_map_link: false });

      const byId = await asEditor('put', `${CAL}/events/${created.body.id}`)
        .send({ venue: { venue: 'Bool Hall 2', show_map: false, show_map_link: true } })
        .expect(200);
      expect(byId.body.venue).toMatchObject({
        venue: 'Bool Hall 2',
        show_map: false,
        show_map_link: true,
      });
      const bySlug = await asEditor('post', `${TRIBE}/events/by-slug/${created.body.slug}`)
        .send({ venue: { venue: 'Bool Hall 3', show_map: 0, show_map_link: 1 } })
        .expect(200);
      expect(bySlug.body.venue).toMatchObject({ show_map: false, show_map_link: true });
    });

    it('keeps the strict string type on the venue routes themselves', async () => {
      const res = await asEditor('post', `${TRIBE}/venues`)
        .send({ venue: 'Strict Hall', show_map: true })
        .expect(400);
      expect(res.body.data.params).toEqual({ show_map: 'show_map is not of type string.' });
      await asEditor('post', `${CAL}/venues/${seed.venueId}`)
        .send({ show_map_link: false })
        .expect(400);
    });

    it('links an image by the id of an image record it answered earlier; an unknown id is a 400', async () => {
      const withUrl = await postEvent(
        http,
        editor(),
        event({ image: 'https://images.example.org/poster.jpg' }),
      ).expect(201);
      const image = withUrl.body.image as { id: number; url: string };
      expect(image.id).toEqual(expect.any(Number));

      const byNumber = await postEvent(
        http,
        editor(),
        event({
          image: image.id,
          organizer: [{ organizer: 'Pictured Org', image: image.id }],
          venue: { venue: 'Pictured Hall', image: String(image.id) },
        }),
        TRIBE,
      ).expect(201);
      expect(byNumber.body.image).toEqual(image);
      expect(byNumber.body.organizer[0].image).toEqual(image);
      expect(byNumber.body.venue.image).toEqual(image);

      // Form bodies send the id as text; updates take it too.
      const updated = await asEditor(
        'post',
        `${CAL}/events/${(seed.events[0] as { id: number }).id}`,
      )
        .type('form')
        .send({ image: String(image.id) })
        .expect(200);
      expect(updated.body.image).toEqual(image);
      const venue = await asEditor('post', `${TRIBE}/venues`)
        .send({ venue: 'Image Venue', image: image.id })
        .expect(201);
      expect(venue.body.image).toEqual(image);
      const organizer = await asEditor('put', `${TRIBE}/organizers/${seed.organizerId}`)
        .send({ image: String(image.id) })
        .expect(200);
      expect(organizer.body.image).toEqual(image);

      // An id of no image record (here: an event's id, then an unused one) stays a 400.
      for (const bad of [withUrl.body.id as number, 987654]) {
        const e = await postEvent(http, editor(), event({ image: bad }), TRIBE).expect(400);
        expect(e.body.data.params).toEqual({ image: 'Invalid parameter.' });
        const v = await asEditor('post', `${CAL}/venues`)
          .send({ venue: 'No Image Venue', image: bad })
          .expect(400);
        expect(v.body.data.params).toEqual({ image: 'Invalid parameter.' });
        await postEvent(
          http,
          editor(),
          event({ venue: { venue: 'No Image Inline', image: bad } }),
        ).expect(400);
      }
    });
  });
});

describe('drop-in settings (e2e)', () => {
  const start = useAppPerTest();

  it('PLUGIN_NAMESPACE_ALIAS=false turns the plugin namespace off, discovery stays', async () => {
    const { http } = await start({ env: { PLUGIN_NAMESPACE_ALIAS: 'false' } });
    const res = await http().get(`${TRIBE}/events`).expect(404);
    expect(res.body.code).toBe('rest_no_route');
    await http().get('/?rest_route=/tribe/events/v1/events').expect(404);
    const index = await http().get('/wp-json/').expect(200);
    expect(index.body.namespaces).toEqual(['cal/events/v1']);
    expect(Object.keys(index.body.routes).some((r) => r.startsWith('/tribe'))).toBe(false);
    await http().get(`${CAL}/events`).expect(200);
    await http().get('/wp-json/cal/events/v1/events').expect(200);
    await http().get('/?rest_route=/cal/events/v1/events').expect(200);
  });

  it('with BASE_PATH the alias answers under /wp-json and under BASE_PATH', async () => {
    const { http } = await start({ env: { BASE_PATH: '/api' } });
    const own = await http().get('/api/cal/events/v1/events').expect(200);
    expect(own.body.rest_url).toMatch(new RegExp(`^${SITE}/api/cal/events/v1/events/`));
    const wp = await http().get('/wp-json/tribe/events/v1/events').expect(200);
    expect(wp.body.rest_url).toMatch(new RegExp(`^${SITE}/wp-json/tribe/events/v1/events/`));
    const base = await http().get('/hu/api/tribe/events/v1/events').expect(200);
    expect(base.body.rest_url).toMatch(new RegExp(`^${SITE}/api/hu/tribe/events/v1/events/`));
    const ownAtWp = await http().get('/wp-json/cal/events/v1/events').expect(200);
    expect(ownAtWp.body.rest_url).toMatch(new RegExp(`^${SITE}/wp-json/cal/events/v1/events/`));
    expect((await http().get('/api/').expect(200)).body.namespaces).toHaveLength(2);
    expect((await http().get('/wp-json/').expect(200)).body.namespaces).toHaveLength(2);
    // Outside BASE_PATH: still the WordPress error, never Express's HTML page.
    const outside = await http().get('/cal/events/v1/events').expect(404);
    expect(outside.body.code).toBe('rest_no_route');
    const hu = await http().post('/hu/nope').expect(404);
    expect(hu.body.message).toBe(
      'Nem található az URL-nek és a kérés metódusának megfelelő útvonal.',
    );
    const broken = await http()
      .post('/elsewhere')
      .set('Content-Type', 'application/json')
      .send('{"title":');
    expect([broken.status, broken.body.code]).toEqual([400, 'rest_invalid_json']);
  });

  it('with BASE_PATH=/wp-json both namespaces share the WordPress REST root', async () => {
    const { http } = await start({ env: { BASE_PATH: '/wp-json' } });
    const own = await http().get('/wp-json/cal/events/v1/events').expect(200);
    expect(own.body.rest_url).toMatch(new RegExp(`^${SITE}/wp-json/cal/events/v1/events/`));
    const tribe = await http().get('/wp-json/tribe/events/v1').expect(200);
    expect(tribe.body._links.up[0].href).toBe(`${SITE}/wp-json/`);
    expect((await http().get('/wp-json/').expect(200)).body.namespaces).toHaveLength(2);
    await http().get('/health').expect(200);
  });

  it('keeps separate cached answers per namespace', async () => {
    const { app, http } = await start({ env: { RESPONSE_CACHE_TTL_MS: '60000' } });
    const users = await createRoleUsers(app);
    await postEvent(http, users.editor.header, {
      title: 'Cached',
      start_date: '2030-01-01 10:00',
      end_date: '2030-01-01 11:00',
      categories: ['Cached'],
    }).expect(201);
    for (let i = 0; i < 2; i++) {
      const cal = await http().get('/?rest_route=/cal/events/v1/categories').expect(200);
      expect(cal.body.categories[0].taxonomy).toBe('cal_events_cat');
      const tribe = await http().get('/?rest_route=/tribe/events/v1/categories').expect(200);
      expect(tribe.body.categories[0].taxonomy).toBe('tribe_events_cat');
      expect(tribe.body.rest_url).toContain('/wp-json/tribe/events/v1/categories');
    }
  });
});
