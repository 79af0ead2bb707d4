import request from 'supertest';
import { WriteVersion } from '../../src/cache/write-version.js';
import { countQueries } from '../helpers/query-counter.js';
import { useTestApp } from '../helpers/app-fixture.js';

const API = '/cal/events/v1';

/**
 * Invalidation by what changed, not by what was sent (docs/caches.md): an editor's screen, the
 * console and sync clients send the whole form on every save, the venue, organizers, terms, cost
 * and description as they were. Such a save must invalidate what a save of its real changes
 * alone does, and a real change of a link still invalidates what it touches.
 */
describe('whole-form saves (e2e)', () => {
  const { app, http, users } = useTestApp();
  let form: Record<string, unknown>;
  let id: number;
  const editor = () => ({ Authorization: users.editor.header });

  beforeAll(async () => {
    const venue = await http()
      .post(`${API}/venues`)
      .set(editor())
      .send({ venue: 'Form Hall', city: 'Pécs' })
      .expect(201);
    const organizers = await Promise.all(
      ['Form Org A', 'Form Org B'].map(async (organizer) => {
        const res = await http().post(`${API}/organizers`).set(editor()).send({ organizer });
        return res.body.id as number;
      }),
    );
    form = {
      description: '<p>The same description every time.</p>',
      start_date: '2094-03-10 18:00:00',
      end_date: '2094-03-10 20:00:00',
      venue: venue.body.id,
      organizer: organizers,
      categories: ['Form Category'],
      tags: ['form-tag-a', 'Form Tag B'],
      cost: '12',
      status: 'publish',
    };
    const created = await http()
      .post(`${API}/events`)
      .set(editor())
      .send({ ...form, title: 'Form event' })
      .expect(201);
    id = created.body.id as number;
    // Another published event carrying the same terms: their payloads embed the counts.
    await http()
      .post(`${API}/events`)
      .set(editor())
      .send({ ...form, title: 'Form neighbour', start_date: '2094-03-11 18:00:00' })
      .expect(201);
  });

  /** The tags each bump of the write version named while `write` ran, sorted. */
  async function tagsOf(write: () => Promise<unknown>): Promise<string[][]> {
    const bumps: string[][] = [];
    const stop = app()
      .get(WriteVersion)
      .onBump((_, tags) => bumps.push([...(tags ?? ['*'])].sort()));
    try {
      await write();
    } finally {
      stop();
    }
    return bumps;
  }
  const save = (body: Record<string, unknown>) =>
    http().post(`${API}/events/${id}`).set(editor()).send(body).expect(200);

  it('a whole form with only a new title invalidates exactly what a title-only save does', async () => {
    const titleOnly = await tagsOf(() => save({ title: 'Form event, title only' }));
    let answer!: request.Response;
    const wholeForm = await tagsOf(async () => {
      answer = await save({ ...form, title: 'Form event, whole form' });
    });
    expect(titleOnly).toHaveLength(1);
    expect(wholeForm).toEqual(titleOnly);
    // Only searches of its window move; no term, no term count, no list of other filters.
    expect(wholeForm[0].some((tag) => tag.startsWith('events-text@'))).toBe(true);
    expect(wholeForm[0].filter((tag) => /^(term|events@|term-counts)/.test(tag))).toEqual([]);
    // The answer is the event as it is: its links and terms kept, in order.
    expect(answer.body.title).toBe('Form event, whole form');
    expect(answer.body.organizer.map((o: { id: number }) => o.id)).toEqual(form.organizer);
    expect(answer.body.categories.map((c: { name: string }) => c.name)).toEqual(['Form Category']);
    expect(answer.body.tags.map((t: { slug: string }) => t.slug).sort()).toEqual([
      'form-tag-a',
      'form-tag-b',
    ]);
    // The same terms by id and the organizers by id in a string change nothing either.
    const byIds = await tagsOf(() =>
      save({
        ...form,
        title: 'Form event, by ids',
        categories: answer.body.categories.map((c: { id: number }) => c.id),
        tags: answer.body.tags.map((t: { id: number }) => String(t.id)).toReversed(),
        organizer: (form.organizer as number[]).join(','),
      }),
    );
    expect(byIds).toEqual(titleOnly);
  });

  it('rewrites no unchanged link: a whole form costs only the reads that compare', async () => {
    const whole = await countQueries(app(), () => save({ ...form, title: 'Counted whole form' }));
    const title = await countQueries(app(), () => save({ title: 'Counted title' }));
    // The references are checked (venue, organizers), the terms looked up and the links read to
    // compare (organizers, terms): never deleted, inserted or recounted (as they were before).
    expect(whole - title).toBeLessThanOrEqual(5);
  });

  it('a real change of a link still invalidates what it touches', async () => {
    const organizers = form.organizer as number[];
    const reordered = await tagsOf(() =>
      save({ ...form, title: 'Reordered', organizer: organizers.toReversed() }),
    );
    expect(reordered[0].some((tag) => tag.startsWith('events@'))).toBe(true);
    const answer = await http().get(`${API}/events/${id}`).expect(200);
    expect(answer.body.organizer.map((o: { id: number }) => o.id)).toEqual(organizers.toReversed());

    const retagged = await tagsOf(() =>
      save({ ...form, title: 'Retagged', tags: ['form-tag-a', 'Form Tag C'] }),
    );
    const tags = retagged[0];
    expect(tags.some((tag) => tag.startsWith('events@'))).toBe(true);
    expect(tags).toContain('term-counts');
    const after = await http().get(`${API}/tags?search=form`).expect(200);
    const counts = Object.fromEntries(
      after.body.tags.map((t: { slug: string; count: number }) => [t.slug, t.count]),
    );
    // The neighbour still carries B; the event carries A and C.
    expect(counts).toEqual({ 'form-tag-a': 2, 'form-tag-b': 1, 'form-tag-c': 1 });

    // Back to the form's terms: the counts follow (an empty tag is not listed).
    await save({ ...form, title: 'Back' });
    const back = await http().get(`${API}/tags?search=form`).expect(200);
    expect(
      Object.fromEntries(
        back.body.tags.map((t: { slug: string; count: number }) => [t.slug, t.count]),
      ),
    ).toEqual({ 'form-tag-a': 2, 'form-tag-b': 2 });
  });
});
