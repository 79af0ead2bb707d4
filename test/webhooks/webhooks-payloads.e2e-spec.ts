import type { RecordKind } from '../../src/common/records/record-kinds.js';
import { RecordPayloads, type Audience } from '../../src/webhooks/record-payloads.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';
import { useTestApp } from '../helpers/app-fixture.js';

const API = '/cal/events/v1';
/** Records of each pattern below: a small batch takes one of each, a large one all. */
const GROUPS = 5;

/**
 * The records of a batch of webhook messages (CONTRACT "Webhooks": `record` as GET by ID
 * answers it, to an anonymous reader or to an administrator with context=edit), rendered
 * together: the same payloads as one GET each, in a number of statements that does not grow
 * with the batch.
 */
describe('webhook payloads of a batch (e2e)', () => {
  const { app, http, users } = useTestApp();
  const ids: Record<RecordKind, number[]> = {
    event: [],
    venue: [],
    organizer: [],
    category: [],
    tag: [],
  };
  const paths: Record<RecordKind, string> = {
    event: 'events',
    venue: 'venues',
    organizer: 'organizers',
    category: 'categories',
    tag: 'tags',
  };

  beforeAll(async () => {
    const post = async (path: string, body: object) => {
      const res = await http()
        .post(`${API}/${path}`)
        .set({ Authorization: users.administrator.header })
        .send(body);
      expect([path, res.status]).toEqual([path, 201]);
      return res.body as { id: number; venue?: { id: number }; organizer?: Array<{ id: number }> };
    };
    for (let g = 1; g <= GROUPS; g++) {
      const dates = { start_date: `2096-02-0${g} 10:00`, end_date: `2096-02-0${g} 12:00` };
      const linked = {
        venue: { venue: `Batch hall ${g}`, city: 'Cluj' },
        organizer: [{ organizer: `Batch org ${g}` }],
        categories: [`Batch category ${g}`],
        tags: [`Batch tag ${g}`],
      };
      // Each pattern once per group: published with everything linked, recurring, a draft,
      // protected by a password, trashed.
      const full = await post('events', { title: `Batch ${g}`, ...dates, ...linked });
      const recurring = await post('events', {
        title: `Batch series ${g}`,
        ...dates,
        recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
      });
      const draft = await post('events', { title: `Batch draft ${g}`, ...dates, status: 'draft' });
      const locked = await post('events', { title: `Batch locked ${g}`, ...dates, password: 'pw' });
      const trashed = await post('events', { title: `Batch trashed ${g}`, ...dates });
      await http()
        .delete(`${API}/events/${trashed.id}`)
        .set({ Authorization: users.administrator.header })
        .expect(200);
      ids.event.push(full.id, recurring.id, draft.id, locked.id, trashed.id);

      const venue = full.venue!.id;
      const draftVenue = await post('venues', { venue: `Draft hall ${g}`, status: 'draft' });
      const lockedVenue = await post('venues', { venue: `Locked hall ${g}`, password: 'pw' });
      ids.venue.push(venue, draftVenue.id, lockedVenue.id);
      const organizer = full.organizer![0].id;
      const draftOrganizer = await post('organizers', {
        organizer: `Draft org ${g}`,
        status: 'draft',
      });
      ids.organizer.push(organizer, draftOrganizer.id);

      const parent = await post('categories', { name: `Batch parent ${g}` });
      const child = await post('categories', { name: `Batch child ${g}`, parent: parent.id });
      ids.category.push(parent.id, child.id);
      const tag = await post('tags', { name: `Batch plain tag ${g}` });
      ids.tag.push(tag.id);
    }
  });

  const render = (kind: RecordKind, list: number[], audience: Audience) =>
    app().get(RecordPayloads).renderMany(kind, list, 'en', audience);

  it.each(['public', 'private'] as const)(
    'renders each record of a batch as GET by ID answers it (%s)',
    async (audience) => {
      const reader =
        audience === 'private'
          ? { query: '?context=edit', headers: { Authorization: users.administrator.header } }
          : { query: '', headers: {} };
      for (const kind of Object.keys(ids) as RecordKind[]) {
        await coldCaches(app());
        const rendered = await render(kind, ids[kind], audience);
        for (const id of ids[kind]) {
          const res = await http()
            .get(`${API}/${paths[kind]}/${id}${reader.query}`)
            .set(reader.headers);
          const expected = res.status === 200 ? res.body : undefined;
          // The JSON a message carries: a payload's undefined fields are not in it.
          const got = rendered.get(id);
          expect([kind, id, got && JSON.parse(JSON.stringify(got))]).toEqual([kind, id, expected]);
        }
      }
      // Some of each kind are hidden from the public, none from the administrator.
      const shown = (await render('event', ids.event, audience)).size;
      expect(shown).toBe((audience === 'private' ? 4 : 2) * GROUPS);
    },
  );

  it.each(['public', 'private'] as const)(
    'renders a batch in as many statements as a batch of one of each (%s)',
    async (audience) => {
      const kinds = Object.keys(ids) as RecordKind[];
      const per = (kind: RecordKind) => ids[kind].length / GROUPS;
      const count = async (kind: RecordKind, list: number[]) => {
        await coldCaches(app());
        return countQueries(app(), () => render(kind, list, audience));
      };
      for (const kind of kinds) {
        const small = await count(kind, ids[kind].slice(0, per(kind)));
        const large = await count(kind, ids[kind]);
        expect([kind, large]).toEqual([kind, small]);
        expect(small).toBeGreaterThan(0);
        // Rendered again before any write: the payloads from the RecordCache (what it does not
        // keep, records the reader may not read, is looked up again).
        const warm = await countQueries(app(), () => render(kind, ids[kind], audience));
        expect(warm).toBeLessThanOrEqual(large);
        if (kind === 'event') expect(warm).toBeLessThan(large);
      }
    },
  );
});
