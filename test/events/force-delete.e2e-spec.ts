import type { RoleUsers } from '../helpers/auth.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';

/**
 * `DELETE ?force=true` (CONTRACT §3, WordPress's `force`): a record in the trash is deleted for
 * good by whoever may trash it, answering `{deleted, previous}`; a record not in the trash, an
 * occurrence or a `force` that is no boolean is a localized 400 on `force`.
 */
const BASE = '/cal/events/v1';
type Created = { id: number; venue: { id: number }; categories: Array<{ id: number }> };

describe('DELETE with force=true (e2e)', () => {
  const { http, users } = useTestApp();

  async function trashed(
    kind: 'events' | 'venues' | 'organizers',
    as: keyof RoleUsers = 'editor',
    seen: (record: Created) => void = () => {},
  ) {
    const body =
      kind === 'events'
        ? {
            title: 'Gone for good',
            start_date: '2031-05-01 10:00:00',
            end_date: '2031-05-01 11:00:00',
            venue: { venue: 'Hall kept' },
            categories: ['Kept category'],
          }
        : kind === 'venues'
          ? { venue: 'Venue gone for good' }
          : { organizer: 'Organizer gone for good' };
    const header = users[as].header;
    const { body: created } = await http()
      .post(`${BASE}/${kind}`)
      .set('Authorization', header)
      .send(body)
      .expect(201);
    seen(created);
    await http().delete(`${BASE}/${kind}/${created.id}`).set('Authorization', header).expect(200);
    return created.id as number;
  }

  it.each(['events', 'venues', 'organizers'] as const)(
    '%s: a trashed record is deleted for good and answered as WordPress does',
    async (kind) => {
      const id = await trashed(kind);
      const res = await http()
        .delete(`${BASE}/${kind}/${id}`)
        .query({ force: 'true' })
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(res.body.deleted).toBe(true);
      expect(res.body.previous).toMatchObject({ id, status: 'trash' });
      // Answered as an id that never was.
      const never = await http()
        .get(`${BASE}/${kind}/9999999`)
        .set('Authorization', users.editor.header);
      const gone = await http()
        .get(`${BASE}/${kind}/${id}`)
        .set('Authorization', users.editor.header);
      expect([gone.status, gone.body.code]).toEqual([never.status, never.body.code]);
      // Gone from the trash too: a second one is answered as for an id that never was.
      const again = await http()
        .delete(`${BASE}/${kind}/${id}?force=true`)
        .set('Authorization', users.editor.header);
      const nothing = await http()
        .delete(`${BASE}/${kind}/9999999?force=true`)
        .set('Authorization', users.editor.header);
      expect([again.status, again.body.code]).toEqual([nothing.status, nothing.body.code]);
      expect(again.status).toBeGreaterThanOrEqual(400);
    },
  );

  it('keeps what the event named: its venue and its category stay', async () => {
    let before: Created | undefined;
    const id = await trashed('events', 'editor', (record) => (before = record));
    await http()
      .delete(`${BASE}/events/${id}?force=1`)
      .set('Authorization', users.editor.header)
      .expect(200);
    await http()
      .get(`${BASE}/venues/${before!.venue.id}`)
      .set('Authorization', users.editor.header)
      .expect(200);
    await http().get(`${BASE}/categories/${before!.categories[0].id}`).expect(200);
  });

  it('a record not in the trash is a localized 400 on force, and stays', async () => {
    const { body: live } = await postEvent(http, users.editor.header, {
      title: 'Still here',
      start_date: '2031-05-02 10:00',
      end_date: '2031-05-02 11:00',
    }).expect(201);
    const res = await http()
      .delete(`/hu${BASE}/events/${live.id}`)
      .query({ force: 'true' })
      .set('Authorization', users.editor.header)
      .expect(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.status).toBe(400);
    expect(res.body.data.params.force).toContain('lomtár');
    await http()
      .get(`${BASE}/events/${live.id}`)
      .set('Authorization', users.editor.header)
      .expect(200);
  });

  it.each(['maybe', 'yes', ''])('force=%j: a boolean or nothing (%#)', async (value) => {
    const id = await trashed('venues');
    const res = await http()
      .delete(`${BASE}/venues/${id}`)
      .query({ force: value })
      .set('Authorization', users.editor.header);
    // '' is false, as WordPress reads it: a second trash is the 410.
    expect(res.status).toBe(value === '' ? 410 : 400);
    if (value !== '') expect(Object.keys(res.body.data.params)).toEqual(['force']);
  });

  it('an occurrence is never in the trash: force is a 400', async () => {
    const { body: series } = await postEvent(http, users.editor.header, {
      title: 'A weekly thing',
      start_date: '2031-06-02 10:00:00',
      end_date: '2031-06-02 11:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
    }).expect(201);
    const { body: list } = await http()
      .get(`${BASE}/events`)
      .query({ start_date: '2031-06-01', end_date: '2031-06-30', search: 'A weekly thing' })
      .set('Authorization', users.editor.header)
      .expect(200);
    const occurrence = (list.events as Array<{ id: number }>).find((e) => e.id !== series.id)!;
    await http()
      .delete(`${BASE}/events/${occurrence.id}?force=true`)
      .set('Authorization', users.editor.header)
      .expect(400);
  });

  it('only those who may trash it delete it for good', async () => {
    const id = await trashed('events');
    await http().delete(`${BASE}/events/${id}?force=true`).expect(401);
    await http()
      .delete(`${BASE}/events/${id}?force=true`)
      .set('Authorization', users.contributor.header)
      .expect(403);
    await http()
      .delete(`${BASE}/events/${id}?force=true`)
      .set('Authorization', users.subscriber.header)
      .expect(403);
    // A contributor's own trashed draft is theirs to delete, as in WordPress.
    const own = await trashed('organizers', 'contributor');
    await http()
      .delete(`${BASE}/organizers/${own}?force=true`)
      .set('Authorization', users.contributor.header)
      .expect(200);
  });
});
