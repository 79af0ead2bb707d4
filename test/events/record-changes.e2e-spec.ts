import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { Writes, type RecordChange } from '../../src/database/writes.js';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { captureExpectedLogs } from '../helpers/expected-logs.js';

const API = '/cal/events/v1';

/**
 * The post-commit seam: every committed write tells the listeners of Writes which
 * records it changed — after the commit, once, and never for a write that failed.
 */
describe('record changes after commit (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let seen: RecordChange[][];
  let unsubscribe: () => void;
  const http = () => request(app.getHttpServer());
  const as = (role: keyof RoleUsers) => ({ Authorization: users[role].header });

  beforeAll(async () => {
    app = await createTestApp();
    users = await createRoleUsers(app);
    unsubscribe = app.get(Writes).onCommit((changes) => {
      seen.push([...changes]);
    });
  });
  beforeEach(() => {
    seen = [];
  });
  afterAll(async () => {
    unsubscribe();
    await closeApp(app);
  });

  it('reports an event created with an inline venue, a new organizer and new terms', async () => {
    const res = await http()
      .post(`${API}/events`)
      .set(as('editor'))
      .send({
        title: 'Seam',
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
        venue: { venue: 'Seam Hall', city: 'Győr' },
        organizer: [{ organizer: 'Seam Org' }],
        categories: ['Seam Category'],
        tags: ['Seam Tag'],
      })
      .expect(201);
    expect(seen).toHaveLength(1);
    const changes = seen[0];
    expect(changes).toEqual(
      expect.arrayContaining([
        { kind: 'event', id: res.body.id, action: 'created' },
        { kind: 'venue', id: res.body.venue.id, action: 'created' },
        { kind: 'organizer', id: res.body.organizer[0].id, action: 'created' },
        { kind: 'category', id: res.body.categories[0].id, action: 'created' },
        { kind: 'tag', id: res.body.tags[0].id, action: 'created' },
      ]),
    );
    expect(changes).toHaveLength(5);
    // The listener sees data that is committed: it can read it through the API at once.
    expect(Object.isFrozen(changes[0])).toBe(true);
  });

  it('reports updates and trash of events, venues and organizers, and term deletes', async () => {
    const event = await http()
      .post(`${API}/events`)
      .set(as('editor'))
      .send({ title: 'Seam 2', start_date: '2031-01-02 10:00:00', end_date: '2031-01-02 11:00' })
      .expect(201);
    const venue = await http().post(`${API}/venues`).set(as('editor')).send({ venue: 'V2' });
    const tag = await http().post(`${API}/tags`).set(as('editor')).send({ name: 'Seam T2' });
    /** Updates the record at `path` (`events/12`) with `change`, then trashes it. */
    const updateThenTrash = async (path: string, change: object) => {
      await http().post(`${API}/${path}`).set(as('editor')).send(change).expect(200);
      await http().delete(`${API}/${path}`).set(as('editor')).expect(200);
    };
    seen = [];
    await updateThenTrash(`events/${event.body.id}`, { title: 'Seam 2b' });
    await updateThenTrash(`venues/${venue.body.id}`, { city: 'Pécs' });
    await http().delete(`${API}/tags/${tag.body.id}`).set(as('editor')).expect(200);
    expect(seen).toEqual([
      [{ kind: 'event', id: event.body.id, action: 'updated' }],
      [{ kind: 'event', id: event.body.id, action: 'trashed' }],
      [{ kind: 'venue', id: venue.body.id, action: 'updated' }],
      [{ kind: 'venue', id: venue.body.id, action: 'trashed' }],
      [{ kind: 'tag', id: tag.body.id, action: 'deleted' }],
    ]);
  });

  it('reports nothing for a refused or rolled-back write, and a failing listener harms nothing', async () => {
    await http()
      .post(`${API}/events`)
      .set(as('subscriber'))
      .send({ title: 'x', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' })
      .expect(403);
    await expect(
      app.get(Writes).run(async ({ changed }) => {
        changed('event', 1, 'updated');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(seen).toEqual([]);

    const off = app.get(Writes).onCommit(() => {
      throw new Error('listener down');
    });
    const offAsync = app.get(Writes).onCommit(() => Promise.reject(new Error('async down')));
    const logs = captureExpectedLogs();
    try {
      await http()
        .post(`${API}/organizers`)
        .set(as('editor'))
        .send({ organizer: 'Still written' })
        .expect(201);
      expect(seen).toHaveLength(1);
      // Both failures are logged, after the answer has gone.
      await new Promise((resolve) => setImmediate(resolve));
      expect(logs.lines).toEqual([
        'ERROR Writes: a change listener failed: listener down',
        'ERROR Writes: a change listener failed: async down',
      ]);
    } finally {
      logs.restore();
      off();
      offAsync();
    }
  });
});
