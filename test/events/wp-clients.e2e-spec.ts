import { createRequire } from 'node:module';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { freePort } from '../helpers/spawn.js';

/** node-wpapi has no types of its own: the part of its interface this test uses. */
interface WpRequest extends PromiseLike<unknown> {
  id(id: number): WpRequest;
  param(name: string, value: unknown): WpRequest;
  get(): Promise<unknown>;
  create(data: object): Promise<unknown>;
  update(data: object): Promise<unknown>;
  delete(): Promise<unknown>;
}
interface WpSite {
  auth(credentials: { username: string; password: string }): WpSite;
  namespace(name: string): Record<string, () => WpRequest>;
}
const require = createRequire(import.meta.url);
const WPAPI = require('wpapi') as { discover(url: string): Promise<WpSite> };
/** Loaded as WordPress's scripts load it (its CommonJS build), with its own types. */
const apiFetch = (require('@wordpress/api-fetch') as typeof import('@wordpress/api-fetch')).default;

type Body = Record<string, unknown>;
type Event = Body & { id: number; title: string; status: string };

/**
 * Two WordPress REST clients run unchanged against the server (issue 45):
 * `@wordpress/api-fetch` with the middlewares WordPress gives it (its defaults: user locale,
 * HTTP/1.0 method override, and the root URL WordPress configures), pretty and plain-permalink
 * roots, and node-wpapi, which discovers the site from its home page. Every effect is checked by
 * reading the record back through the server.
 */
describe('WordPress REST clients, unchanged (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let site: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    app = await createTestApp({ env: { SITE_URL: site } });
    await app.listen(port, '127.0.0.1');
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  const readBack = (id: number) =>
    http().get(`/cal/events/v1/events/${id}`).set('Authorization', users.editor.header);

  for (const root of ['/wp-json/', '/?rest_route=/']) {
    it(`@wordpress/api-fetch reads, creates, updates and deletes (root ${root})`, async () => {
      // As WordPress configures it for the block editor: its root URL, credentials per request
      // (an application password here, where WordPress would add its nonce middleware).
      const fetcher = apiFetch;
      const rootMiddleware = fetcher.createRootURLMiddleware(`${site}${root}`);
      fetcher.use(rootMiddleware);
      try {
        const headers = { Authorization: users.editor.header };
        const created = (await fetcher({
          path: '/tribe/events/v1/events',
          method: 'POST',
          data: {
            title: 'api-fetch event',
            start_date: '2030-07-01 10:00',
            end_date: '2030-07-01 12:00',
            status: 'publish',
          },
          headers,
        })) as Event;
        expect(created).toMatchObject({ title: 'api-fetch event', status: 'publish' });
        expect((await readBack(created.id).expect(200)).body.title).toBe('api-fetch event');

        const read = (await fetcher({
          path: `/tribe/events/v1/events/${created.id}?_fields=id,title`,
        })) as Body;
        expect(read).toEqual({ id: created.id, title: 'api-fetch event' });
        const list = (await fetcher({
          path: '/tribe/events/v1/events?search=api-fetch&start_date=2030-01-01&end_date=2031-01-01',
        })) as { events: Event[] };
        expect(list.events.map((e) => e.id)).toContain(created.id);

        // PUT, PATCH and DELETE leave as POST with X-HTTP-Method-Override (httpV1Middleware).
        const put = (await fetcher({
          path: `/tribe/events/v1/events/${created.id}`,
          method: 'PUT',
          data: { title: 'api-fetch event, put' },
          headers,
        })) as Event;
        expect(put.title).toBe('api-fetch event, put');
        await fetcher({
          path: `/tribe/events/v1/events/${created.id}`,
          method: 'PATCH',
          data: { description: 'Patched through api-fetch' },
          headers,
        });
        const patched = (await readBack(created.id).expect(200)).body as Body;
        expect(patched).toMatchObject({ title: 'api-fetch event, put', status: 'publish' });
        expect(patched.description).toContain('Patched through api-fetch');

        const deleted = (await fetcher({
          path: `/tribe/events/v1/events/${created.id}`,
          method: 'DELETE',
          headers,
        })) as Event;
        expect(deleted).toMatchObject({ id: created.id, status: 'trash' });
        expect((await readBack(created.id)).status).toBeGreaterThanOrEqual(400);
        const after = (await fetcher({
          path: '/tribe/events/v1/events?search=api-fetch&start_date=2030-01-01&end_date=2031-01-01',
        })) as { events: Event[] };
        expect(after.events.map((e) => e.id)).not.toContain(created.id);

        // Errors come back as WordPress errors, which api-fetch throws.
        await expect(
          fetcher({ path: `/tribe/events/v1/events/${created.id}`, method: 'DELETE' }),
        ).rejects.toMatchObject({ code: 'rest_forbidden' });
      } finally {
        fetcher.unregister(rootMiddleware);
      }
    });
  }

  it('node-wpapi discovers the site from its home page, then reads, creates, updates and deletes', async () => {
    const [login, password] = Buffer.from(users.editor.header.slice('Basic '.length), 'base64')
      .toString()
      .split(':');
    const discovered = await WPAPI.discover(`${site}/`);
    const wp = discovered.auth({ username: login, password });
    const tec = wp.namespace('tribe/events/v1');

    const created = (await tec.events().create({
      title: 'wpapi event',
      start_date: '2030-08-01 10:00',
      end_date: '2030-08-01 12:00',
      status: 'publish',
    })) as Event;
    expect(created).toMatchObject({ title: 'wpapi event', status: 'publish' });
    expect((await readBack(created.id).expect(200)).body.title).toBe('wpapi event');

    const read = (await tec.events().id(created.id).get()) as Event;
    expect(read).toMatchObject({ id: created.id, title: 'wpapi event' });
    const list = (await tec
      .events()
      .param('search', 'wpapi')
      .param('start_date', '2030-01-01')
      .param('end_date', '2031-01-01')
      .get()) as { events: Event[] };
    expect(list.events.map((e) => e.id)).toEqual([created.id]);

    const updated = (await tec
      .events()
      .id(created.id)
      .update({ title: 'wpapi event, updated' })) as Event;
    expect(updated.title).toBe('wpapi event, updated');
    expect((await readBack(created.id).expect(200)).body.title).toBe('wpapi event, updated');

    const deleted = (await tec.events().id(created.id).delete()) as Event;
    expect(deleted).toMatchObject({ id: created.id, status: 'trash' });
    expect((await readBack(created.id)).status).toBeGreaterThanOrEqual(400);
  });
});
