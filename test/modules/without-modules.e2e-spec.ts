import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DateTime } from 'luxon';
import { AppModule } from '../../src/app.module.js';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';

const BASE = '/cal/events/v1';
const SRC = join(import.meta.dirname, '..', '..', 'src');
const day = (offset: number) =>
  `${DateTime.utc().plus({ days: offset }).toFormat('yyyy-MM-dd')} 10:00:00`;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The core without its extension modules (issue 49): nothing outside a module's folder names it
 * but its line in src/extension-modules.ts, and the application built without them serves the
 * core's smoke path (list, read, write, filters, documents) with none of their fields.
 */
describe('the core without extension modules (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());

  it('names a module only in its folder and its registration line', () => {
    const naming = sources(SRC)
      .filter((file) => !relative(SRC, file).startsWith('modules/'))
      .filter((file) => /modules\/virtual-events/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(naming).toEqual(['extension-modules.ts']);
  });

  describe('served', () => {
    beforeAll(async () => {
      app = await createTestApp({ module: AppModule.withExtensions([]) });
      users = await createRoleUsers(app);
    }, 60_000);
    afterAll(() => closeApp(app));

    it('lists, reads, writes and trashes events without the modules’ fields', async () => {
      const venue = await http()
        .post(`${BASE}/venues`)
        .set('Authorization', users.editor.header)
        .send({ venue: 'Hall', geo_lat: 47.5, geo_lng: 19.04 })
        .expect(201);
      const created = await http()
        .post(`${BASE}/events`)
        .set('Authorization', users.editor.header)
        .send({
          title: 'Core only',
          start_date: day(1),
          end_date: day(1),
          venue: venue.body.id,
          // Unknown to this build: ignored, as any undeclared field.
          is_virtual: true,
        })
        .expect(201);
      expect(created.body).not.toHaveProperty('is_virtual');
      const read = await http().get(`${BASE}/events/${created.body.id}`).expect(200);
      expect(read.body).not.toHaveProperty('virtual_url');
      expect(read.body.json_ld.eventAttendanceMode).toBe(
        'https://schema.org/OfflineEventAttendanceMode',
      );
      const list = await http().get(`${BASE}/events?virtual=maybe`).expect(200);
      expect(list.body.events.map((e: { id: number }) => e.id)).toContain(created.body.id);
      // Geolocation is the core's own contributor of the surface.
      const fenced = await http()
        .get(`${BASE}/events?geoloc_lat=47.5&geoloc_lng=19.04`)
        .expect(200);
      expect(fenced.body.events.map((e: { id: number }) => e.id)).toEqual([created.body.id]);
      await http().get(`${BASE}/events?geoloc_lat=100&geoloc_lng=0`).expect(400);
      await http()
        .post(`${BASE}/events/${created.body.id}`)
        .set('Authorization', users.editor.header)
        .send({ title: 'Core only, renamed' })
        .expect(200);
      await http()
        .delete(`${BASE}/events/${created.body.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
    });

    it('documents none of the modules’ fields or parameters', async () => {
      const doc = (await http().get(`${BASE}/doc`).expect(200)).body;
      expect(doc.components.schemas.Event.properties).not.toHaveProperty('is_virtual');
      const names = doc.paths['/events'].get.parameters.map((p: { name: string }) => p.name);
      expect(names).not.toContain('virtual');
      expect(names).toContain('geoloc_lat');
    });
  });
});
