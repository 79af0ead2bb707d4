import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { countRows } from '../helpers/database.js';

/**
 * Links are web addresses only (CONTRACT §6 "Links"): `website` and `image` given as a URL take
 * `http` and `https` URLs; any other scheme is a 400 naming the field, in the request's language.
 * A link of another scheme already stored is served as no link, by the API, the pages and the
 * feeds alike.
 */
const BASE = '/cal/events/v1';
const HOSTILE = [
  'javascript://example.org/%0aalert(1)',
  'JavaScript://example.org/%0Aalert(document.cookie)',
  'data://example.org/text/html,<script>alert(1)</script>',
  'vbscript://example.org/msgbox',
  'ftp://example.org/file',
  'http:example.org',
  ' https://example.org/',
  'https://exa mple.org/',
];

describe('links are http(s) URLs only (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let ds: DataSource;
  const http = () => request(app.getHttpServer());
  const post = (path: string, body: object, role: keyof RoleUsers = 'author') =>
    http().post(`${BASE}${path}`).set('Authorization', users[role].header).send(body);
  const event = (extra: Record<string, unknown> = {}) => ({
    title: 'Links',
    start_date: '2030-05-01 10:00:00',
    end_date: '2030-05-01 12:00:00',
    status: 'publish',
    ...extra,
  });
  const count = (table: string) => countRows(ds, table);

  beforeAll(async () => {
    // No caches: the stored-row cases change the database behind the service's back.
    app = await createTestApp({ env: { RESPONSE_CACHE_TTL_MS: '0' } });
    users = await createRoleUsers(app);
    ds = app.get(DataSource);
  });
  afterAll(() => closeApp(app));

  const routes: Array<[string, (extra: Record<string, unknown>) => object]> = [
    ['/events', event],
    ['/venues', (extra) => ({ venue: 'Hall', ...extra })],
    ['/organizers', (extra) => ({ organizer: 'Ann', ...extra })],
  ];

  describe.each(routes)('POST %s', (path, body) => {
    it.each(HOSTILE)('refuses website %j with a 400 naming website', async (website) => {
      const before = await count(path.slice(1));
      const res = await post(path, body({ website })).expect(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): website',
        data: {
          status: 400,
          params: {
            website: 'website must be an http or https URL, such as https://example.org/.',
          },
          details: [],
        },
      });
      expect(await count(path.slice(1))).toBe(before);
    });

    it('refuses a control character in a URL with a 400 naming website', async () => {
      const res = await post(path, body({ website: 'https://example.org/\u0000' })).expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(['website']);
    });

    it('refuses an image URL of another scheme with a 400 naming image', async () => {
      const res = await post(path, body({ image: 'javascript://example.org/%0aalert(1)' })).expect(
        400,
      );
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params).toEqual({
        image: 'image must be an http or https URL, such as https://example.org/.',
      });
    });

    it('says so in Hungarian and Romanian', async () => {
      const hu = await http()
        .post(`/hu${BASE}${path}`)
        .set('Authorization', users.author.header)
        .send(body({ website: 'javascript://example.org/%0aalert(1)' }))
        .expect(400);
      expect(hu.body.message).toBe('Érvénytelen paraméter(ek): website');
      expect(hu.body.data.params.website).toBe(
        'A(z) website csak http- vagy https-URL lehet, például https://example.org/.',
      );
      const ro = await http()
        .post(`${BASE}${path}?i18n_language=ro`)
        .set('Authorization', users.author.header)
        .send(body({ website: 'javascript://example.org/%0aalert(1)' }))
        .expect(400);
      expect(ro.body.data.params.website).toBe(
        'website trebuie să fie un URL http sau https, de exemplu https://example.org/.',
      );
    });

    it('refuses it on update too, and keeps the stored link', async () => {
      const created = await post(path, body({ website: 'https://example.org/a' })).expect(201);
      const res = await post(`${path}/${created.body.id}`, {
        website: 'javascript://example.org/%0aalert(1)',
      }).expect(400);
      expect(Object.keys(res.body.data.params)).toEqual(['website']);
      const read = await http().get(`${BASE}${path}/${created.body.id}`).expect(200);
      expect(read.body.website).toBe('https://example.org/a');
    });

    it('accepts http and https URLs, in any case of the scheme', async () => {
      for (const website of ['http://example', 'HTTPS://Example.org/a?b=c#d']) {
        const res = await post(path, body({ website })).expect(201);
        expect(res.body.website).toBe(website);
      }
    });
  });

  it('refuses an inline venue or organizer whose website is no web URL', async () => {
    const before = await count('events');
    for (const extra of [
      { venue: { venue: 'Inline hall', website: 'javascript://example.org/%0aalert(1)' } },
      { organizer: [{ organizer: 'Inline Ann', website: 'data://example.org/x' }] },
    ]) {
      const res = await post('/events', event(extra)).expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual([Object.keys(extra)[0]]);
    }
    expect(await count('events')).toBe(before);
  });

  it('serves a link of another scheme stored earlier as no link, anywhere', async () => {
    const venue = (await post('/venues', { venue: 'Stored hall', website: 'https://a.example/' }))
      .body;
    const organizer = (
      await post('/organizers', { organizer: 'Stored Ann', website: 'https://b.example/' })
    ).body;
    const created = (
      await post(
        '/events',
        event({
          title: 'Stored links',
          website: 'https://c.example/',
          image: 'https://c.example/poster.png',
          venue: venue.id,
          organizer: [organizer.id],
        }),
        'editor',
      ).expect(201)
    ).body;
    // What an earlier version let through, written as it would have stored it.
    const bad = 'javascript://example.org/%0aalert(1)';
    await ds.query('UPDATE events SET website = ?, image_url = ? WHERE id = ?', [
      bad,
      `${bad}.png`,
      created.id,
    ]);
    await ds.query('UPDATE venues SET website = ?, image_url = ? WHERE id = ?', [
      bad,
      `${bad}.png`,
      venue.id,
    ]);
    await ds.query('UPDATE organizers SET website = ? WHERE id = ?', [bad, organizer.id]);

    const read = (await http().get(`${BASE}/events/${created.id}`).expect(200)).body;
    expect(read.website).toBe('');
    expect(read.image).toBe(false);
    expect(read.venue).not.toHaveProperty('website');
    expect(read.venue).not.toHaveProperty('image');
    expect(read.organizer[0]).not.toHaveProperty('website');
    expect((await http().get(`${BASE}/venues/${venue.id}`).expect(200)).body).not.toHaveProperty(
      'website',
    );
    const list = await http().get(`${BASE}/events`).expect(200);
    expect(JSON.stringify(list.body)).not.toMatch(/javascript/i);

    const page = await http().get(new URL(read.url).pathname).expect(200);
    expect(page.text).not.toMatch(/javascript/i);
    const ics = await http().get(`${BASE}/events.ics`).expect(200);
    expect(ics.text).not.toMatch(/javascript/i);

    // An edit that leaves the link alone still works and does not bring it back.
    await post(`/events/${created.id}`, { title: 'Stored links, edited' }, 'editor').expect(200);
    expect((await http().get(`${BASE}/events/${created.id}`)).body.website).toBe('');
  });
});
