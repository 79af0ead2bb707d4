import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from './helpers/auth.js';
import { closeApp, createTestApp } from './helpers/create-test-app.js';

/** What a newcomer's first requests meet (issue 52). */
describe('the first hour (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp();
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  const json = JSON.stringify({
    title: 'Jazz night',
    start_date: 'tomorrow 8pm',
    end_date: 'tomorrow 11pm',
  });

  it.each([
    ['', 'Missing parameter(s): title, start_date, end_date', 'Content-Type: application/json'],
    [
      '/hu',
      'Hiányzó paraméter(ek): title, start_date, end_date',
      'Content-Type: application/json fejléccel',
    ],
    [
      '/ro',
      'Parametri lipsă: title, start_date, end_date',
      'cu antetul Content-Type: application/json',
    ],
  ])(
    "a JSON body sent as a form (curl -d) keeps the plugin's code and says which header is missing (%s)",
    async (prefix, plugin, hint) => {
      const res = await http()
        .post(`${prefix}/cal/events/v1/events`)
        .set('Authorization', users.editor.header)
        .type('form')
        .send(json)
        .expect(400);
      expect(res.body.code).toBe('rest_missing_callback_param');
      expect(res.body.message.startsWith(`${plugin} `)).toBe(true);
      expect(res.body.message).toContain(hint);
      expect(res.body.data.status).toBe(400);
      // Nothing was written.
      const list = await http()
        .get('/cal/events/v1/events')
        .set('Authorization', users.editor.header);
      expect(list.body.events ?? []).toHaveLength(0);
    },
  );

  it('a real form, or JSON with its header, gets no hint', async () => {
    const form = await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .type('form')
      .send('title=Jazz')
      .expect(400);
    expect(form.body.message).toBe('Missing parameter(s): start_date, end_date');
    const missing = await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .send({ title: 'Jazz' })
      .expect(400);
    expect(missing.body.message).toBe('Missing parameter(s): start_date, end_date');
    await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .set('Content-Type', 'application/json')
      .send(json)
      .expect(201);
  });
});
