import type { DataSource } from 'typeorm';
import { Writes } from '../../src/database/writes.js';
import { OrganizerEventLinks } from '../../src/organizers/organizers.service.js';
import { API, describeLinkedRecords } from '../helpers/linked-record-suite.js';

/** Events list their organizers in order (BEHAVIOR §7.1.3). */
const organizersOf = async (ds: DataSource, eventId: number): Promise<number[]> =>
  (
    await ds.query(
      'SELECT organizer_id FROM event_organizers WHERE event_id = ? ORDER BY position',
      [eventId],
    )
  ).map((r: { organizer_id: number | string }) => Number(r.organizer_id));

describe('organizers (e2e)', () => {
  // What organizers share with venues (test/helpers/linked-record-suite.ts), then their own fields.
  const t = describeLinkedRecords({
    kind: 'organizer',
    detail: 'email',
    typed: 'email',
    create: {
      body: {
        organizer: 'Jane & Co',
        phone: ' 555\n0100 ',
        email: 'not-an-email',
        website: 'http://example',
      },
      slug: 'jane-co',
      ownKeys: ['slug', 'phone', 'website', 'email'],
      expected: {
        organizer: 'Jane &#038; Co',
        phone: '555 0100',
        email: 'not-an-email',
        website: 'http://example',
      },
    },
    ownSearch: [
      {
        body: { organizer: 'Ana', email: 'ana@cluj-napoca.example' },
        search: 'cluj-napoca',
        found: true,
      },
      {
        body: { organizer: 'Bogdan', website: 'https://bogdan-site.example' },
        search: 'bogdan-site',
        found: true,
      },
    ],
    protectedFields: {
      body: { email: 'p@example.org', phone: '9' },
      redacted: { email: '', phone: '' },
    },
    jsonLd: {
      type: 'Person',
      body: {
        organizer: 'Readable Org',
        description: 'One two three',
        phone: '777',
        email: 'org@example.org',
        website: 'https://org.example',
      },
      // The organizer's url is its website (TEC's Person).
      expected: () => ({
        name: 'Readable Org',
        description: '<p>One two three</p>',
        url: 'https://org.example',
        telephone: '777',
        email: 'org@example.org',
        sameAs: 'https://org.example',
      }),
      keysAfter: [],
    },
    messages: {
      roArchivePageNotFound: 'Pagina solicitată din arhiva de organizatori nu există',
      perPage: {
        en: 'The number of organizers to return on each page',
        hu: 'Az oldalanként visszaadott szervezők száma',
      },
    },
    service: OrganizerEventLinks,
    async linkEvent(ds, eventId, ids) {
      for (const [position, organizerId] of ids.entries()) {
        await ds.query(
          'INSERT INTO event_organizers (event_id, organizer_id, position) VALUES (?, ?, ?)',
          [eventId, organizerId, position],
        );
      }
    },
    linkedTo: organizersOf,
  });
  const { http, as, create } = t;

  describe('organizer fields', () => {
    it('has no venue fields', async () => {
      const o = await create(t.users.editor, { organizer: 'No map org', show_map: 'yes' });
      expect(o).not.toHaveProperty('show_map');
    });

    it('removes a trashed organizer from an event’s list and keeps the others in order', async () => {
      const a = await create(t.users.editor, { organizer: 'Trash org A' });
      const b = await create(t.users.editor, { organizer: 'Trash org B' });
      const c = await create(t.users.editor, { organizer: 'Trash org C' });
      const eventId = await t.insertEvent({ linked: [b.id, a.id, c.id] });
      await http().delete(`${API}/organizers/${a.id}`).set(as(t.users.editor)).expect(200);
      expect(await organizersOf(t.ds, eventId)).toEqual([b.id, c.id]);
    });
  });

  describe('service API for the events module', () => {
    const service = () => t.app.get(OrganizerEventLinks);

    it('plans lists, comma-separated ids and inline organizers, then applies them in order', async () => {
      const a = await create(t.users.editor, { organizer: 'Plan A' });
      const b = await create(t.users.editor, { organizer: 'Plan B' });
      const ctx = t.ctxOf(t.users.author);
      expect(await service().planReferences(`${b.id}, ${a.id}`, ctx)).toEqual([
        { id: b.id },
        { id: a.id },
      ]);
      expect(await service().planReferences('', ctx)).toEqual([]);
      const plan = await service().planReferences(
        [a.id, { organizer: 'Inline org', email: 'in@example.org' }, { id: a.id }, String(b.id)],
        ctx,
      );
      const { ids, inserted } = await t.app
        .get(Writes)
        .run((scope) => service().applyPlan(plan, ctx, scope));
      expect(ids).toHaveLength(3);
      expect(ids[0]).toBe(a.id);
      expect(ids[2]).toBe(b.id);
      // Only the inline organizer was inserted: the write's answer embeds it without a read.
      expect(inserted.map((o) => o.id)).toEqual([ids[1]]);
      const inline = await http().get(`${API}/organizers/${ids[1]}`).expect(200);
      expect(inline.body).toMatchObject({
        organizer: 'Inline org',
        email: 'in@example.org',
        status: 'publish',
        author: String(t.users.author.id),
      });
    });

    it('rejects invalid references on the organizer field', async () => {
      const ctx = t.ctxOf(t.users.editor);
      for (const bad of ['x', [1.5], `999999`, { email: 'no name' }, '1,foo']) {
        await expect(service().planReferences(bad, ctx)).rejects.toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { organizer: { key: 'validation.invalid' } } },
        });
      }
    });
  });
});
