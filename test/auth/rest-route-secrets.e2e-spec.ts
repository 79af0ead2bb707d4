import { Controller, Get, Logger, type LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createLogger } from '../../src/common/http/request-logger.js';
import { AppLogger } from '../../src/common/http/app-logger.js';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { wpError } from '../helpers/wp-error.js';

const SECRET = 'hunter2-secret';

/** A bug whose message quotes the URL it was working on, as an error from a client library does. */
@Controller('cal/events/v1/_log-probe')
class QuotingController {
  @Get('quote')
  quote() {
    throw new Error(
      `could not load /?rest_route=/cal/events/v1/events/4%3Fpassword%3D${SECRET} ` +
        `nor https://admin:${SECRET}@source.test/wp-json/?token=${SECRET}&page=2`,
    );
  }
}

type Line = Record<string, unknown>;

/**
 * `?rest_route=` carries a route, never a query (WordPress matches the whole parameter against
 * its routes' patterns, so `/events/4?password=…` is no route), and no secret reaches the log,
 * wherever it hides in a URL: the request line and the error messages alike.
 */
describe('secrets inside rest_route and logged URLs (e2e)', () => {
  const previous = (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef;
  let app: NestExpressApplication;
  let users: RoleUsers;
  const lines: Line[] = [];
  let event: { id: number; slug: string };
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    const sink = (line: string) => lines.push(JSON.parse(line) as Line);
    app = await createTestApp({ logSink: sink, controllers: [QuotingController] });
    app.useLogger(new AppLogger(createLogger(sink)));
    users = await createRoleUsers(app);
    event = (
      await http()
        .post('/cal/events/v1/events')
        .set('Authorization', users.editor.header)
        .send({
          title: 'Protected',
          description: 'Hidden text',
          start_date: '2030-05-01 10:00:00',
          end_date: '2030-05-01 12:00:00',
          status: 'publish',
          password: SECRET,
        })
        .expect(201)
    ).body;
  });
  afterAll(async () => {
    await closeApp(app);
    Logger.overrideLogger(previous ?? false);
  });
  beforeEach(() => {
    lines.length = 0;
  });

  const logged = () => JSON.stringify(lines);

  it.each([
    (id: number) => `/?rest_route=/cal/events/v1/events/${id}%3Fpassword%3D${SECRET}`,
    (id: number) =>
      `/index.php?rest_route=%2Fcal%2Fevents%2Fv1%2Fevents%2F${id}%3Fpassword%3D${SECRET}`,
    (id: number) => `/?rest_route=/tribe/events/v1/events/${id}%3Fpassword%3D${SECRET}`,
    (id: number) => `/?rest_route=/cal/events/v1/events/${id}%23x%3Fpassword%3D${SECRET}`,
  ])('a password inside the route opens nothing: no route (%#)', async (form) => {
    const res = await http().get(form(event.id)).expect(404);
    expect(res.body).toEqual(
      wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),
    );
    expect(res.text).not.toContain('Hidden text');
    expect(lines.length).toBeGreaterThan(0);
    expect(logged()).not.toContain(SECRET);
  });

  it('a slug with a query inside is no slug of the event', async () => {
    const res = await http().get(
      `/?rest_route=/cal/events/v1/events/by-slug/${event.slug}%3Fpassword%3D${SECRET}`,
    );
    expect([400, 404]).toContain(res.status);
    expect(res.text).not.toContain('Hidden text');
    expect(logged()).not.toContain(SECRET);
  });

  it('the password as a parameter of its own opens the event, and is not logged', async () => {
    const res = await http()
      .get(`/?rest_route=/cal/events/v1/events/${event.id}&password=${SECRET}`)
      .expect(200);
    expect(res.body.description).toBe('<p>Hidden text</p>');
    const line = lines.find((l) => l.status === 200);
    expect(line?.url).toBe(
      `/?rest_route=/cal/events/v1/events/${event.id}&password=%5Bredacted%5D`,
    );
    expect(logged()).not.toContain(SECRET);
  });

  it('a route without secrets keeps working and is logged as sent', async () => {
    await http().get('/?rest_route=/cal/events/v1/events&per_page=1').expect(200);
    await http().get(`/?rest_route=/cal/events/v1/events/by-slug/${event.slug}`).expect(403);
    expect(lines.map((l) => l.url)).toEqual([
      '/?rest_route=/cal/events/v1/events&per_page=1',
      `/?rest_route=/cal/events/v1/events/by-slug/${event.slug}`,
    ]);
  });

  it('an error message quoting URLs is logged without their secrets', async () => {
    await http().get('/cal/events/v1/_log-probe/quote').expect(500);
    const error = lines.find((l) => l.context === 'ExceptionsHandler' || l.level === 'error');
    expect(error).toBeDefined();
    expect(logged()).toContain('page=2');
    expect(logged()).toContain('source.test');
    expect(logged()).not.toContain(SECRET);
  });
});
