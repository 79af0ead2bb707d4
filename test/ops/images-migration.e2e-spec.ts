import { DataSource } from 'typeorm';
import { createRoleUsers } from '../helpers/auth.js';
import { useAppAfterMigration } from '../helpers/schema-before.js';

const BASE = '/cal/events/v1';

/**
 * Images1764300000000 on data written before it: records carrying an image URL get the image
 * record of their URL (BEHAVIOR §4.6), one per URL, with ids of the shared post sequence.
 */
describe('images migration on existing data (e2e)', () => {
  const { app, http } = useAppAfterMigration('Images', async (q) => {
    for (const [id, kind] of [
      [1, 'event'],
      [2, 'venue'],
      [3, 'organizer'],
      [4, 'event'],
    ] as const) {
      await q('INSERT INTO post_ids (id, kind) VALUES (?, ?)', [id, kind]);
    }
    const common = `status, title, slug, description, excerpt, date, date_utc, modified,
      modified_utc, language, image_url`;
    const values = `'publish', ?, ?, '', '', '2020-01-01 00:00:00', '2020-01-01 00:00:00',
      '2020-01-01 00:00:00', '2020-01-01 00:00:00', 'en', ?`;
    const event = (id: number, image: string | null) =>
      q(
        `INSERT INTO events (id, ${common}, start_date, end_date, start_utc, end_utc, timezone,
           cost) VALUES (?, ${values}, '2030-01-01 10:00:00', '2030-01-01 11:00:00',
           '2030-01-01 10:00:00', '2030-01-01 11:00:00', 'UTC', '[]')`,
        [id, `Event ${id}`, `event-${id}`, image],
      );
    await event(1, 'https://img.example.org/shared.png');
    await event(4, null);
    await q(`INSERT INTO venues (id, ${common}) VALUES (?, ${values})`, [
      2,
      'Hall',
      'hall',
      'https://img.example.org/shared.png',
    ]);
    await q(`INSERT INTO organizers (id, ${common}) VALUES (?, ${values})`, [
      3,
      'Org',
      'org',
      'https://img.example.org/own.webp',
    ]);
  });

  it('gives every image URL one image record, shared by the records naming it', async () => {
    const event = (await http().get(`${BASE}/events/1`).expect(200)).body;
    const venue = (await http().get(`${BASE}/venues/2`).expect(200)).body;
    const organizer = (await http().get(`${BASE}/organizers/3`).expect(200)).body;
    expect(event.image).toEqual({
      url: 'https://img.example.org/shared.png',
      id: expect.any(Number),
      extension: 'png',
    });
    expect(venue.image).toEqual(event.image);
    expect(organizer.image).toMatchObject({ url: 'https://img.example.org/own.webp' });
    const ids = [event.image.id, organizer.image.id];
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toBeGreaterThan(4);
    expect((await http().get(`${BASE}/events/4`).expect(200)).body.image).toBe(false);
    // The ids are taken from the shared sequence: no record of another kind can have them.
    await http().get(`${BASE}/venues/${event.image.id}`).expect(400);
    const kinds = await app()
      .get(DataSource)
      .query(`SELECT kind FROM post_ids WHERE id IN (?, ?)`, ids);
    expect(kinds.map((r: { kind: string }) => r.kind)).toEqual(['image', 'image']);
  });

  it('reuses a migrated image record for a new record naming its URL', async () => {
    const event = (await http().get(`${BASE}/events/1`).expect(200)).body;
    const { editor } = await createRoleUsers(app());
    const created = await http()
      .post(`${BASE}/organizers`)
      .set('Authorization', editor.header)
      .send({ organizer: 'New org', image: 'https://img.example.org/shared.png' })
      .expect(201);
    expect(created.body.image.id).toBe(event.image.id);
  });
});
