import { DataSource } from 'typeorm';
import { useTestApp } from '../helpers/app-fixture.js';

/** Concurrent writers: nothing lost, nothing mixed, no 500. */
describe('concurrent writers (e2e)', () => {
  const { app, http, users } = useTestApp();
  const body = (extra: Record<string, unknown>) => ({
    start_date: '2031-05-01 10:00:00',
    end_date: '2031-05-01 12:00:00',
    ...extra,
  });

  it('gives 100 parallel creates with one title 100 events with 100 distinct slugs', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        http()
          .post('/cal/events/v1/events')
          .set('Authorization', users.editor.header)
          .send(body({ title: 'Crowded Title' })),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const slugs = new Set(responses.map((r) => r.body.slug as string));
    expect(slugs.size).toBe(100);
    expect(slugs.has('crowded-title')).toBe(true);
    // Suffixes are unique, not necessarily contiguous: writers that lose a race skip ahead.
    for (const slug of slugs) expect(slug).toMatch(/^crowded-title(-\d+)?$/);
    const ids = new Set(responses.map((r) => r.body.id as number));
    expect(ids.size).toBe(100);
    const [{ n }] = await app()
      .get(DataSource)
      .query(`SELECT COUNT(*) AS n FROM events WHERE title = 'Crowded Title'`);
    expect(Number(n)).toBe(100);
  });

  it('never leaves a row mixing two parallel updates', async () => {
    const created = await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .send(body({ title: 'Contested', description: 'start' }))
      .expect(201);
    const id = created.body.id as number;
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        http()
          .patch(`/cal/events/v1/events/${id}`)
          .set('Authorization', users.editor.header)
          .send({ title: `Writer ${i}`, description: `Body of writer ${i}`, cost: `${i}` }),
      ),
    );
    expect(responses.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    const final = await http().get(`/cal/events/v1/events/${id}`).expect(200);
    const writer = /^Writer (\d+)$/.exec(final.body.title)?.[1];
    expect(writer).toBeDefined();
    expect(final.body.description).toBe(`<p>Body of writer ${writer}</p>`);
    expect(final.body.cost_details.values).toEqual([writer]);
  });

  it('resolves parallel inline creations of one new venue without a 500', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http()
          .post('/cal/events/v1/events')
          .set('Authorization', users.editor.header)
          .send(
            body({ title: `Venue race ${i}`, venue: { venue: 'Brand New Hall', city: 'Szeged' } }),
          ),
      ),
    );
    expect(
      responses.filter((r) => r.status !== 201).map((r) => `${r.status} ${JSON.stringify(r.body)}`),
    ).toEqual([]);
    const venueIds = new Set(responses.map((r) => r.body.venue.id as number));
    // BEHAVIOR §7.4.2: a venue with the same name is reused, so every event links one venue.
    expect(venueIds.size).toBe(1);
    const list = await http().get('/cal/events/v1/venues?search=Brand').expect(200);
    expect(list.body.total).toBe(1);
  });
});
