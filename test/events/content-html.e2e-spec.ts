import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';

/**
 * CONTRACT §6 "Content HTML": titles, descriptions and excerpts written by authors and
 * contributors are stored filtered to WordPress's allowlists; editors' and administrators' are
 * stored as sent. Checked on the stored row and on what the API serves.
 */
const API = '/cal/events/v1';
const EVIL =
  '<p onclick="x()">Hi <a href="javascript:alert(1)">a</a> <a href=" jav&#x09;ascript:alert(2)">b</a>' +
  '<img src=x onerror=alert(3)></p><script>alert(4)</script>' +
  '<noscript><p title="</noscript><img src=x onerror=alert(5)>"></noscript>';
const UNSAFE = /<script|onerror|onclick|javascript:|<noscript/i;

describe('Content HTML by role (CONTRACT §6)', () => {
  let app: NestExpressApplication;
  let ds: DataSource;
  let users: RoleUsers;

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.get(DataSource);
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  const stored = async (table: string, id: number) =>
    (await ds.query(`SELECT title, description FROM ${table} WHERE id = ?`, [id]))[0] as {
      title: string;
      description: string;
    };

  const createEvent = (header: string, body: Record<string, unknown>) =>
    request(app.getHttpServer())
      .post(`${API}/events`)
      .set('Authorization', header)
      .send({ start_date: '2099-01-01 10:00:00', end_date: '2099-01-01 11:00:00', ...body });

  it("filters an author's event description, excerpt and title", async () => {
    const res = await createEvent(users.author.header, {
      title: 'Party <script>alert(1)</script><b>now</b>',
      description: EVIL,
      excerpt: '<a href="data:text/html,x" title="t">see</a> <em>more</em>',
    });
    expect(res.status).toBe(201);
    const row = await stored('events', res.body.id);
    expect(row.description).not.toMatch(UNSAFE);
    expect(row.description).toContain('<p>Hi <a>a</a> <a>b</a>');
    expect(row.title).toBe('Party alert(1)<b>now</b>');
    expect(res.body.description).not.toMatch(UNSAFE);
    expect(res.body.excerpt).toBe('<p><a title="t">see</a> <em>more</em></p>');
    expect(res.body.title).toBe('Party alert(1)<b>now</b>');
  });

  it('filters a contributor, and on update too', async () => {
    const created = await createEvent(users.contributor.header, {
      title: 'Draft',
      description: 'Plain',
    });
    expect(created.status).toBe(201);
    const updated = await request(app.getHttpServer())
      .post(`${API}/events/${created.body.id}`)
      .set('Authorization', users.contributor.header)
      .send({ description: EVIL });
    expect(updated.status).toBe(200);
    expect((await stored('events', created.body.id)).description).not.toMatch(UNSAFE);
  });

  it("stores an editor's and an administrator's HTML as sent", async () => {
    for (const role of ['editor', 'administrator'] as const) {
      const res = await createEvent(users[role].header, { title: 'Open', description: EVIL });
      expect(res.status).toBe(201);
      expect((await stored('events', res.body.id)).description).toBe(EVIL);
    }
  });

  it('filters venues and organizers, including those created inside an event write', async () => {
    const venue = await request(app.getHttpServer())
      .post(`${API}/venues`)
      .set('Authorization', users.author.header)
      .send({ venue: 'Hall <img src=x onerror=alert(1)>', description: EVIL });
    expect(venue.status).toBe(201);
    const venueRow = await stored('venues', venue.body.id);
    expect(venueRow.description).not.toMatch(UNSAFE);
    expect(venueRow.title).toBe('Hall ');

    const event = await createEvent(users.author.header, {
      title: 'With inline records',
      venue: { venue: 'Inline hall', description: EVIL },
      organizer: [{ organizer: 'Inline org', description: EVIL }],
    });
    expect(event.status).toBe(201);
    expect((await stored('venues', event.body.venue.id)).description).not.toMatch(UNSAFE);
    expect((await stored('organizers', event.body.organizer[0].id)).description).not.toMatch(
      UNSAFE,
    );

    const editorOrganizer = await request(app.getHttpServer())
      .post(`${API}/organizers`)
      .set('Authorization', users.editor.header)
      .send({ organizer: 'Editor org', description: EVIL });
    expect(editorOrganizer.status).toBe(201);
    expect((await stored('organizers', editorOrganizer.body.id)).description).toBe(EVIL);
  });
});
