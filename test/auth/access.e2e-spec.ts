import { DataSource } from 'typeorm';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { useTestApp } from '../helpers/app-fixture.js';
import { countRows } from '../helpers/database.js';
import { event } from '../helpers/event-body.js';
import { wpError } from '../helpers/wp-error.js';

/**
 * Who may link and embed what, who may join translations, and who may name another author
 * (CONTRACT §2, §5 and §6 "Linked records"), from the security probe's findings:
 *  - linking a venue or organizer needs read access to it; one the writer may not read is the
 *    same 400 as an id of no record;
 *  - an event embeds (single read, by slug, lists, `include=`, json_ld) only the venues and
 *    organizers the reader may read; the response cache holds the anonymous view only;
 *  - joining a translation group (or moving a member's language) needs edit rights on every
 *    member; a target the caller may not read is answered as if it did not exist;
 *  - only editors and administrators create or update records with another `author`.
 */

const BASE = '/cal/events/v1';
const WIDE = 'start_date=2000-01-01&end_date=2100-01-01';

// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;
type Who = keyof RoleUsers | 'author2' | null;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

describe('access to linked records, translations and authorship (e2e)', () => {
  const { app, http, users } = useTestApp({ env: { RESPONSE_CACHE_TTL_MS: '60000' } });
  let author2: RoleUsers['author'];
  let ds: DataSource;

  const call = (method: Method, path: string, who: Who, prefix = '') => {
    const req = http()[method](`${prefix}${BASE}/${path}`);
    const header = who === 'author2' ? author2.header : who ? users[who].header : undefined;
    return header ? req.set('Authorization', header) : req;
  };
  const made = async (path: string, body: Record<string, unknown>, who: Who, prefix = '') =>
    (await call('post', path, who, prefix).send(body).expect(201)).body as Tec;
  const count = (table: string, where: string, params: unknown[]) =>
    countRows(ds, table, where, params);

  beforeAll(async () => {
    author2 = (await createRoleUsers(app(), '2')).author;
    ds = app().get(DataSource);
  });

  // ---------------------------------------------------------------------------------------------
  describe('linking a venue or organizer needs read access to it', () => {
    let privateVenue: Tec;
    let draftOrganizer: Tec;
    let publicVenue: Tec;
    let publicOrganizer: Tec;
    let ownEvent: Tec;
    let unknownVenue: Tec;
    let unknownOrganizer: Tec;

    beforeAll(async () => {
      privateVenue = await made(
        'venues',
        {
          venue: 'Admin Private Hall',
          address: '1 Secret Street',
          city: 'Hiddenville',
          phone: '+36 1 555 0100',
          email: 'private@example.org',
          status: 'private',
        },
        'administrator',
      );
      draftOrganizer = await made(
        'organizers',
        { organizer: 'Admin Draft Org', phone: '+36 1 555 0200', status: 'draft' },
        'administrator',
      );
      publicVenue = await made('venues', { venue: 'Admin Public Hall' }, 'administrator');
      publicOrganizer = await made(
        'organizers',
        { organizer: 'Admin Public Org' },
        'administrator',
      );
      ownEvent = await made('events', event('Author linking event', { slug: 'alx' }), 'author');
      // The answers for records that do not exist, which the hidden ones must equal.
      unknownVenue = (
        await call('post', 'events', 'author')
          .send(event('x', { venue: 999_999 }))
          .expect(400)
      ).body;
      unknownOrganizer = (
        await call('post', 'events', 'author')
          .send(event('x', { organizer: 999_999 }))
          .expect(400)
      ).body;
    });

    it('the author may not read them (the probe\u2019s premise)', async () => {
      await call('get', `venues/${privateVenue.id}`, 'author').expect(403);
      await call('get', `organizers/${draftOrganizer.id}`, 'author').expect(403);
    });

    it('refuses them on create, by id, numeric string, {id} and lists, exactly as an unknown id', async () => {
      const before = await count('events', 'author_id = ?', [users.author.id]);
      const venueForms = [
        privateVenue.id,
        String(privateVenue.id),
        { id: privateVenue.id },
        { id: privateVenue.id, venue: 'ignored name' },
        [privateVenue.id],
      ];
      for (const venue of venueForms) {
        const res = await call('post', 'events', 'author')
          .send(event('Leaky event', { venue }))
          .expect(400);
        expect([venue, res.body]).toEqual([venue, unknownVenue]);
      }
      const organizerForms = [
        draftOrganizer.id,
        [draftOrganizer.id],
        { id: draftOrganizer.id },
        [publicOrganizer.id, draftOrganizer.id],
        `${publicOrganizer.id}, ${draftOrganizer.id}`,
      ];
      for (const organizer of organizerForms) {
        const res = await call('post', 'events', 'author')
          .send(event('Leaky event', { organizer }))
          .expect(400);
        expect([organizer, res.body]).toEqual([organizer, unknownOrganizer]);
      }
      expect(await count('events', 'author_id = ?', [users.author.id])).toBe(before);
    });

    it('refuses them on update by id and by slug, and leaves the event unchanged', async () => {
      for (const [method, path] of [
        ['patch', `events/${ownEvent.id}`],
        ['put', `events/${ownEvent.id}`],
        ['post', `events/${ownEvent.id}`],
        ['put', 'events/by-slug/alx'],
        ['patch', 'events/by-slug/alx'],
      ] as const) {
        const venue = await call(method, path, 'author')
          .send({ title: 'Renamed', venue: privateVenue.id })
          .expect(400);
        expect(venue.body).toEqual(unknownVenue);
        const organizer = await call(method, path, 'author')
          .send({ organizer: [draftOrganizer.id] })
          .expect(400);
        expect(organizer.body).toEqual(unknownOrganizer);
      }
      const now = (await call('get', `events/${ownEvent.id}`, 'author').expect(200)).body;
      expect(now).toMatchObject({ title: 'Author linking event', venue: [], organizer: [] });
    });

    it('does not reuse a hidden record for an inline one of the same name', async () => {
      const res = await call('post', 'events', 'author')
        .send(event('Inline hall event', { venue: { venue: 'Admin Private Hall', city: 'Mine' } }))
        .expect(201);
      expect(res.body.venue.id).not.toBe(privateVenue.id);
      expect(res.body.venue).toMatchObject({ venue: 'Admin Private Hall', city: 'Mine' });
      expect(res.body.venue.author).toBe(String(users.author.id));
      const admins = (await call('get', `venues/${privateVenue.id}`, 'administrator').expect(200))
        .body;
      expect(admins).toMatchObject({ city: 'Hiddenville', address: '1 Secret Street' });
    });

    it('links what the writer may read: published records, own unpublished ones; editors anything', async () => {
      const authorsPrivate = await made(
        'venues',
        { venue: 'Author Private Room', status: 'private' },
        'author',
      );
      const linked = await made(
        'events',
        event('Readable links', { venue: authorsPrivate.id, organizer: [] }),
        'author',
      );
      expect(linked.venue.id).toBe(authorsPrivate.id);
      const pub = await made('events', event('Public link', { venue: publicVenue.id }), 'author');
      expect(pub.venue.id).toBe(publicVenue.id);

      const contributorsDraft = await made(
        'organizers',
        { organizer: 'Contrib Org' },
        'contributor',
      );
      expect(contributorsDraft.status).toBe('draft');
      const draftEvent = await made(
        'events',
        event('Contributor links', { organizer: [contributorsDraft.id] }),
        'contributor',
      );
      expect(draftEvent.organizer.map((o: Tec) => o.id)).toEqual([contributorsDraft.id]);
      // Another contributor's draft is as unknown to the contributor as to anyone.
      await call('post', 'events', 'contributor')
        .send(event('x', { organizer: [draftOrganizer.id] }))
        .expect(400);

      const editors = await made(
        'events',
        event('Editor links', { venue: privateVenue.id, organizer: [draftOrganizer.id] }),
        'editor',
      );
      expect(editors.venue.id).toBe(privateVenue.id);
      expect(editors.organizer.map((o: Tec) => o.id)).toEqual([draftOrganizer.id]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('an event embeds only the venues and organizers the reader may read', () => {
    let venue: Tec;
    let draftOrg: Tec;
    let publicOrg: Tec;
    let authorsVenue: Tec;
    let e: Tec;
    let e2: Tec;

    const venueId = (body: Tec) => (Array.isArray(body.venue) ? null : body.venue.id);
    const orgIds = (body: Tec) => (body.organizer as Tec[]).map((o) => o.id);

    beforeAll(async () => {
      venue = await made(
        'venues',
        {
          venue: 'Embed Private Venue',
          address: '2 Hidden Road',
          phone: '+36 1 555 0300',
          website: 'https://embed.example.org/',
          status: 'private',
        },
        'administrator',
      );
      draftOrg = await made(
        'organizers',
        { organizer: 'Embed Draft Org', email: 'draft@example.org', status: 'draft' },
        'administrator',
      );
      publicOrg = await made('organizers', { organizer: 'Embed Public Org' }, 'administrator');
      e = await made(
        'events',
        event('Embedding concert', {
          slug: 'embedding-concert',
          venue: venue.id,
          organizer: [draftOrg.id, publicOrg.id],
        }),
        'administrator',
      );
      // The author's own private venue on the editor's published event.
      authorsVenue = await made(
        'venues',
        { venue: 'Author Embed Room', phone: '+36 1 555 0400', status: 'private' },
        'author',
      );
      e2 = await made(
        'events',
        event('Embedding recital', { slug: 'embedding-recital', venue: authorsVenue.id }),
        'editor',
      );
    });

    /** Every anonymous-reachable read of the two events, as `who`. */
    async function reads(who: Who): Promise<Tec[]> {
      const single = (await call('get', `events/${e.id}`, who).expect(200)).body;
      const bySlug = (await call('get', 'events/by-slug/embedding-concert', who).expect(200)).body;
      const list = (await call('get', `events?${WIDE}&search=Embedding`, who).expect(200)).body
        .events as Tec[];
      const include = (await call('get', `events?include=${e.id},${e2.id}`, who).expect(200)).body
        .events as Tec[];
      const listed = list.find((x) => x.id === e.id)!;
      const included = include.find((x) => x.id === e.id)!;
      expect(listed).toBeDefined();
      expect(included).toBeDefined();
      return [single, bySlug, listed, included];
    }

    it('leaves a private venue and a draft organizer out for anonymous readers everywhere', async () => {
      for (const body of await reads(null)) {
        expect(venueId(body)).toBeNull();
        expect(orgIds(body)).toEqual([publicOrg.id]);
        const text = JSON.stringify(body);
        for (const secret of ['Hidden Road', '555 0300', 'embed.example.org', 'draft@example.org'])
          expect(text).not.toContain(secret);
      }
      const single = (await call('get', `events/${e.id}`, null).expect(200)).body;
      expect(single.json_ld.location).toBeUndefined();
      expect(single.json_ld.organizer.name).toBe('Embed Public Org');
      const other = (await call('get', `events/${e2.id}`, null).expect(200)).body;
      expect(other.venue).toEqual([]);
      expect(JSON.stringify(other)).not.toContain('555 0400');
    });

    it('leaves them out for a logged-in reader who may not read them', async () => {
      for (const who of ['subscriber', 'contributor', 'author'] as const) {
        for (const body of await reads(who)) {
          expect([who, venueId(body), orgIds(body)]).toEqual([who, null, [publicOrg.id]]);
        }
      }
      const other = (await call('get', `events/${e2.id}`, 'author2').expect(200)).body;
      expect(other.venue).toEqual([]);
    });

    it('shows them to their owner and to editors', async () => {
      for (const who of ['editor', 'administrator'] as const) {
        for (const body of await reads(who)) {
          expect(venueId(body)).toBe(venue.id);
          expect(body.venue).toMatchObject({
            phone: '+36 1 555 0300',
            website: 'https://embed.example.org/',
          });
          expect(orgIds(body)).toEqual([draftOrg.id, publicOrg.id]);
        }
      }
      const single = (await call('get', `events/${e.id}`, 'administrator').expect(200)).body;
      expect(single.json_ld.location.name).toBe('Embed Private Venue');
      const owners = (await call('get', `events/${e2.id}`, 'author').expect(200)).body;
      expect(owners.venue).toMatchObject({ id: authorsVenue.id, phone: '+36 1 555 0400' });
    });

    it('shows a venue to everyone once it is published', async () => {
      const v = await made(
        'venues',
        { venue: 'Soon Public Venue', status: 'draft' },
        'administrator',
      );
      const linked = await made(
        'events',
        event('Soon public venue event', { venue: v.id }),
        'administrator',
      );
      expect((await call('get', `events/${linked.id}`, null).expect(200)).body.venue).toEqual([]);
      await call('patch', `venues/${v.id}`, 'administrator')
        .send({ status: 'publish' })
        .expect(200);
      expect((await call('get', `events/${linked.id}`, null).expect(200)).body.venue.id).toBe(v.id);
    });

    it('caches only the anonymous view', async () => {
      const url = `events/${e.id}`;
      const listUrl = `events?${WIDE}&search=Embedding%20concert`;
      // An editor first: nothing of the editor's view may reach the cache.
      for (const path of [url, listUrl]) {
        await call('get', path, 'administrator').expect(200);
        for (let i = 0; i < 2; i++) {
          const anon = (await call('get', path, null).expect(200)).body;
          const body = path === url ? anon : anon.events[0];
          expect(venueId(body)).toBeNull();
          expect(orgIds(body)).toEqual([publicOrg.id]);
          // And the cached anonymous view never reaches an editor.
          const editors = (await call('get', path, 'administrator').expect(200)).body;
          const item = path === url ? editors : editors.events[0];
          expect(venueId(item)).toBe(venue.id);
        }
      }
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('joining translations needs edit rights on every member of the group', () => {
    it('an author cannot squat the Hungarian slot of the administrator\u2019s event (probe)', async () => {
      const adminEn = await made('events', event('Admin gala'), 'administrator');
      const denied = await call('post', 'events', 'author', '/hu')
        .send(event('Szerzői gála', { translation_of: adminEn.id }))
        .expect(403);
      expect(denied.body).toEqual(
        wpError(
          403,
          'rest_cannot_edit',
          'Sajnáljuk, nincs jogosultságod e rekord összes fordításának szerkesztéséhez.',
        ),
      );
      const adminsHu = await made('events', event('Admin bál'), 'administrator', '/hu');
      const en = await call('post', 'events', 'author')
        .send(event('Author ball', { translation_of: adminsHu.id }))
        .expect(403);
      expect(en.body.message).toBe(
        'Sorry, you are not allowed to edit every translation of this record.',
      );
      // Nothing written: the administrator's event has no Hungarian translation...
      expect(
        (await call('get', `events/${adminEn.id}`, null).expect(200)).body.translations,
      ).toEqual({ en: adminEn.id });
      expect(await count('events', 'author_id = ? AND language = ?', [users.author.id, 'hu'])).toBe(
        0,
      );
      // ...so the administrator's own one is not "language taken".
      const adminHu = await made(
        'events',
        event('Admin gála', { translation_of: adminEn.id }),
        'administrator',
        '/hu',
      );
      expect(adminHu.translations).toEqual({ en: adminEn.id, hu: adminHu.id });
    });

    it('a contributor cannot join a draft he cannot read, and learns nothing of it', async () => {
      const draft = await made(
        'events',
        event('Admin draft', { status: 'draft' }),
        'administrator',
      );
      const hidden = await call('post', 'events', 'contributor', '/hu')
        .send(event('Vázlat', { translation_of: draft.id }))
        .expect(400);
      const none = await call('post', 'events', 'contributor', '/hu')
        .send(event('Vázlat', { translation_of: 999_999 }))
        .expect(400);
      expect(hidden.body).toEqual(none.body);
      expect(hidden.body.data.params).toEqual({
        translation_of: 'A translation_of nem egy esemény azonosítója.',
      });
      // An anonymous caller: the same 400 (validation before permission); a public target, 401.
      await call('post', 'events', null)
        .send(event('x', { translation_of: draft.id }))
        .expect(400);
      const pub = await made('events', event('Admin public'), 'administrator');
      await call('post', 'events', null, '/hu')
        .send(event('x', { translation_of: pub.id }))
        .expect(401);
    });

    it('does not reveal which languages a group it may not join has', async () => {
      const en = await made('events', event('Admin opera'), 'administrator');
      await made(
        'events',
        event('Admin opera hu draft', { translation_of: en.id, status: 'draft' }),
        'administrator',
        '/hu',
      );
      // Not "The translations already include a record in hu.": the 403.
      const res = await call('post', 'events', 'author', '/hu')
        .send(event('Opera', { translation_of: en.id }))
        .expect(403);
      expect(res.body.code).toBe('rest_cannot_edit');
    });

    it('lets writers translate their own records, and editors any group', async () => {
      const own = await made('events', event('Author recital'), 'author');
      const ownHu = await made(
        'events',
        event('Szerzői est', { translation_of: own.id }),
        'author',
        '/hu',
      );
      expect(ownHu.translations).toEqual({ en: own.id, hu: ownHu.id });
      const draft = await made('events', event('Contributor draft'), 'contributor');
      const draftRo = await made(
        'events',
        event('Ciornă', { translation_of: draft.id }),
        'contributor',
        '/ro',
      );
      expect(draftRo.translations).toEqual({ en: draft.id, ro: draftRo.id });
      // The editor joins the author's group; the group is then no longer the author's alone.
      const editorsRo = await made(
        'events',
        event('Recital', { translation_of: own.id }),
        'editor',
        '/ro',
      );
      expect(editorsRo.translations).toEqual({ en: own.id, hu: ownHu.id, ro: editorsRo.id });
    });

    it('moves a member to another language only for who may edit every member', async () => {
      const own = await made('events', event('Author sonata'), 'author');
      const adminHu = await made(
        'events',
        event('Szonáta', { translation_of: own.id }),
        'administrator',
        '/hu',
      );
      const denied = await call('patch', `events/${own.id}`, 'author')
        .send({ language: 'ro' })
        .expect(403);
      expect(denied.body.code).toBe('rest_cannot_edit');
      // Validation comes first and sees what the author may read: the published hu member.
      const taken = await call('patch', `events/${own.id}`, 'author')
        .send({ language: 'hu' })
        .expect(400);
      expect(taken.body.data.params).toEqual({
        language: 'The translations already include a record in hu.',
      });
      const ownAlone = await made('events', event('Author alone'), 'author');
      await call('patch', `events/${ownAlone.id}`, 'author').send({ language: 'ro' }).expect(200);
      const moved = await call('patch', `events/${own.id}`, 'editor')
        .send({ language: 'ro' })
        .expect(200);
      expect(moved.body.translations).toEqual({ hu: adminHu.id, ro: own.id });
    });

    it('holds for venues and organizers, also created inline by an event write', async () => {
      const venue = await made('venues', { venue: 'Admin Translated Hall' }, 'administrator');
      const organizer = await made('organizers', { organizer: 'Admin Org T' }, 'administrator');
      const v = await call('post', 'venues', 'author', '/hu')
        .send({ venue: 'Terem', translation_of: venue.id })
        .expect(403);
      expect(v.body.code).toBe('rest_cannot_edit');
      await call('post', 'organizers', 'author', '/hu')
        .send({ organizer: 'Szervező', translation_of: organizer.id })
        .expect(403);
      const before = await count('events', 'author_id = ?', [users.author.id]);
      await call('post', 'events', 'author', '/hu')
        .send(event('Inline squat', { venue: { venue: 'Terem 2', translation_of: venue.id } }))
        .expect(403);
      expect(await count('events', 'author_id = ?', [users.author.id])).toBe(before);
      expect(await count('venues', 'author_id = ? AND language = ?', [users.author.id, 'hu'])).toBe(
        0,
      );
      const draftVenue = await made(
        'venues',
        { venue: 'Admin Draft Hall', status: 'draft' },
        'administrator',
      );
      const hidden = await call('post', 'venues', 'contributor', '/hu')
        .send({ venue: 'Terem', translation_of: draftVenue.id })
        .expect(400);
      expect(hidden.body.data.params).toEqual({
        translation_of: 'A translation_of nem egy helyszín azonosítója.',
      });
      const ownVenue = await made('venues', { venue: 'Author Hall' }, 'author');
      const ownHu = await made(
        'venues',
        { venue: 'Szerzői terem', translation_of: ownVenue.id },
        'author',
        '/hu',
      );
      expect(ownHu.translations).toEqual({ en: ownVenue.id, hu: ownHu.id });
      await call('patch', `venues/${venue.id}`, 'editor').send({ language: 'ro' }).expect(200);
      const adminsRo = await made(
        'venues',
        { venue: 'Admin terem', translation_of: ownVenue.id },
        'administrator',
        '/ro',
      );
      expect(adminsRo.translations).toMatchObject({ en: ownVenue.id, ro: adminsRo.id });
      // A pair of the author's venue and the administrator's translation: the author may not
      // move his own member, since that changes the administrator's translations too.
      const pair = await made('venues', { venue: 'Author Pair Hall' }, 'author');
      await made(
        'venues',
        { venue: 'Admin pár terem', translation_of: pair.id },
        'administrator',
        '/hu',
      );
      const moved = await call('patch', `venues/${pair.id}`, 'author')
        .send({ language: 'ro' })
        .expect(403);
      expect(moved.body.code).toBe('rest_cannot_edit');
      await call('patch', `venues/${pair.id}`, 'editor').send({ language: 'ro' }).expect(200);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('only editors and administrators name another author', () => {
    const admin = () => users.administrator.id;

    it('refuses an author and a contributor creating as someone else, with a localized 403', async () => {
      for (const who of ['author', 'contributor'] as const) {
        const res = await call('post', 'events', who)
          .send(event('As the admin', { author: admin() }))
          .expect(403);
        expect(res.body).toEqual(
          wpError(
            403,
            'rest_cannot_create',
            'Sorry, you are not allowed to create posts as this user.',
          ),
        );
        for (const [path, body] of [
          ['venues', { venue: 'Venue as admin', author: admin() }],
          ['organizers', { organizer: 'Organizer as admin', author: admin() }],
        ] as const) {
          const linked = await call('post', path, who, '/hu').send(body).expect(403);
          expect(linked.body).toMatchObject({
            code: 'rest_cannot_create',
            message:
              'Sajnáljuk, nincs jogosultságod ennek a felhasználónak a nevében bejegyzést létrehozni.',
          });
        }
      }
      const ro = await call('post', 'events', 'author', '/ro')
        .send(event('x', { author: admin() }))
        .expect(403);
      expect(ro.body.message).toBe(
        'Ne pare rău, nu ai permisiunea să creezi articole în numele acestui utilizator.',
      );
      expect(await count('events', "title = 'As the admin'", [])).toBe(0);
      expect(await count('venues', "title = 'Venue as admin'", [])).toBe(0);
    });

    it('refuses an inline venue or organizer of someone else, and writes nothing', async () => {
      const before = await count('events', 'author_id = ?', [users.author.id]);
      for (const field of [
        { venue: { venue: 'Inline as admin', author: admin() } },
        { organizer: [{ organizer: 'Inline org as admin', author: admin() }] },
      ]) {
        const res = await call('post', 'events', 'author')
          .send(event('Inline authorship', field))
          .expect(403);
        expect(res.body.code).toBe('rest_cannot_create');
      }
      expect(await count('events', 'author_id = ?', [users.author.id])).toBe(before);
      expect(await count('venues', "title = 'Inline as admin'", [])).toBe(0);
    });

    it('lets writers name themselves, and editors anyone', async () => {
      const self = await made('events', event('Own', { author: users.author.id }), 'author');
      expect(self.author).toBe(String(users.author.id));
      const contrib = await made(
        'venues',
        { venue: 'Own contrib venue', author: users.contributor.id },
        'contributor',
      );
      expect(contrib.author).toBe(String(users.contributor.id));
      for (const who of ['editor', 'administrator'] as const) {
        const other = who === 'editor' ? admin() : users.author.id;
        const res = await made('events', event('For another', { author: other }), who);
        expect(res.author).toBe(String(other));
        const org = await made('organizers', { organizer: `Org by ${who}`, author: other }, who);
        expect(org.author).toBe(String(other));
      }
    });

    it('refuses updates that give a record to someone else, but not to oneself', async () => {
      const own = await made(
        'events',
        event('Author keeps it', { slug: 'author-keeps-it' }),
        'author',
      );
      const venue = await made('venues', { venue: 'Author keeps venue' }, 'author');
      const organizer = await made('organizers', { organizer: 'Author keeps org' }, 'author');
      for (const [method, path] of [
        ['patch', `events/${own.id}`],
        ['put', 'events/by-slug/author-keeps-it'],
        ['post', `venues/${venue.id}`],
        ['patch', `organizers/${organizer.id}`],
      ] as const) {
        const res = await call(method, path, 'author')
          .send({ author: admin(), description: 'given away' })
          .expect(403);
        expect(res.body).toEqual(
          wpError(
            403,
            'rest_cannot_edit',
            'Sorry, you are not allowed to update posts as this user.',
          ),
        );
        await call(method, path, 'author').send({ author: users.author.id }).expect(200);
      }
      const hu = await call('patch', `venues/${venue.id}`, 'author', '/hu')
        .send({ author: admin() })
        .expect(403);
      expect(hu.body.message).toBe(
        'Sajnáljuk, nincs jogosultságod ennek a felhasználónak a nevében bejegyzést módosítani.',
      );
      const draft = await made('events', event('Contributor keeps it'), 'contributor');
      const en = await call('patch', `events/${draft.id}`, 'contributor')
        .send({ author: admin() })
        .expect(403);
      expect(en.body.code).toBe('rest_cannot_edit');
      const stored = (await call('get', `events/${own.id}`, 'author').expect(200)).body;
      expect(stored).toMatchObject({ author: String(users.author.id), description: '' });
      // Editors may hand records over.
      const handed = await call('patch', `events/${own.id}`, 'editor')
        .send({ author: admin() })
        .expect(200);
      expect(handed.body.author).toBe(String(admin()));
      const v = await call('patch', `venues/${venue.id}`, 'administrator')
        .send({ author: users.editor.id })
        .expect(200);
      expect(v.body.author).toBe(String(users.editor.id));
    });
  });
});
