import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Actor } from '../src/auth/actor.js';
import { PostStore } from '../src/common/posts/post-store.js';
import { Writes } from '../src/database/writes.js';
import type { RequestContext } from '../src/common/http/request-context.js';
import { APP_CONFIG, type AppConfig, type Language } from '../src/config/config.js';
import { VenueEventLinks } from '../src/venues/venues.service.js';
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
  o: {
    venueId?: number | null;
    status?: string;
    start?: string;
    authorId?: number;
    language?: Language;
  } = {},
): Promise<number> {
  const id = await new PostStore(ds).allocateId(ds.manager, 'event');
  const start = o.start ?? FUTURE;
  await ds.query(
    `INSERT INTO events (id, author_id, status, title, slug, description, excerpt, date, date_utc,
       modified, modified_utc, language, start_date, end_date, start_utc, end_utc, timezone, cost, venue_id)
     VALUES (?, ?, ?, ?, NULL, '', '', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'UTC', '', ?)`,
    [
      id,
      o.authorId ?? 0,
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
      o.venueId ?? null,
    ],
  );
  return id;
}

const venueIdOf = async (ds: DataSource, eventId: number) =>
  Number((await ds.query('SELECT venue_id FROM events WHERE id = ?', [eventId]))[0].venue_id) ||
  null;

describe('venues (e2e)', () => {
  let app: NestExpressApplication;
  let ds: DataSource;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  const as = (who: Credentials) => ({ Authorization: who.header });

  const create = async (who: Credentials, body: Record<string, unknown>, prefix = '') => {
    const res = await http().post(`${prefix}${API}/venues`).set(as(who)).send(body);
    expect(res.status).toBe(201);
    return res.body as Tec;
  };

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.get(DataSource);
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  describe('POST /venues', () => {
    it('creates a venue and answers 201 with the venue object, empty fields dropped', async () => {
      const res = await http()
        .post(`${API}/venues`)
        .set(as(users.editor))
        .send({
          venue: 'Concert Hall',
          description: 'A hall for concerts',
          address: '  1 Main   Street <b>East</b> ',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          phone: '+1 555 0100',
          website: 'https://hall.example.org/',
        })
        .expect(201);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      const v = res.body;
      expect(Object.keys(v)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'description',
        'slug',
        'address',
        'city',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
        'language',
        'translations',
      ]);
      expect(v).toMatchObject({
        author: String(users.editor.id),
        status: 'publish',
        url: 'http://cal.test/venue/concert-hall/',
        venue: 'Concert Hall',
        description: '<p>A hall for concerts</p>',
        slug: 'concert-hall',
        address: '1 Main Street East',
        stateprovince: 'IL',
        show_map: true,
        show_map_link: true,
        global_id: `cal.test?id=${v.id}`,
        global_id_lineage: [`cal.test?id=${v.id}`],
      });
      expect(v.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(v.date_utc).toBe(v.date);
      expect(v).not.toHaveProperty('json_ld');
      expect(v).not.toHaveProperty('rest_url');
    });

    it('takes the state as stateprovince only for US addresses, else the province', async () => {
      const us = await create(users.editor, { venue: 'US place', state: 'NY', country: 'US' });
      expect(us.stateprovince).toBe('NY');
      const fr = await create(users.editor, {
        venue: 'French place',
        state: 'X',
        province: 'Ile de France',
        country: 'France',
      });
      expect(fr.stateprovince).toBe('Ile de France');
      const given = await create(users.editor, { venue: 'Given sp', stateprovince: 'Somewhere' });
      expect(given.stateprovince).toBe('Somewhere');
    });

    it('reads show_map/show_map_link as truthy strings', async () => {
      const v = await create(users.editor, {
        venue: 'Mapless',
        show_map: 'no',
        show_map_link: 'yes',
      });
      expect(v.show_map).toBe(false);
      expect(v.show_map_link).toBe(true);
    });

    it('stores contributors’ venues as drafts without a slug or UTC date (§7.1.6, §7.1.2)', async () => {
      const v = await create(users.contributor, { venue: 'Contributor place', status: 'publish' });
      expect(v.status).toBe('pending');
      expect(v.date_utc).toBe('0000-00-00 00:00:00');
      expect(v).not.toHaveProperty('slug');
      expect(v.url).toBe(`http://cal.test/?post_type=cal_venue&p=${v.id}`);
      const d = await create(users.contributor, { venue: 'Contributor draft' });
      expect(d.status).toBe('draft');
    });

    it('schedules a publish with a future date and keeps given dates', async () => {
      const v = await create(users.author, { venue: 'Later place', date: '2099-01-01 10:00:00' });
      expect(v).toMatchObject({
        status: 'future',
        date: '2099-01-01 10:00:00',
        date_utc: '2099-01-01 10:00:00',
      });
      const past = await create(users.author, {
        venue: 'Older place',
        date_utc: '2020-05-06 07:08:09',
      });
      expect(past).toMatchObject({ status: 'publish', date: '2020-05-06 07:08:09' });
      const ts = await create(users.author, { venue: 'Timestamp place', date: '1700000000' });
      expect(ts.date_utc).toBe('2023-11-14 22:13:20');
    });

    it('stores an image URL as given and returns {url, id, extension}', async () => {
      const v = await create(users.author, {
        venue: 'Pictured',
        image: 'https://img.example.org/a/b/photo.JPG?x=1',
      });
      expect(v.image).toEqual({
        url: 'https://img.example.org/a/b/photo.JPG?x=1',
        id: expect.any(Number),
        extension: 'JPG',
      });
      // The image record of the URL (BEHAVIOR §4.6), not the venue's own id.
      expect(v.image.id).not.toBe(v.id);
    });

    it('stores and returns coordinates when given', async () => {
      const v = await create(users.author, { venue: 'Geo place', geo_lat: 47.5, geo_lng: '19.04' });
      expect(v.geo_lat).toBe(47.5);
      expect(v.geo_lng).toBe(19.04);
      const res = await http()
        .post(`${API}/venues`)
        .set(as(users.author))
        .send({ venue: 'Bad geo', geo_lat: 91, geo_lng: 'east' })
        .expect(400);
      expect(res.body.data.params).toEqual({
        geo_lat: 'Invalid parameter.',
        geo_lng: 'geo_lng is not of type number.',
      });
    });

    it('belongs to the request language', async () => {
      const v = await create(users.editor, { venue: 'Helyszín' }, '/hu');
      const hu = await http().get(`/hu${API}/venues/by-slug/${v.slug}`).expect(200);
      expect(hu.body.id).toBe(v.id);
      await http().get(`${API}/venues/by-slug/${v.slug}`).expect(400);
      await http().get(`${API}/venues/${v.id}`).expect(200);
    });

    it('validates before checking permissions', async () => {
      const missing = await http().post(`${API}/venues`).send({ city: 'x' }).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): venue',
        data: { status: 400, params: { venue: 'Missing parameter.' } },
      });
      const empty = await http().post(`${API}/venues`).send({ venue: '' }).expect(400);
      expect(empty.body.data.params).toEqual({ venue: 'Invalid parameter.' });
      await http().post(`${API}/venues`).send({ venue: 'Fine' }).expect(401);
      const res = await http()
        .post(`${API}/venues`)
        .set(as(users.subscriber))
        .send({ venue: 'Fine' })
        .expect(403);
      expect(res.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 403 },
      });
    });

    it('rejects JSON values of the wrong type for string fields (§1.3)', async () => {
      const res = await http()
        .post(`${API}/venues`)
        .set(as(users.editor))
        .send({ venue: 'Typed', show_map: true, zip: 20500 })
        .expect(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: expect.stringMatching(/^Invalid parameter\(s\): /),
        data: {
          status: 400,
          params: {
            show_map: 'show_map is not of type string.',
            zip: 'zip is not of type string.',
          },
          details: {
            show_map: {
              code: 'rest_invalid_type',
              message: 'show_map is not of type string.',
              data: { param: 'show_map' },
            },
            zip: {
              code: 'rest_invalid_type',
              message: 'zip is not of type string.',
              data: { param: 'zip' },
            },
          },
        },
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
        .post(`${API}/venues`)
        .send({ venue: 'Bad', [field]: value })
        .expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual([field]);
    });

    it('names the allowed statuses in the status reason', async () => {
      const res = await http().post(`${API}/venues`).send({ venue: 'x', status: 'foo' });
      expect(res.body.data.params.status).toBe(
        'status is not one of publish, future, draft, pending, private.',
      );
    });

    // CONTRACT §2: only editors and administrators create venues of others.
    it('lets only editors and administrators create venues of other users', async () => {
      for (const user of [users.author, users.contributor]) {
        const res = await http()
          .post(`${API}/venues`)
          .set(as(user))
          .send({ venue: 'For the editor', author: users.editor.id })
          .expect(403);
        expect(res.body.code).toBe('rest_cannot_create');
      }
      await create(users.author, {
        venue: 'Author private own',
        author: users.author.id,
        status: 'private',
      });
      const forAuthor = await create(users.editor, {
        venue: 'Editor for author',
        author: users.author.id,
        status: 'private',
      });
      expect(forAuthor).toMatchObject({ author: String(users.author.id), status: 'private' });
    });

    it('lets only uploaders set an image URL (contributor → 400)', async () => {
      const res = await http()
        .post(`${API}/venues`)
        .set(as(users.contributor))
        .send({ venue: 'With image', image: 'https://img.example.org/x.png' })
        .expect(400);
      expect(res.body.data.params).toEqual({ image: 'Invalid parameter.' });
    });

    it('accepts form-encoded bodies', async () => {
      const res = await http()
        .post(`${API}/venues`)
        .set(as(users.editor))
        .type('form')
        .send({ venue: 'Form place', zip: '1051', show_map: '0' })
        .expect(201);
      expect(res.body).toMatchObject({ venue: 'Form place', zip: '1051', show_map: false });
    });

    it('localizes error messages', async () => {
      const res = await http().post(`/hu${API}/venues`).send({}).expect(400);
      expect(res.body.message).toBe('Hiányzó paraméter(ek): venue');
    });
  });

  describe('duplicates (§7.4.2)', () => {
    it('returns the existing venue for the same name (and description), updating its details', async () => {
      const first = await create(users.editor, {
        venue: 'A venue',
        description: 'A venue description',
        city: 'Old town',
      });
      for (const body of [
        { venue: 'A venue', description: 'A venue description' },
        { venue: 'A venue' },
        { venue: 'a venue', description: 'a venue description' },
        { venue: 'a venue', country: 'Hungary', phone: '123' },
      ]) {
        const again = await create(users.editor, body);
        expect(again.id).toBe(first.id);
      }
      const got = await http().get(`${API}/venues/${first.id}`).expect(200);
      expect(got.body).toMatchObject({
        venue: 'A venue',
        description: '<p>A venue description</p>',
        city: 'Old town',
        country: 'Hungary',
        phone: '123',
      });
      const other = await create(users.editor, { venue: 'A venue', description: 'Another one' });
      expect(other.id).not.toBe(first.id);
    });

    it('never reuses a trashed venue or one the caller may not see', async () => {
      const trashed = await create(users.editor, { venue: 'Gone venue' });
      await http().delete(`${API}/venues/${trashed.id}`).set(as(users.editor)).expect(200);
      const fresh = await create(users.editor, { venue: 'Gone venue' });
      expect(fresh.id).not.toBe(trashed.id);

      const hidden = await create(users.contributor, { venue: 'Hidden draft' });
      const mine = await create(users.author, { venue: 'Hidden draft', city: 'Elsewhere' });
      expect(mine.id).not.toBe(hidden.id);
    });

    it('links a visible venue of someone else without changing it', async () => {
      const editors = await create(users.editor, { venue: 'Shared hall', city: 'Pécs' });
      const again = await create(users.contributor, { venue: 'Shared hall', city: 'Győr' });
      expect(again.id).toBe(editors.id);
      expect(again.city).toBe('Pécs');
    });
  });

  describe('GET /venues/{id} and /venues/by-slug/{slug}', () => {
    let published: Tec;
    let draft: Tec;
    let eventId: number;

    beforeAll(async () => {
      published = await create(users.editor, {
        venue: 'Readable venue',
        address: '100, Avenue du Temple',
        city: 'Paris',
        zip: '75003',
        country: 'France',
        phone: '555',
        website: 'http://temple.example',
      });
      draft = await create(users.contributor, { venue: 'Draft venue' });
      eventId = await insertEvent(ds);
    });

    it('answers the venue with json_ld (a Place)', async () => {
      const res = await http().get(`${API}/venues/${published.id}`).expect(200);
      expect(res.body).toMatchObject({ id: published.id, venue: 'Readable venue' });
      expect(res.body.json_ld).toEqual({
        '@context': 'http://schema.org',
        '@type': 'Place',
        name: 'Readable venue',
        description: '',
        url: published.url,
        address: {
          '@type': 'PostalAddress',
          streetAddress: '100, Avenue du Temple',
          addressLocality: 'Paris',
          postalCode: '75003',
          addressCountry: 'France',
        },
        telephone: '555',
        sameAs: 'http://temple.example',
      });
      const keys = Object.keys(res.body);
      expect(keys.slice(keys.indexOf('json_ld'))).toEqual([
        'json_ld',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
        'language',
        'translations',
      ]);
    });

    it('reads by slug in the request language', async () => {
      const res = await http().get(`${API}/venues/by-slug/readable-venue`).expect(200);
      expect(res.body.id).toBe(published.id);
      expect(res.body.json_ld['@type']).toBe('Place');
    });

    it('answers 400 for ids that are not venues, also of events (§1.6)', async () => {
      for (const id of [eventId, 999999, 0]) {
        const res = await http().get(`${API}/venues/${id}`).expect(400);
        expect(res.body).toEqual({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): id',
          data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
        });
      }
    });

    it('answers 400 for unknown slugs and 404 for non-numeric ids or an empty slug', async () => {
      const res = await http().get(`${API}/venues/by-slug/nope`).expect(400);
      expect(res.body.data.params).toEqual({ slug: 'Invalid parameter.' });
      const route = await http().get(`${API}/venues/abc`).expect(404);
      expect(route.body.code).toBe('rest_no_route');
      await http().get(`${API}/venues/by-slug/`).expect(404);
    });

    it('hides unpublished venues from who may not read them (403 venue-not-accessible)', async () => {
      for (const headers of [{}, as(users.subscriber), as(users.author)]) {
        const res = await http().get(`${API}/venues/${draft.id}`).set(headers).expect(403);
        expect(res.body).toEqual({
          code: 'venue-not-accessible',
          message: 'The requested venue is not accessible',
          data: { status: 403 },
        });
      }
      await http().get(`${API}/venues/${draft.id}`).set(as(users.contributor)).expect(200);
      await http().get(`${API}/venues/${draft.id}`).set(as(users.editor)).expect(200);
    });

    it('lets editors read trashed venues and hides them from the public', async () => {
      const v = await create(users.editor, { venue: 'To trash for reading' });
      await http().delete(`${API}/venues/${v.id}`).set(as(users.editor)).expect(200);
      const res = await http().get(`${API}/venues/${v.id}`).set(as(users.editor)).expect(200);
      expect(res.body.status).toBe('trash');
      await http().get(`${API}/venues/${v.id}`).expect(403);
    });

    it('supports HEAD', async () => {
      await http().head(`${API}/venues/${published.id}`).expect(200);
    });
  });

  describe('password-protected venues (§4.11)', () => {
    let v: Tec;
    beforeAll(async () => {
      v = await create(users.editor, {
        venue: 'Secret venue',
        description: 'Hidden text',
        address: 'Secret street 1',
        city: 'Secret city',
        state: 'Secret state',
        website: 'https://secret.example',
        image: 'https://img.example.org/s.png',
        password: 'sesame',
      });
    });

    it('redacts the create response and single reads unless unlocked', async () => {
      expect(v).toMatchObject({
        venue: [],
        description: '',
        address: '',
        city: '',
        state: 'Secret state',
        stateprovince: '',
        website: '',
        image: false,
        show_map: null,
        show_map_link: null,
        slug: 'secret-venue',
      });
      const res = await http().get(`${API}/venues/${v.id}`).expect(200);
      expect(res.body).toMatchObject({ venue: [], address: '' });
      expect(res.body).not.toHaveProperty('json_ld');
      const wrong = await http().get(`${API}/venues/${v.id}?password=Sesame`).expect(200);
      expect(wrong.body.venue).toEqual([]);
    });

    it('opens with the right password or context=edit for an editor of it', async () => {
      const open = await http().get(`${API}/venues/${v.id}?password=sesame`).expect(200);
      expect(open.body).toMatchObject({ venue: 'Secret venue', address: 'Secret street 1' });
      expect(open.body.json_ld.name).toBe('Secret venue');
      const edit = await http()
        .get(`${API}/venues/${v.id}?context=edit`)
        .set(as(users.editor))
        .expect(200);
      expect(edit.body.venue).toBe('Secret venue');
      const notEditor = await http()
        .get(`${API}/venues/${v.id}?context=edit`)
        .set(as(users.author))
        .expect(200);
      expect(notEditor.body.venue).toEqual([]);
    });

    it('redacts list items unless the list password matches', async () => {
      const list = await http().get(`${API}/venues?search=Secret&per_page=50`).expect(200);
      expect(
        list.body.venues.find((x: { id: number; venue: unknown }) => x.id === v.id).venue,
      ).toEqual([]);
      const open = await http().get(`${API}/venues?per_page=50&password=sesame`).expect(200);
      expect(
        open.body.venues.find((x: { id: number; venue: unknown }) => x.id === v.id).venue,
      ).toBe('Secret venue');
    });

    it('removes the password with an empty string', async () => {
      await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ password: '' })
        .expect(200);
      const res = await http().get(`${API}/venues/${v.id}`).expect(200);
      expect(res.body.venue).toBe('Secret venue');
    });
  });

  describe('POST|PUT|PATCH /venues/{id} — partial updates (CONTRACT §6)', () => {
    it('changes only the given fields, on all three methods', async () => {
      const v = await create(users.editor, {
        venue: 'Updatable',
        description: 'Keep me',
        city: 'Debrecen',
        show_map: 'false',
        image: 'https://img.example.org/keep.gif',
      });
      const res = await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ phone: '06 1 234' })
        .expect(200);
      expect(res.body).toMatchObject({
        id: v.id,
        venue: 'Updatable',
        description: '<p>Keep me</p>',
        city: 'Debrecen',
        phone: '06 1 234',
        status: 'publish',
        show_map: false,
        image: { url: 'https://img.example.org/keep.gif', id: v.image.id, extension: 'gif' },
      });
      const put = await http()
        .put(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ venue: 'Renamed', city: '' })
        .expect(200);
      expect(put.body.venue).toBe('Renamed');
      expect(put.body).not.toHaveProperty('city');
      expect(put.body.slug).toBe('updatable');
      const patch = await http()
        .patch(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ description: '', show_map: '1', image: '' })
        .expect(200);
      expect(patch.body.description).toBe('<p>Keep me</p>');
      expect(patch.body.show_map).toBe(true);
      expect(patch.body).not.toHaveProperty('image');
    });

    // Regressions found by test/fuzz.e2e-spec.ts: these answered 500.
    it('treats null as an absent field (as WordPress does) and rejects unstorable dates', async () => {
      const v = await create(users.editor, { venue: 'Null-proof', city: 'Pécs', author: null });
      const res = await http()
        .patch(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ venue: null, city: null, date: null, phone: '1' })
        .expect(200);
      expect(res.body).toMatchObject({ venue: 'Null-proof', city: 'Pécs', phone: '1' });
      for (const date of ['0000-00-00', '-0001-01-01']) {
        const bad = await http()
          .post(`${API}/venues`)
          .set(as(users.editor))
          .send({ venue: 'Dated', date_utc: date })
          .expect(400);
        expect(bad.body.data.params).toEqual({
          date_utc: 'date_utc is outside the years 1 to 9999.',
        });
      }
    });

    it('recomputes stateprovince only when an address part is given (D8)', async () => {
      const v = await create(users.editor, { venue: 'Statey', state: 'TX' });
      const same = await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ city: 'Austin' })
        .expect(200);
      expect(same.body.stateprovince).toBe('TX');
      const moved = await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ country: 'Canada', province: 'Ontario' })
        .expect(200);
      expect(moved.body.stateprovince).toBe('Ontario');
    });

    it('publishes a draft with a slug and a publication date', async () => {
      const v = await create(users.contributor, { venue: 'Draft to publish' });
      const res = await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(users.editor))
        .send({ status: 'publish' })
        .expect(200);
      expect(res.body.status).toBe('publish');
      expect(res.body.slug).toBe('draft-to-publish');
      expect(res.body.date_utc).not.toBe('0000-00-00 00:00:00');
    });

    it('validates the id, then the fields, before permissions', async () => {
      const v = await create(users.editor, { venue: 'Guarded' });
      const eventId = await insertEvent(ds);
      const notVenue = await http().post(`${API}/venues/${eventId}`).send({}).expect(400);
      expect(notVenue.body.data.params).toEqual({ id: 'Invalid parameter.' });
      const empty = await http().post(`${API}/venues/${v.id}`).send({ venue: '' }).expect(400);
      expect(empty.body.data.params).toEqual({ venue: 'Invalid parameter.' });
      await http().post(`${API}/venues/${v.id}`).send({ city: 'x' }).expect(401);
      await http().post(`${API}/venues/${v.id}`).set(as(users.subscriber)).send({}).expect(403);
      await http().post(`${API}/venues/${v.id}`).set(as(users.author)).send({}).expect(403);
      await http().post(`${API}/venues/${v.id}`).set(as(users.contributor)).send({}).expect(403);
    });

    it('lets contributors edit their own unpublished venues only', async () => {
      const own = await create(users.contributor, { venue: 'Contributor own' });
      const res = await http()
        .post(`${API}/venues/${own.id}`)
        .set(as(users.contributor))
        .send({ city: 'Szeged', status: 'publish' })
        .expect(200);
      expect(res.body).toMatchObject({ city: 'Szeged', status: 'pending' });
      await http()
        .post(`${API}/venues/${own.id}`)
        .set(as(users.editor))
        .send({ status: 'publish' })
        .expect(200);
      await http()
        .post(`${API}/venues/${own.id}`)
        .set(as(users.contributor))
        .send({ city: 'x' })
        .expect(403);
    });

    it('updates by slug (the path slug identifies the venue)', async () => {
      await create(users.author, { venue: 'Sluggy' });
      const res = await http()
        .patch(`${API}/venues/by-slug/sluggy`)
        .set(as(users.author))
        .send({ zip: '7621' })
        .expect(200);
      expect(res.body).toMatchObject({ slug: 'sluggy', zip: '7621' });
      const unknown = await http().post(`${API}/venues/by-slug/unknown-slug`).send({}).expect(400);
      expect(unknown.body.data.params).toEqual({ slug: 'Invalid parameter.' });
    });
  });

  describe('DELETE /venues/{id}', () => {
    it('moves the venue to trash, unlinks it from every event, and answers 410 the second time', async () => {
      const v = await create(users.author, { venue: 'Trashable', city: 'Eger' });
      const events = [
        await insertEvent(ds, { venueId: v.id }),
        await insertEvent(ds, { venueId: v.id, status: 'draft' }),
      ];
      const other = await create(users.author, { venue: 'Stays linked' });
      const kept = await insertEvent(ds, { venueId: other.id });

      const res = await http().delete(`${API}/venues/${v.id}`).set(as(users.author)).expect(200);
      expect(res.body).toMatchObject({
        id: v.id,
        status: 'trash',
        slug: 'trashable',
        city: 'Eger',
      });
      for (const e of events) expect(await venueIdOf(ds, e)).toBeNull();
      expect(await venueIdOf(ds, kept)).toBe(other.id);

      const again = await http().delete(`${API}/venues/${v.id}`).set(as(users.author)).expect(410);
      expect(again.body).toEqual({
        code: 'venue-is-in-trash',
        message: 'The venue is already trashed',
        data: { status: 410 },
      });
    });

    it('checks the id before permissions and ownership after', async () => {
      const v = await create(users.editor, { venue: 'Not yours' });
      await http().delete(`${API}/venues/999999`).expect(400);
      await http().delete(`${API}/venues/${v.id}`).expect(401);
      await http().delete(`${API}/venues/${v.id}`).set(as(users.contributor)).expect(403);
      await http().delete(`${API}/venues/${v.id}`).set(as(users.author)).expect(403);
    });

    it('lets a contributor trash an own draft (and get 410 after)', async () => {
      const v = await create(users.contributor, { venue: 'Contributor trash' });
      await http().delete(`${API}/venues/${v.id}`).set(as(users.contributor)).expect(200);
      await http().delete(`${API}/venues/${v.id}`).set(as(users.contributor)).expect(410);
    });

    // Authorization matrix: a trashed record counts as unpublished for its contributor.
    it('lets a contributor still update an own trashed venue (another contributor may not)', async () => {
      const v = await create(users.contributor, { venue: 'Contributor trash edit' });
      await http().delete(`${API}/venues/${v.id}`).set(as(users.contributor)).expect(200);
      const res = await http()
        .patch(`${API}/venues/${v.id}`)
        .set(as(users.contributor))
        .send({ city: 'Pécs' })
        .expect(200);
      expect(res.body).toMatchObject({ status: 'trash', city: 'Pécs' });
      const peer = await createRoleUsers(app, '-venue-trash');
      await http()
        .patch(`${API}/venues/${v.id}`)
        .set(as(peer.contributor))
        .send({ city: 'x' })
        .expect(403);
    });

    it('deletes by slug', async () => {
      await create(users.editor, { venue: 'Slug trash' });
      const res = await http()
        .delete(`${API}/venues/by-slug/slug-trash`)
        .set(as(users.editor))
        .expect(200);
      expect(res.body.status).toBe('trash');
      await http().delete(`${API}/venues/by-slug/slug-trash`).set(as(users.editor)).expect(410);
      await http().delete(`${API}/venues/by-slug/never-was`).expect(400);
    });
  });

  describe('GET /venues (lists, §5.1/§5.3)', () => {
    // Lists use Romanian content only, so the other tests' venues stay out of the counts.
    const RO = `/ro${API}`;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      const make = async (who: Credentials, body: Record<string, unknown>) =>
        (await create(who, body, '/ro')).id as number;
      ids.temple = await make(users.editor, {
        venue: 'Le Temple',
        address: '100, Avenue du Temple',
        date: '2020-01-01 00:00:00',
      });
      ids.france = await make(users.editor, {
        venue: 'Ile venue',
        stateprovince: 'France, Ile de France',
        date: '2020-01-02 00:00:00',
      });
      ids.plain = await make(users.editor, { venue: 'Plain', date: '2020-01-03 00:00:00' });
      ids.sameDateA = await make(users.editor, { venue: 'Same A', date: '2020-01-04 00:00:00' });
      ids.sameDateB = await make(users.editor, { venue: 'Same B', date: '2020-01-04 00:00:00' });
      ids.draftOfAuthor = await make(users.author, { venue: 'Author draft', status: 'draft' });
      ids.draftOfEditor = await make(users.editor, { venue: 'Editor draft', status: 'draft' });
    });

    it('answers the envelope with totals and headers, newest first', async () => {
      const res = await http().get(`${RO}/venues`).expect(200);
      expect(Object.keys(res.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
      expect(res.headers['x-tec-total']).toBe('5');
      expect(res.headers['x-tec-totalpages']).toBe('1');
      expect(res.body.total).toBe(5);
      expect(res.body.total_pages).toBe(1);
      expect(res.body.venues.map((v: { id: number }) => v.id)).toEqual([
        ids.sameDateB,
        ids.sameDateA,
        ids.plain,
        ids.france,
        ids.temple,
      ]);
      expect(res.body.venues[0]).not.toHaveProperty('json_ld');
      const url = new URL(res.body.rest_url);
      expect(url.pathname).toBe('/ro/cal/events/v1/venues/');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        page: '1',
        per_page: '10',
        status: 'publish',
      });
    });

    it('pages with next/previous links and 404 past the last page', async () => {
      const p1 = await http().get(`${RO}/venues?per_page=2`).expect(200);
      expect(p1.body.total_pages).toBe(3);
      expect(new URL(p1.body.next_rest_url).searchParams.get('page')).toBe('2');
      expect(p1.body).not.toHaveProperty('previous_rest_url');
      const p2 = await http().get(`${RO}/venues?per_page=2&page=2`).expect(200);
      expect(Object.keys(p2.body)).toEqual([
        'venues',
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      expect(new URL(p2.body.previous_rest_url).searchParams.has('page')).toBe(false);
      const p3 = await http().get(`${RO}/venues?per_page=2&page=3`).expect(200);
      expect(p3.body.venues).toHaveLength(1);
      expect(p3.body).not.toHaveProperty('next_rest_url');
      const past = await http().get(`${RO}/venues?per_page=2&page=4`).expect(404);
      expect(past.body).toEqual({
        code: 'venue-archive-page-not-found',
        message: 'Pagina solicitată din arhiva de locații nu există',
        data: { status: 404 },
      });
      const past2 = await http().get(`${API}/venues?per_page=50&page=99`).expect(404);
      expect(past2.body.message).toBe('The requested venue archive page does not exist');
      // Regression found by test/fuzz.e2e-spec.ts: an offset past int64 answered 500.
      const far = await http().get(`${API}/venues?page=9223372036854775807`).expect(404);
      expect(far.body.code).toBe('venue-archive-page-not-found');
    });

    it('rejects bad paging and clamps per_page to 50', async () => {
      for (const q of ['per_page=0', 'page=0', 'page=x', 'per_page=1.5']) {
        const res = await http().get(`${RO}/venues?${q}`).expect(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
      const res = await http().get(`${RO}/venues?per_page=500`).expect(200);
      expect(new URL(res.body.rest_url).searchParams.get('per_page')).toBe('50');
    });

    it('answers an empty first page with 200 and zero totals', async () => {
      const res = await http().get(`${RO}/venues?search=zzzzzz`).expect(200);
      expect(res.body).toMatchObject({ venues: [], total: 0, total_pages: 0 });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    it('searches fragments within one field (§5.3)', async () => {
      const temple = await http().get(`${RO}/venues?search=temple avenue`).expect(200);
      expect(temple.body.venues.map((v: { id: number }) => v.id)).toEqual([ids.temple]);
      const france = await http().get(`${RO}/venues?search=france, ile de`).expect(200);
      expect(france.body.venues.map((v: { id: number }) => v.id)).toEqual([ids.france]);
      const mixed = await http().get(`${RO}/venues?search=plain temple`).expect(200);
      expect(mixed.body.total).toBe(0);
      const echoed = new URL(france.body.rest_url).searchParams.get('search');
      expect(echoed).toBe('france, ile de');
      await http().get(`${RO}/venues?search=`).expect(400);
    });

    it('applies status and visibility per caller (§5.2.5, CONTRACT §2)', async () => {
      const bad = await http().get(`${RO}/venues?status=draft`).expect(400);
      expect(bad.body.data.params).toEqual({ status: 'Parametru nevalid.' });
      await http().get(`${RO}/venues?status=publish`).expect(200);
      await http().get(`${RO}/venues?status=foo`).set(as(users.editor)).expect(400);

      const editor = await http().get(`${RO}/venues`).set(as(users.editor)).expect(200);
      expect(editor.body.total).toBe(7);
      expect(new URL(editor.body.rest_url).searchParams.get('status')).toBe('any');
      const drafts = await http()
        .get(`${RO}/venues?status=draft`)
        .set(as(users.editor))
        .expect(200);
      expect(drafts.body.venues.map((v: { id: number }) => v.id).sort(byNumber)).toEqual(
        [ids.draftOfAuthor, ids.draftOfEditor].sort(byNumber),
      );
      const author = await http()
        .get(`${RO}/venues?status=draft`)
        .set(as(users.author))
        .expect(200);
      expect(author.body.venues.map((v: { id: number }) => v.id)).toEqual([ids.draftOfAuthor]);
      const subscriber = await http().get(`${RO}/venues`).set(as(users.subscriber)).expect(200);
      expect(subscriber.body.total).toBe(5);
    });

    it('lists only venues of the request language', async () => {
      const en = await http().get(`${API}/venues?search=Temple&per_page=50`).expect(200);
      expect(en.body.venues.map((v: { id: number }) => v.id)).not.toContain(ids.temple);
    });

    describe('event filters', () => {
      let withPublished: number;
      let withDraftOnly: number;
      let withPast: number;
      let withPrivateUpcoming: number;
      let eventId: number;

      beforeAll(async () => {
        const make = async (venue: string) =>
          (await create(users.editor, { venue, city: 'Kolozsvár' }, '/ro')).id as number;
        withPublished = await make('Has upcoming');
        withDraftOnly = await make('Only a draft event');
        withPast = await make('Only a past event');
        withPrivateUpcoming = await make('Private upcoming');
        eventId = await insertEvent(ds, { venueId: withPublished, language: 'ro' });
        await insertEvent(ds, { venueId: withDraftOnly, status: 'draft', language: 'ro' });
        await insertEvent(ds, { venueId: withPast, start: PAST, language: 'ro' });
        await insertEvent(ds, {
          venueId: withPrivateUpcoming,
          status: 'private',
          language: 'ro',
        });
      });

      const listed = async (query: string, who?: Credentials) => {
        const req = http().get(`${RO}/venues?search=Kolozsvár&per_page=50&${query}`);
        if (who) req.set(as(who));
        const res = await req.expect(200);
        return res.body.venues.map((v: { id: number }) => v.id).sort(byNumber);
      };

      it('filters by a linked event and rejects ids that are not events', async () => {
        const res = await http().get(`${RO}/venues?event=${eventId}`).expect(200);
        expect(res.body.venues.map((v: { id: number }) => v.id)).toEqual([withPublished]);
        expect(new URL(res.body.rest_url).searchParams.get('event')).toBe(String(eventId));
        for (const bad of [String(withPublished), '999999', 'x', '0']) {
          const r = await http().get(`${RO}/venues?event=${bad}`).expect(400);
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
        expect(await listed('only_with_upcoming=1', users.editor)).toEqual(
          [withPublished, withDraftOnly, withPrivateUpcoming].sort(byNumber),
        );
        expect(await listed('only_with_upcoming=0')).toHaveLength(4);
        const res = await http().get(`${RO}/venues?only_with_upcoming=yes`).expect(200);
        expect(new URL(res.body.rest_url).searchParams.get('only_with_upcoming')).toBe('1');
      });
    });
  });

  describe('no N+1', () => {
    it('lists a page in the same number of queries whatever the page and its size', async () => {
      for (let i = 0; i < 55; i++) {
        await http()
          .post(`/hu${API}/venues`)
          .set(as(users.editor))
          .send({ venue: `Bulk venue ${i}`, city: 'Budapest', password: i % 2 ? 'x' : '' })
          .expect(201);
      }
      const count = async (perPage: number, page = 1) => {
        await coldCaches(app); // cold: list totals are cached until the next write
        const spy = vi.spyOn(ds.logger, 'logQuery');
        const res = await http()
          .get(`/hu${API}/venues?per_page=${perPage}&page=${page}`)
          .expect(200);
        expect(res.body.venues).toHaveLength(perPage);
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
    let service: VenueEventLinks;
    let config: AppConfig;
    const ctxOf = (who: Credentials | null, language: Language = 'en'): RequestContext => {
      const actor: Actor = who
        ? { user: { id: who.id, login: who.login, role: who.login as never } }
        : { user: null };
      return {
        actor,
        language,
        restBase: `http://cal.test${API}`,
        siteUrl: 'http://cal.test',
        config,
        query: {},
      };
    };

    beforeAll(() => {
      service = app.get(VenueEventLinks);
      config = app.get(APP_CONFIG);
    });

    it('embeds several venues in one query, redacting protected ones', async () => {
      const a = await create(users.editor, { venue: 'Embed A', city: 'Sopron' });
      const b = await create(users.editor, { venue: 'Embed B', city: 'Vác', password: 'pw' });
      const spy = vi.spyOn(ds.logger, 'logQuery');
      const map = await service.embedMany([a.id, b.id, a.id, 999999], ctxOf(null), {
        jsonLd: true,
      });
      expect(ownQueries(spy)).toHaveLength(1);
      spy.mockRestore();
      expect([...map.keys()].sort(byNumber)).toEqual([a.id, b.id].sort(byNumber));
      expect(map.get(a.id)).toMatchObject({ venue: 'Embed A', city: 'Sopron' });
      expect(map.get(a.id)!.json_ld).toMatchObject({ '@type': 'Place', name: 'Embed A' });
      expect(map.get(b.id)).toMatchObject({ venue: [], city: '' });
      expect(map.get(b.id)).not.toHaveProperty('json_ld');
      const plain = await service.embedMany([a.id], ctxOf(null), { jsonLd: false });
      expect(plain.get(a.id)).not.toHaveProperty('json_ld');
    });

    it('plans references without writing, then applies them in a transaction', async () => {
      const existing = await create(users.editor, { venue: 'Plan existing' });
      const ctx = ctxOf(users.contributor);
      expect(await service.planReferences(existing.id, ctx)).toEqual([{ id: existing.id }]);
      expect(await service.planReferences(String(existing.id), ctx)).toEqual([{ id: existing.id }]);
      expect(await service.planReferences({ id: existing.id, city: 'x' }, ctx)).toEqual([
        { id: existing.id },
      ]);
      expect(await service.planReferences([existing.id], ctx)).toEqual([{ id: existing.id }]);
      for (const empty of [null, '', 0, [], {}, [0]]) {
        expect(await service.planReferences(empty, ctx)).toEqual([]);
      }

      const before = Number((await ds.query('SELECT COUNT(*) AS n FROM venues'))[0].n);
      const plan = await service.planReferences({ venue: 'Inline venue', city: 'Tata' }, ctx);
      expect(Number((await ds.query('SELECT COUNT(*) AS n FROM venues'))[0].n)).toBe(before);
      const ids = await app.get(Writes).run((scope) => service.applyPlan(plan, ctx, scope));
      expect(ids).toHaveLength(1);
      const created = await http().get(`${API}/venues/${ids[0]}`).set(as(users.editor));
      expect(created.body).toMatchObject({
        venue: 'Inline venue',
        city: 'Tata',
        status: 'draft',
        author: String(users.contributor.id),
      });
      // The same inline venue again reuses it (duplicate rule).
      const again = await service.planReferences({ venue: 'inline venue' }, ctx);
      expect(await app.get(Writes).run((scope) => service.applyPlan(again, ctx, scope))).toEqual(
        ids,
      );
    });

    it('rejects invalid references with the field name, several venues with could-not-create-venue', async () => {
      const ctx = ctxOf(users.editor);
      const eventId = await insertEvent(ds);
      for (const bad of ['foo', 999999, eventId, { city: 'no name' }, { venue: 5 }, true]) {
        await expect(service.planReferences(bad, ctx)).rejects.toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { venue: { key: 'validation.invalid' } } },
        });
      }
      await expect(
        service.planReferences(
          { venue: 'Pic', image: 'https://x.example/a.png' },
          ctxOf(users.contributor),
        ),
      ).rejects.toMatchObject({ code: 'rest_invalid_param' });
      const a = await create(users.editor, { venue: 'Several A' });
      const b = await create(users.editor, { venue: 'Several B' });
      await expect(service.planReferences([a.id, b.id], ctx)).rejects.toMatchObject({
        code: 'could-not-create-venue',
        status: 400,
      });
    });

    it('tells which ids are venues', async () => {
      const v = await create(users.contributor, { venue: 'Existing check' });
      const eventId = await insertEvent(ds);
      expect(await service.existingIds([v.id, eventId, 999999])).toEqual(new Set([v.id]));
      expect(await service.existingIds([])).toEqual(new Set());
    });
  });

  describe('namespace index', () => {
    it('lists the venue routes with their args', async () => {
      const res = await http().get(API).expect(200);
      const list = res.body.routes[`${API}/venues`];
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
      expect(list.endpoints[1].args.venue).toMatchObject({ type: 'string', required: true });
      expect(list.endpoints[1].args.address).toMatchObject({ default: null, required: false });
      const item = res.body.routes[`${API}/venues/(?P<id>\\d+)`];
      expect(item.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      expect(item.endpoints[0].args.id).toMatchObject({ type: 'integer', required: true });
      expect(item.endpoints[2].args.venue.required).toBe(false);
      const slug = res.body.routes[`${API}/venues/by-slug/(?P<slug>[^/]+)`];
      expect(slug.endpoints[0].args.slug).toMatchObject({ type: 'string', required: true });
    });
  });
});
