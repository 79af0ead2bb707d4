import type { DataSource } from 'typeorm';
import { Writes } from '../../src/database/writes.js';
import { VenueEventLinks } from '../../src/venues/venues.service.js';
import { API, describeLinkedRecords } from '../helpers/linked-record-suite.js';

/** Events rows hold their venue (BEHAVIOR §7.1.3: one per event). */
const venueIdOf = async (ds: DataSource, eventId: number) =>
  Number((await ds.query('SELECT venue_id FROM events WHERE id = ?', [eventId]))[0].venue_id) ||
  null;

describe('venues (e2e)', () => {
  // What venues share with organizers (test/helpers/linked-record-suite.ts), then their own fields.
  const t = describeLinkedRecords({
    kind: 'venue',
    detail: 'city',
    typed: 'zip',
    create: {
      body: {
        venue: 'Concert Hall',
        description: 'A hall for concerts',
        address: '  1 Main   Street <b>East</b> ',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        phone: '+1 555 0100',
        website: 'https://hall.example.org/',
      },
      slug: 'concert-hall',
      ownKeys: [
        'description',
        'slug',
        'address',
        'city',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'show_map',
        'show_map_link',
      ],
      expected: {
        venue: 'Concert Hall',
        description: '<p>A hall for concerts</p>',
        address: '1 Main Street East',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        phone: '+1 555 0100',
        website: 'https://hall.example.org/',
        stateprovince: 'IL',
        show_map: true,
        show_map_link: true,
      },
    },
    ownSearch: [
      {
        body: { venue: 'Templom', address: '9, Rue du Sanctuaire' },
        search: 'sanctuaire rue',
        found: true,
      },
      {
        body: { venue: 'Isle place', stateprovince: 'Provence, Alpes de Haute' },
        search: 'alpes, provence haute',
        found: true,
      },
      {
        body: { venue: 'Webbed', website: 'https://venue-site.example' },
        search: 'venue-site',
        found: false,
      },
    ],
    protectedFields: {
      body: { address: 'Secret street 1', city: 'Secret city', state: 'Secret state' },
      redacted: {
        address: '',
        city: '',
        state: 'Secret state',
        stateprovince: '',
        show_map: null,
        show_map_link: null,
      },
    },
    jsonLd: {
      type: 'Place',
      body: {
        venue: 'Readable venue',
        address: '100, Avenue du Temple',
        city: 'Paris',
        zip: '75003',
        country: 'France',
        phone: '555',
        website: 'http://temple.example',
      },
      expected: (venue) => ({
        name: 'Readable venue',
        description: '',
        url: venue.url,
        address: {
          '@type': 'PostalAddress',
          streetAddress: '100, Avenue du Temple',
          addressLocality: 'Paris',
          postalCode: '75003',
          addressCountry: 'France',
        },
        telephone: '555',
        sameAs: 'http://temple.example',
      }),
      keysAfter: ['show_map', 'show_map_link'],
    },
    messages: {
      roArchivePageNotFound: 'Pagina solicitată din arhiva de locații nu există',
      perPage: {
        en: 'The number of venues to return on each page',
        hu: 'Az oldalanként visszaadott helyszínek száma',
      },
    },
    service: VenueEventLinks,
    async linkEvent(ds, eventId, ids) {
      if (ids.length !== 1) throw new Error('an event has one venue');
      await ds.query('UPDATE events SET venue_id = ? WHERE id = ?', [ids[0], eventId]);
    },
    async linkedTo(ds, eventId) {
      const id = await venueIdOf(ds, eventId);
      return id === null ? [] : [id];
    },
  });
  const { http, as, create } = t;

  describe('venue fields', () => {
    it('takes the state as stateprovince only for US addresses, else the province', async () => {
      const us = await create(t.users.editor, { venue: 'US place', state: 'NY', country: 'US' });
      expect(us.stateprovince).toBe('NY');
      const fr = await create(t.users.editor, {
        venue: 'French place',
        state: 'X',
        province: 'Ile de France',
        country: 'France',
      });
      expect(fr.stateprovince).toBe('Ile de France');
      const given = await create(t.users.editor, {
        venue: 'Given sp',
        stateprovince: 'Somewhere',
      });
      expect(given.stateprovince).toBe('Somewhere');
    });

    it('reads show_map/show_map_link as truthy strings, also form-encoded and on updates', async () => {
      const v = await create(t.users.editor, {
        venue: 'Mapless',
        show_map: 'no',
        show_map_link: 'yes',
      });
      expect(v.show_map).toBe(false);
      expect(v.show_map_link).toBe(true);
      const form = await http()
        .post(`${API}/venues`)
        .set(as(t.users.editor))
        .type('form')
        .send({ venue: 'Form place', zip: '1051', show_map: '0' })
        .expect(201);
      expect(form.body).toMatchObject({ venue: 'Form place', zip: '1051', show_map: false });
      const kept = await http()
        .post(`${API}/venues/${form.body.id}`)
        .set(as(t.users.editor))
        .send({ phone: '1' })
        .expect(200);
      expect(kept.body.show_map).toBe(false);
      const patch = await http()
        .patch(`${API}/venues/${form.body.id}`)
        .set(as(t.users.editor))
        .send({ show_map: '1' })
        .expect(200);
      expect(patch.body.show_map).toBe(true);
      const typed = await http()
        .post(`${API}/venues`)
        .set(as(t.users.editor))
        .send({ venue: 'Typed map', show_map: true })
        .expect(400);
      expect(typed.body.data.params).toEqual({ show_map: 'show_map is not of type string.' });
    });

    it('stores and returns coordinates when given', async () => {
      const v = await create(t.users.author, {
        venue: 'Geo place',
        geo_lat: 47.5,
        geo_lng: '19.04',
      });
      expect(v.geo_lat).toBe(47.5);
      expect(v.geo_lng).toBe(19.04);
      const res = await http()
        .post(`${API}/venues`)
        .set(as(t.users.author))
        .send({ venue: 'Bad geo', geo_lat: 91, geo_lng: 'east' })
        .expect(400);
      expect(res.body.data.params).toEqual({
        geo_lat: 'Invalid parameter.',
        geo_lng: 'geo_lng is not of type number.',
      });
    });

    it('recomputes stateprovince only when an address part is given (D8)', async () => {
      const v = await create(t.users.editor, { venue: 'Statey', state: 'TX' });
      const same = await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(t.users.editor))
        .send({ city: 'Austin' })
        .expect(200);
      expect(same.body.stateprovince).toBe('TX');
      const moved = await http()
        .post(`${API}/venues/${v.id}`)
        .set(as(t.users.editor))
        .send({ country: 'Canada', province: 'Ontario' })
        .expect(200);
      expect(moved.body.stateprovince).toBe('Ontario');
    });

    it('keeps a duplicate’s address details it is not given (§7.4.2)', async () => {
      const first = await create(t.users.editor, { venue: 'Dup hall', city: 'Old town' });
      const again = await create(t.users.editor, { venue: 'dup hall', country: 'Hungary' });
      expect(again).toMatchObject({ id: first.id, city: 'Old town', country: 'Hungary' });
    });
  });

  describe('service API for the events module', () => {
    const service = () => t.app.get(VenueEventLinks);
    it('plans references without writing, then applies them in a transaction', async () => {
      const existing = await create(t.users.editor, { venue: 'Plan existing' });
      const ctx = t.ctxOf(t.users.contributor);
      expect(await service().planReferences(existing.id, ctx)).toEqual([{ id: existing.id }]);
      expect(await service().planReferences(String(existing.id), ctx)).toEqual([
        { id: existing.id },
      ]);
      expect(await service().planReferences({ id: existing.id, city: 'x' }, ctx)).toEqual([
        { id: existing.id },
      ]);
      expect(await service().planReferences([existing.id], ctx)).toEqual([{ id: existing.id }]);
      for (const empty of [null, '', 0, [], {}, [0]]) {
        expect(await service().planReferences(empty, ctx)).toEqual([]);
      }

      const count = async () => Number((await t.ds.query('SELECT COUNT(*) AS n FROM venues'))[0].n);
      const before = await count();
      const plan = await service().planReferences({ venue: 'Inline venue', city: 'Tata' }, ctx);
      expect(await count()).toBe(before);
      const { ids, inserted } = await t.app
        .get(Writes)
        .run((scope) => service().applyPlan(plan, ctx, scope));
      expect(ids).toHaveLength(1);
      expect(inserted.map((v) => v.id)).toEqual(ids);
      const created = await http().get(`${API}/venues/${ids[0]}`).set(as(t.users.editor));
      expect(created.body).toMatchObject({
        venue: 'Inline venue',
        city: 'Tata',
        status: 'draft',
        author: String(t.users.contributor.id),
      });
      // The same inline venue again reuses it (duplicate rule): nothing inserted.
      const again = await service().planReferences({ venue: 'inline venue' }, ctx);
      expect(
        await t.app.get(Writes).run((scope) => service().applyPlan(again, ctx, scope)),
      ).toEqual({ ids, inserted: [] });
    });

    it('rejects invalid references with the field name, several venues with could-not-create-venue', async () => {
      const ctx = t.ctxOf(t.users.editor);
      const eventId = await t.insertEvent();
      for (const bad of ['foo', 999999, eventId, { city: 'no name' }, { venue: 5 }, true]) {
        await expect(service().planReferences(bad, ctx)).rejects.toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { venue: { key: 'validation.invalid' } } },
        });
      }
      await expect(
        service().planReferences(
          { venue: 'Pic', image: 'https://x.example/a.png' },
          t.ctxOf(t.users.contributor),
        ),
      ).rejects.toMatchObject({ code: 'rest_invalid_param' });
      const a = await create(t.users.editor, { venue: 'Several A' });
      const b = await create(t.users.editor, { venue: 'Several B' });
      await expect(service().planReferences([a.id, b.id], ctx)).rejects.toMatchObject({
        code: 'could-not-create-venue',
        status: 400,
      });
    });
  });
});
