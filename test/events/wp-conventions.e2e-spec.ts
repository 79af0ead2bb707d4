import { postEvent, useTestApp } from '../helpers/app-fixture.js';

const CAL = '/cal/events/v1';
const TRIBE = '/wp-json/tribe/events/v1';
const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

type Body = Record<string, unknown>;

/**
 * WordPress's REST conventions on every route (CONTRACT §6, issue 45): `_fields`, `_envelope`,
 * the method override on POST, write parameters from the query string under the body,
 * `_locale`/`_wpnonce` accepted, OPTIONS answering the route's description, and
 * `_tec_update_type` read wherever WordPress's `get_param` reads it; under both namespaces and
 * `?rest_route=`, on SQLite and MariaDB.
 */
describe('WordPress REST conventions (e2e)', () => {
  const logs: string[] = [];
  const { http, users } = useTestApp({ logSink: (line) => logs.push(line) });
  const editor = () => users.editor.header;
  const event = async (title: string, extra: Body = {}) =>
    (
      await postEvent(http, editor(), {
        title,
        start_date: '2030-05-01 19:00',
        end_date: '2030-05-01 21:00',
        status: 'publish',
        ...extra,
      }).expect(201)
    ).body as Body & { id: number };

  describe('_fields', () => {
    it('keeps the named fields of a record, under both namespaces and ?rest_route=', async () => {
      const { id } = await event('Fields single', {
        venue: { venue: 'Fields Hall', city: 'Pécs' },
      });
      for (const path of [
        `${CAL}/events/${id}?_fields=id,title`,
        `${TRIBE}/events/${id}?_fields=id,title`,
        `/?rest_route=/tribe/events/v1/events/${id}&_fields=id,title`,
        `/?rest_route=/cal/events/v1/events/${id}&_fields[]=id&_fields[]=title`,
      ]) {
        const res = await http().get(path).expect(200);
        expect(res.body).toEqual({ id, title: 'Fields single' });
      }
      // Dotted names reach into a field; white space around names is ignored.
      const venue = await http()
        .get(`${CAL}/events/${id}`)
        .query({ _fields: 'id, venue.venue,venue.city' })
        .expect(200);
      expect(venue.body).toEqual({ id, venue: { venue: 'Fields Hall', city: 'Pécs' } });
      // A parent named whole wins over its dotted children, in either order.
      const whole = await http().get(`${CAL}/events/${id}?_fields=venue.city,venue`).expect(200);
      expect(Object.keys(whole.body.venue as Body).length).toBeGreaterThan(2);
    });

    it("reaches inside the list envelope with dotted names; plain names keep the envelope's", async () => {
      await event('Fields list one');
      await event('Fields list two');
      const res = await http()
        .get(`${CAL}/events?${WINDOW}&search=Fields%20list&_fields=events.id,events.title,total`)
        .expect(200);
      expect(res.body).toEqual({
        events: [
          { id: expect.any(Number), title: 'Fields list one' },
          { id: expect.any(Number), title: 'Fields list two' },
        ],
        total: 2,
      });
      // The list headers stay.
      expect(res.headers['x-tec-total']).toBe('2');
      // Names the envelope does not have: an empty object, as WordPress answers.
      const none = await http()
        .get(`${TRIBE}/events?${WINDOW}&search=Fields%20list&_fields=id`)
        .expect(200);
      expect(none.body).toEqual({});
    });

    it('is applied before the answer is cached, one variant per _fields, never to another', async () => {
      const { id } = await event('Fields cached');
      const url = `${CAL}/events/${id}?_fields=title`;
      const first = await http().get(url).expect(200);
      const again = await http().get(url).expect(200);
      expect(again.body).toEqual({ title: 'Fields cached' });
      expect(again.headers.etag).toBe(first.headers.etag);
      const full = await http().get(`${CAL}/events/${id}`).expect(200);
      expect(full.body).toMatchObject({ id, title: 'Fields cached', status: 'publish' });
      expect(full.headers.etag).not.toBe(first.headers.etag);
      // A write is seen by the cached variant too.
      await http()
        .post(`${CAL}/events/${id}`)
        .set('Authorization', editor())
        .send({ title: 'Fields cached, renamed' })
        .expect(200);
      expect((await http().get(url).expect(200)).body).toEqual({
        title: 'Fields cached, renamed',
      });
    });

    it('never reveals what the reader may not see', async () => {
      const draft = await event('Fields draft', { status: 'draft' });
      const hidden = await http().get(`${CAL}/events/${draft.id}`);
      expect(hidden.status).toBeGreaterThanOrEqual(400);
      const narrowed = await http().get(`${CAL}/events/${draft.id}?_fields=id,title`);
      expect([narrowed.status, narrowed.body]).toEqual([hidden.status, hidden.body]);
      const secret = await event('Fields protected', {
        description: 'The secret content',
        password: 'open-sesame',
      });
      await http().get(`${CAL}/events/${secret.id}?_fields=description`).expect(403);
      // In a list the record is redacted, and stays so whatever fields are named.
      const list = `${CAL}/events?${WINDOW}&search=Fields%20protected`;
      const whole = await http().get(list).expect(200);
      const res = await http()
        .get(`${list}&_fields=events.description,events.excerpt,events.password`)
        .expect(200);
      expect(JSON.stringify(res.body)).not.toContain('secret content');
      expect(JSON.stringify(res.body)).not.toContain('open-sesame');
      expect(res.body.events[0].description).toEqual(whole.body.events[0].description);
      // Opened with its password, the same fields show it (and it is not the cached variant).
      const opened = await http()
        .get(`${list}&_fields=events.description&password=open-sesame`)
        .expect(200);
      expect(opened.body.events[0].description).toContain('secret content');
    });

    it('leaves errors whole and refuses an unbounded list', async () => {
      const missing = await http().get(`${CAL}/events/999999?_fields=code`).expect(404);
      expect(missing.body).toMatchObject({ code: 'rest-event-not-found', data: { status: 404 } });
      const many = Array.from({ length: 101 }, (_, i) => `f${i}`).join(',');
      const refused = await http().get(`/hu${CAL}/events?_fields=${many}`).expect(400);
      expect(refused.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { _fields: expect.any(String) } },
      });
      expect(refused.body.message).not.toMatch(/Invalid parameter/);
    });
  });

  describe('_envelope', () => {
    it('moves status and headers into a 200 body, lists and errors alike', async () => {
      await event('Envelope list');
      const list = await http()
        .get(`${TRIBE}/events?${WINDOW}&search=Envelope%20list&_envelope`)
        .expect(200);
      expect(list.body).toMatchObject({
        status: 200,
        headers: { 'X-TEC-Total': '1', 'X-TEC-TotalPages': '1' },
        body: { events: [expect.objectContaining({ title: 'Envelope list' })], total: 1 },
      });
      expect(list.headers['x-tec-total']).toBeUndefined();
      expect(list.headers['content-type']).toBe('application/json; charset=UTF-8');

      const missing = await http()
        .get(`/?rest_route=/cal/events/v1/events/999999&_envelope=1`)
        .expect(200);
      expect(missing.body).toMatchObject({
        status: 404,
        body: { code: 'rest-event-not-found', data: { status: 404 } },
      });
      const anonymous = await http()
        .post(`${CAL}/events?_envelope`)
        .send({ title: 'x', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' })
        .expect(200);
      expect(anonymous.body).toMatchObject({ status: 401, body: { code: 'rest_forbidden' } });
      const invalid = await http().get(`/hu${CAL}/events?page=0&_envelope`).expect(200);
      expect(invalid.body).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
      const unrouted = await http().get(`${CAL}/nowhere?_envelope`).expect(200);
      expect(unrouted.body).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
      // A conditional request still gets the envelope, not a 304.
      const { id } = await event('Envelope conditional');
      const plain = await http().get(`${CAL}/events/${id}`).expect(200);
      const conditional = await http()
        .get(`${CAL}/events/${id}?_envelope`)
        .set('If-None-Match', plain.headers.etag)
        .expect(200);
      expect(conditional.body).toMatchObject({ status: 200, body: { id } });
      expect(conditional.body.headers['Last-Modified']).toEqual(expect.any(String));
    });

    it('wraps a create and a delete (201, then 200 with the trashed record)', async () => {
      const created = await http()
        .post(`${CAL}/events?_envelope`)
        .set('Authorization', editor())
        .send({
          title: 'Envelope create',
          start_date: '2030-01-01 10:00',
          end_date: '2030-01-01 11:00',
        })
        .expect(200);
      expect(created.body).toMatchObject({ status: 201, body: { title: 'Envelope create' } });
      const id = (created.body.body as { id: number }).id;
      await http().get(`${CAL}/events/${id}`).expect(200);
    });
  });

  describe('method override', () => {
    it('POST with _method=DELETE or X-HTTP-Method-Override deletes, checked and logged as DELETE', async () => {
      const one = await event('Override delete by query');
      logs.length = 0;
      const res = await http()
        .post(`${CAL}/events/${one.id}?_method=DELETE`)
        .set('Authorization', editor())
        .expect(200);
      expect(res.body).toMatchObject({ id: one.id, status: 'trash' });
      // Read back as a record deleted with a real DELETE reads.
      const real = await event('Override real delete');
      await http().delete(`${CAL}/events/${real.id}`).set('Authorization', editor()).expect(200);
      const gone = (await http().get(`${CAL}/events/${real.id}`).set('Authorization', editor()))
        .status;
      expect(gone).toBeGreaterThanOrEqual(400);
      await http().get(`${CAL}/events/${one.id}`).set('Authorization', editor()).expect(gone);
      const line = logs
        .map((l) => JSON.parse(l) as Body)
        .find((l) => l.url === `${CAL}/events/${one.id}?_method=DELETE`);
      expect(line).toMatchObject({ method: 'DELETE', status: 200 });

      const two = await event('Override delete by header');
      await http()
        .post(`${TRIBE}/events/${two.id}`)
        .set('Authorization', editor())
        .set('X-HTTP-Method-Override', 'delete')
        .expect(200);
      await http().get(`${CAL}/events/${two.id}`).set('Authorization', editor()).expect(gone);
      // The permission check sees DELETE: a subscriber may not delete (nor is told it may).
      const three = await event('Override refused');
      await http()
        .post(`${CAL}/events/${three.id}?_method=DELETE`)
        .set('Authorization', users.subscriber.header)
        .expect(403);
      await http().post(`${CAL}/events/${three.id}?_method=DELETE`).expect(401);
      await http().get(`${CAL}/events/${three.id}`).expect(200);
    });

    it('turns a POST into PUT or PATCH; _method wins over the header', async () => {
      const { id } = await event('Override update');
      await http()
        .post(`/?rest_route=/cal/events/v1/events/${id}&_method=PATCH`)
        .set('Authorization', editor())
        .set('X-HTTP-Method-Override', 'DELETE')
        .send({ title: 'Override update, patched' })
        .expect(200);
      const read = await http().get(`${CAL}/events/${id}`).expect(200);
      expect(read.body).toMatchObject({ title: 'Override update, patched', status: 'publish' });
    });

    it('is never honoured on GET, and an unknown method is no route', async () => {
      const { id } = await event('Override on GET');
      const got = await http()
        .get(`${CAL}/events/${id}?_method=DELETE`)
        .set('Authorization', editor())
        .set('X-HTTP-Method-Override', 'DELETE')
        .expect(200);
      expect(got.body).toMatchObject({ id, status: 'publish' });
      await http().get(`${CAL}/events/${id}`).expect(200);
      const unknown = await http()
        .post(`/ro${CAL}/events/${id}?_method=TRACE`)
        .set('Authorization', editor())
        .expect(404);
      expect(unknown.body).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
      await http().get(`${CAL}/events/${id}`).expect(200);
    });
  });

  describe('write parameters from the query string', () => {
    it('creates from the query string; the JSON or form body wins over it', async () => {
      const created = await http()
        .post(`${TRIBE}/events`)
        .query({
          title: 'Query create',
          start_date: '2030-06-01 10:00',
          end_date: '2030-06-01 12:00',
          _locale: 'user',
          _wpnonce: 'abc123',
        })
        .set('Authorization', editor())
        .expect(201);
      expect(created.body).toMatchObject({
        title: 'Query create',
        start_date: '2030-06-01 10:00:00',
      });
      const read = await http().get(`${CAL}/events/${created.body.id}`).expect(200);
      expect(read.body.title).toBe('Query create');

      const json = await http()
        .post(
          `${CAL}/events?title=From%20query&start_date=2030-06-02%2010:00&end_date=2030-06-02%2012:00`,
        )
        .set('Authorization', editor())
        .send({ title: 'From JSON' })
        .expect(201);
      expect(json.body).toMatchObject({ title: 'From JSON', start_date: '2030-06-02 10:00:00' });

      const form = await http()
        .post(`${CAL}/events/${json.body.id}?title=From%20query&description=Query%20text`)
        .set('Authorization', editor())
        .type('form')
        .send({ title: 'From form' })
        .expect(200);
      expect(form.body).toMatchObject({ title: 'From form' });
      const back = await http().get(`${CAL}/events/${json.body.id}`).expect(200);
      expect(back.body.title).toBe('From form');
      expect(back.body.description).toContain('Query text');
    });

    it("the path id stays the route's", async () => {
      const a = await event('Path id A');
      const b = await event('Path id B');
      await http()
        .post(`${CAL}/events/${a.id}?id=${b.id}&title=Path%20id%20A2`)
        .set('Authorization', editor())
        .expect(200);
      expect((await http().get(`${CAL}/events/${a.id}`).expect(200)).body.title).toBe('Path id A2');
      expect((await http().get(`${CAL}/events/${b.id}`).expect(200)).body.title).toBe('Path id B');
    });

    it('_tec_update_type from the query string detaches one occurrence; an unknown value is a 400', async () => {
      const series = await event('Query series', {
        start_date: '2031-03-04 19:00:00',
        end_date: '2031-03-04 21:00:00',
        recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
      });
      const listed = async () =>
        (
          await http()
            .get(`${CAL}/events?search=Query%20series&start_date=2031-03-01&end_date=2031-03-31`)
            .expect(200)
        ).body.events as Array<{ id: number; title: string; start_date: string }>;
      const before = await listed();
      expect(before).toHaveLength(3);
      const bad = await http()
        .post(`/hu${CAL}/events/${before[1].id}?_tec_update_type=every`)
        .set('Authorization', editor())
        .send({ title: 'Query series, renamed' })
        .expect(400);
      expect(bad.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { _tec_update_type: expect.any(String) } },
      });
      await http()
        .post(`${TRIBE}/events/${before[1].id}?_tec_update_type=single`)
        .set('Authorization', editor())
        .send({ title: 'Query series, one renamed' })
        .expect(200);
      const after = await listed();
      expect(after.map((e) => e.title)).toEqual([
        'Query series',
        'Query series, one renamed',
        'Query series',
      ]);
      const again = await http().get(`${CAL}/events/${series.id}`).expect(200);
      expect(again.body.title).toBe('Query series');
      // The body's value wins over the query's.
      await http()
        .post(`${CAL}/events/${after[2].id}?_tec_update_type=all`)
        .set('Authorization', editor())
        .send({ _tec_update_type: 'single', title: 'Query series, last one' })
        .expect(200);
      expect((await listed()).map((e) => e.title)).toEqual([
        'Query series',
        'Query series, one renamed',
        'Query series, last one',
      ]);
    });

    it('_locale and _wpnonce are accepted and ignored on reads too', async () => {
      const { id } = await event('Locale read');
      const res = await http()
        .get(`${CAL}/events/${id}?_locale=user&_wpnonce=0123456789`)
        .expect(200);
      expect(res.body).toMatchObject({ id, title: 'Locale read' });
    });
  });

  describe('OPTIONS', () => {
    it("answers the route's description, localized, under both namespaces", async () => {
      const res = await http().options(`${CAL}/events`).expect(200);
      expect(res.headers.allow).toBe('GET, POST');
      expect(res.body).toMatchObject({
        namespace: 'cal/events/v1',
        methods: ['GET', 'POST'],
        endpoints: [
          {
            methods: ['GET'],
            args: { per_page: expect.objectContaining({ type: 'integer', required: false }) },
          },
          {
            methods: ['POST'],
            args: { title: expect.objectContaining({ type: 'string', required: true }) },
          },
        ],
      });
      expect(res.body._links).toBeUndefined();
      const index = await http().get(CAL).expect(200);
      const { _links, ...listed } = index.body.routes['/cal/events/v1/events'] as Body;
      expect(_links).toBeDefined();
      expect(res.body).toEqual(listed);

      const hu = await http().options(`/hu${TRIBE}/events/12/`).expect(200);
      expect(hu.body).toMatchObject({
        namespace: 'tribe/events/v1',
        methods: ['GET', 'DELETE', 'POST', 'PUT', 'PATCH'],
      });
      const en = await http().options(`${TRIBE}/events/12`).expect(200);
      const describe = (body: Body) =>
        (body.endpoints as Array<{ args: Record<string, { description?: string }> }>)[0].args.id
          .description;
      expect(describe(hu.body)).toEqual(expect.any(String));
      expect(describe(hu.body)).not.toEqual(describe(en.body));
      const update = await http().options(`/?rest_route=/cal/events/v1/events/12`).expect(200);
      const args = (
        update.body.endpoints as Array<{ methods: string[]; args: Record<string, Body> }>
      ).find((e) => e.methods.includes('PATCH'))!.args;
      expect(args._tec_update_type).toMatchObject({
        type: 'string',
        default: 'all',
        required: false,
      });
      expect(args.i18n_language).toMatchObject({ enum: ['en', 'hu', 'ro'], required: false });
    });

    it('keeps CORS preflights working, and an unknown path is no route', async () => {
      const preflight = await http()
        .options(`${CAL}/events/12`)
        .set('Origin', 'https://front.example')
        .set('Access-Control-Request-Method', 'DELETE')
        .set('Access-Control-Request-Headers', 'authorization,x-http-method-override')
        .expect(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toContain('DELETE');
      expect(preflight.headers['access-control-allow-headers']).toContain('x-http-method-override');
      expect(preflight.text).toBe('');
      const unknown = await http().options(`${CAL}/nowhere`).expect(404);
      expect(unknown.body).toMatchObject({ code: 'rest_no_route' });
      await http().options(`${TRIBE}/webhooks`).expect(404);
      await http().options(`${CAL}/webhooks`).expect(200);
    });
  });
});
