import { DataSource } from 'typeorm';
import type { RoleUsers } from '../helpers/auth.js';
import { countQueries } from '../helpers/query-counter.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import { day } from '../helpers/event-body.js';
import { EVENT_DEFAULTS, POST_KEYS } from '../helpers/tec-event.js';
import { wpError } from '../helpers/wp-error.js';

const BASE = '/cal/events/v1';
const REST = 'http://cal.test/cal/events/v1';

describe('events (e2e)', () => {
  const { app, http, users } = useTestApp();
  const create = (as: keyof RoleUsers, body: Record<string, unknown>) =>
    http().post(`${BASE}/events`).set('Authorization', users[as].header).send(body);
  const minimal = (extra: Record<string, unknown> = {}) => ({
    title: 'An event',
    start_date: day(2),
    end_date: day(2, '12:00:00'),
    ...extra,
  });

  describe('create', () => {
    it('answers 201 with the full event object in the plugin key order', async () => {
      const res = await create('editor', minimal({ description: 'An event content' })).expect(201);
      const e = res.body;
      expect(Object.keys(e)).toEqual([
        'id',
        'global_id',
        'global_id_lineage',
        ...POST_KEYS,
        'rest_url',
        'title',
        'description',
        'excerpt',
        'slug',
        'image',
        'all_day',
        'start_date',
        'start_date_details',
        'end_date',
        'end_date_details',
        'utc_start_date',
        'utc_start_date_details',
        'utc_end_date',
        'utc_end_date_details',
        'timezone',
        'timezone_abbr',
        'cost',
        'cost_details',
        'website',
        'show_map',
        'show_map_link',
        'hide_from_listings',
        'sticky',
        'featured',
        'categories',
        'tags',
        'venue',
        'organizer',
        'custom_fields',
        // Virtual Events (src/modules/virtual-events), as Pro 7.x adds them.
        'is_virtual',
        'virtual_url',
        'virtual_video_source',
        'language',
        'translations',
        // The series (null for a single event), under cal/events/v1 only.
        'recurrence',
      ]);
      expect(e.recurrence).toBeNull();
      expect(e).toMatchObject({
        global_id: `cal.test?id=${e.id}`,
        global_id_lineage: [`cal.test?id=${e.id}`],
        author: String(users.editor.id),
        status: 'publish',
        url: 'http://cal.test/event/an-event/',
        rest_url: `${REST}/events/${e.id}`,
        title: 'An event',
        description: '<p>An event content</p>',
        excerpt: '',
        slug: 'an-event',
        image: false,
        all_day: false,
        start_date: day(2),
        end_date: day(2, '12:00:00'),
        utc_start_date: day(2),
        timezone: 'UTC',
        timezone_abbr: 'UTC',
        cost: '',
        cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
        website: 'http://cal.test/event/an-event/',
        ...EVENT_DEFAULTS,
        language: 'en',
      });
      const [y, m, d] = day(2).slice(0, 10).split('-');
      expect(e.start_date_details).toEqual({
        year: y,
        month: m,
        day: d,
        hour: '10',
        minutes: '00',
        seconds: '00',
      });
      expect(e.json_ld).toBeUndefined();
    });

    it('reports missing required parameters in declaration order, before permissions', async () => {
      const res = await http().post(`${BASE}/events`).send({ description: 'x' }).expect(400);
      expect(res.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, start_date, end_date',
        data: {
          status: 400,
          params: {
            title: 'Missing parameter.',
            start_date: 'Missing parameter.',
            end_date: 'Missing parameter.',
          },
        },
      });
    });

    it('answers 401 to anonymous and 403 to subscribers with a valid body', async () => {
      const anon = await http().post(`${BASE}/events`).send(minimal()).expect(401);
      expect(anon.body.code).toBe('rest_forbidden');
      const sub = await create('subscriber', minimal()).expect(403);
      expect(sub.body).toEqual(
        wpError(403, 'rest_forbidden', 'Sorry, you are not allowed to do that.'),
      );
    });

    it.each([
      ['start_date', { start_date: 'before my birthday' }],
      ['end_date', { end_date: '2024-13-01' }],
      ['date', { date: 'foo' }],
      ['website', { website: 'foo' }],
      ['timezone', { timezone: 'Mars/Base' }],
      ['status', { status: 'published' }],
      ['author', { author: 99999 }],
      ['image', { image: 23 }],
      ['image', { image: 'not a url' }],
      ['cost', { cost: { a: 1 } }],
      ['title', { title: '' }],
      ['slug', { slug: '' }],
    ])('rejects a bad %s with rest_invalid_param', async (param, extra) => {
      const res = await create('administrator', minimal(extra)).expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual([param]);
      expect(res.body.message).toBe(`Invalid parameter(s): ${param}`);
    });

    it('type-checks booleans', async () => {
      const res = await create('editor', minimal({ featured: 'yes' })).expect(400);
      expect(res.body.data.params).toEqual({ featured: 'featured is not of type boolean.' });
      expect(res.body.data.details.featured.code).toBe('rest_invalid_type');
      await create('editor', minimal({ featured: 'TRUE', sticky: 1, show_map: '0' })).expect(201);
    });

    it('gives contributors draft or pending and publishers what they ask', async () => {
      expect((await create('contributor', minimal()).expect(201)).body.status).toBe('draft');
      expect(
        (await create('contributor', minimal({ status: 'publish' })).expect(201)).body.status,
      ).toBe('pending');
      expect(
        (await create('contributor', minimal({ status: 'private' })).expect(201)).body.status,
      ).toBe('pending');
      expect((await create('author', minimal({ status: 'private' })).expect(201)).body.status).toBe(
        'private',
      );
      const future = await create('author', minimal({ date: '+1 week' })).expect(201);
      expect(future.body.status).toBe('future');
    });

    // CONTRACT §2 (as WordPress's edit_others_posts): only editors and administrators create
    // events of other users; authors and contributors only as themselves.
    it('lets only editors and administrators create events of other users', async () => {
      const admin = users.administrator.id;
      for (const role of ['author', 'contributor'] as const) {
        const denied = await create(role, minimal({ author: admin })).expect(403);
        expect(denied.body.code).toBe('rest_cannot_create');
      }
      const own = await create('author', minimal({ author: users.author.id })).expect(201);
      expect(own.body).toMatchObject({ author: String(users.author.id), status: 'publish' });
      const byEditor = await create(
        'editor',
        minimal({ author: users.author.id, status: 'private' }),
      ).expect(201);
      expect(byEditor.body).toMatchObject({ author: String(users.author.id), status: 'private' });
      // Also for a venue created inline, and then nothing is written.
      const inline = { venue: 'Inline private venue', author: admin, status: 'private' };
      await create('author', minimal({ title: 'Inline denied', venue: inline })).expect(403);
      const list = await http()
        .get(`${BASE}/venues?search=Inline%20private&status=any`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(list.body.total).toBe(0);
    });

    it('keeps the wall clock of `date` in the event zone, deriving the other date with the site zone', async () => {
      // The site is UTC, the event in New York (BEHAVIOR §7.1.2; Single_Event::prepare_postarr
      // reads `date` in the event zone and formats it back in that zone).
      const ny = { timezone: 'America/New_York', status: 'publish' };
      const both = await create(
        'editor',
        minimal({ ...ny, date: '2017-01-05 14:23:36', date_utc: '2017-01-05 14:23:36' }),
      ).expect(201);
      expect([both.body.date, both.body.date_utc]).toEqual([
        '2017-01-05 14:23:36',
        '2017-01-05 14:23:36',
      ]);
      const dateOnly = await create('editor', minimal({ ...ny, date: '2017-01-05 14:23:36' }));
      expect([dateOnly.body.date, dateOnly.body.date_utc]).toEqual([
        '2017-01-05 14:23:36',
        '2017-01-05 14:23:36',
      ]);
      const utcOnly = await create('editor', minimal({ ...ny, date_utc: '2017-01-05 14:23:36' }));
      expect([utcOnly.body.date, utcOnly.body.date_utc]).toEqual([
        '2017-01-05 14:23:36',
        '2017-01-05 14:23:36',
      ]);
      const updated = await http()
        .post(`${BASE}/events/${both.body.id}`)
        .set('Authorization', users.editor.header)
        .send({ date: '2018-02-01 08:00:00' })
        .expect(200);
      expect([updated.body.date, updated.body.date_utc]).toEqual([
        '2018-02-01 08:00:00',
        '2018-02-01 08:00:00',
      ]);
    });

    it('leaves drafts without slug and date_utc, and gives the query url', async () => {
      const res = await create('editor', minimal({ status: 'draft', title: 'Draft one' })).expect(
        201,
      );
      expect(res.body.slug).toBe('');
      expect(res.body.date_utc).toBe('0000-00-00 00:00:00');
      expect(res.body.url).toBe(`http://cal.test/?post_type=cal_events&p=${res.body.id}`);
    });

    it('makes slugs unique with numeric suffixes', async () => {
      const a = await create('editor', minimal({ title: 'Same Title' })).expect(201);
      const b = await create('editor', minimal({ title: 'Same Title' })).expect(201);
      const c = await create('editor', minimal({ title: 'Other', slug: 'Same Title' })).expect(201);
      expect([a.body.slug, b.body.slug, c.body.slug]).toEqual([
        'same-title',
        'same-title-2',
        'same-title-3',
      ]);
    });

    it('interprets dates in the event time zone and derives UTC and the abbreviation', async () => {
      const res = await create(
        'editor',
        minimal({
          start_date: '2030-01-15 09:00:00',
          end_date: '2030-07-15 18:00:00',
          timezone: 'Europe/Budapest',
        }),
      ).expect(201);
      expect(res.body).toMatchObject({
        start_date: '2030-01-15 09:00:00',
        utc_start_date: '2030-01-15 08:00:00',
        end_date: '2030-07-15 18:00:00',
        utc_end_date: '2030-07-15 16:00:00',
        timezone: 'Europe/Budapest',
        timezone_abbr: 'CET',
      });
    });

    it('spans whole days for all-day events and moves an early end to the start', async () => {
      const allDay = await create(
        'editor',
        minimal({ start_date: '2030-03-01 09:00', end_date: '2030-03-03 11:00', all_day: true }),
      ).expect(201);
      expect(allDay.body).toMatchObject({
        start_date: '2030-03-01 00:00:00',
        end_date: '2030-03-03 23:59:59',
        all_day: true,
      });
      const early = await create(
        'editor',
        minimal({ start_date: '2030-03-05 10:00', end_date: '2030-03-04 10:00' }),
      ).expect(201);
      expect(early.body.end_date).toBe('2030-03-05 10:00:00');
      expect(early.body.utc_end_date).toBe('2030-03-05 10:00:00');
    });

    it('keeps the wall clock of explicit offsets and reads timestamps as UTC', async () => {
      const res = await create(
        'editor',
        minimal({ start_date: '2030-01-01T16:00:00+02:00', end_date: 1893542400 }),
      ).expect(201);
      expect(res.body.start_date).toBe('2030-01-01 16:00:00');
      expect(res.body.end_date).toBe('2030-01-02 00:00:00');
    });

    it('formats costs as the plugin does', async () => {
      const a = await create('editor', minimal({ cost: ['0$', '20$', '30$'] })).expect(201);
      expect(a.body.cost).toBe('Free – 30$');
      expect(a.body.cost_details).toEqual({
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['0', '20', '30'],
      });
      const b = await create('editor', minimal({ cost: 23 })).expect(201);
      expect(b.body.cost).toBe('$23');
    });

    it('stores website, image and flags', async () => {
      const res = await create(
        'author',
        minimal({
          website: 'http://example.org/?a=1&b=2',
          image: 'https://img.example.org/a.jpg',
          featured: true,
          sticky: true,
        }),
      ).expect(201);
      expect(res.body.website).toBe('http://example.org/?a=1&amp;b=2');
      expect(res.body.image).toEqual({
        url: 'https://img.example.org/a.jpg',
        id: expect.any(Number),
        extension: 'jpg',
      });
      expect(res.body).toMatchObject({ featured: true, sticky: true });
      // An image record of its own (BEHAVIOR §4.6): an id of the shared post sequence, not an
      // event's, reused for the same URL by events, venues and organizers alike.
      const imageId = res.body.image.id as number;
      expect(imageId).not.toBe(res.body.id);
      await http().get(`${BASE}/events/${imageId}`).expect(400);
      const again = await create(
        'author',
        minimal({
          image: 'https://img.example.org/a.jpg',
          venue: { venue: 'Pictured hall', image: 'https://img.example.org/a.jpg' },
        }),
      ).expect(201);
      expect(again.body.image.id).toBe(imageId);
      expect(again.body.venue.image.id).toBe(imageId);
      const other = await create('author', minimal({ image: 'https://img.example.org/b.jpg' }));
      expect(other.body.image.id).not.toBe(imageId);
      const contributor = await create(
        'contributor',
        minimal({ image: 'https://img.example.org/a.jpg' }),
      ).expect(400);
      expect(contributor.body.data.params).toHaveProperty('image');
    });

    it('renders titles and stores raw text', async () => {
      const res = await create(
        'editor',
        minimal({ title: "Don't stop", description: 'A & B' }),
      ).expect(201);
      expect(res.body.title).toBe('Don&#8217;t stop');
      expect(res.body.description).toBe('<p>A &#038; B</p>');
    });

    it('creates the event in the language of the request', async () => {
      const hu = await postEvent(
        http,
        users.editor.header,
        minimal({ title: 'Magyar esemény' }),
        `/hu${BASE}`,
      ).expect(201);
      expect(hu.body.language).toBe('hu');
      expect(hu.body.rest_url).toBe(`http://cal.test/hu${BASE}/events/${hu.body.id}`);
      const ro = await create(
        'editor',
        minimal({ title: 'Eveniment', i18n_language: 'ro' }),
      ).expect(201);
      expect(ro.body.language).toBe('ro');
    });
  });

  describe('read', () => {
    it('reads by id and by slug with json_ld', async () => {
      const created = (await create('editor', minimal({ title: 'Readable' })).expect(201)).body;
      const byId = await http().get(`${BASE}/events/${created.id}`).expect(200);
      expect(byId.body.json_ld).toMatchObject({
        '@context': 'http://schema.org',
        '@type': 'Event',
        name: 'Readable',
        url: created.url,
        startDate: `${day(2).replace(' ', 'T')}+00:00`,
      });
      const bySlug = await http().get(`${BASE}/events/by-slug/readable`).expect(200);
      expect(bySlug.body.id).toBe(created.id);
      // Leading zeros are the same id.
      await http().get(`${BASE}/events/00${created.id}`).expect(200);
    });

    it('answers the plugin errors for missing, foreign, trashed and hidden events', async () => {
      const missing = await http().get(`${BASE}/events/999999`).expect(404);
      expect(missing.body).toEqual(
        wpError(404, 'rest-event-not-found', 'Event with ID 999999 does not exist.'),
      );
      await http().get(`${BASE}/events/0`).expect(404);
      await http()
        .get(`${BASE}/events/foo`)
        .expect(404)
        .expect((r) => expect(r.body.code).toBe('rest_no_route'));
      await http()
        .get(`${BASE}/events/1e3`)
        .expect(404)
        .expect((r) => expect(r.body.code).toBe('rest_no_route'));
      const slug = await http().get(`${BASE}/events/by-slug/nope`).expect(400);
      expect(slug.body.data.params).toEqual({ slug: 'Invalid parameter.' });

      const draft = (await create('contributor', minimal()).expect(201)).body;
      const denied = await http().get(`${BASE}/events/${draft.id}`).expect(403);
      expect(denied.body).toEqual(
        wpError(403, 'event-not-accessible', 'The requested event is not accessible'),
      );
      await http()
        .get(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.contributor.header)
        .expect(200);
      await http()
        .get(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.author.header)
        .expect(403);
      await http()
        .get(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);

      const gone = (await create('editor', minimal()).expect(201)).body;
      await http()
        .delete(`${BASE}/events/${gone.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      const trashed = await http()
        .get(`${BASE}/events/${gone.id}`)
        .set('Authorization', users.administrator.header)
        .expect(403);
      expect(trashed.body.code).toBe('event-no-longer-available');
    });

    it('protects password-protected events', async () => {
      const e = (
        await create(
          'editor',
          minimal({ password: 's3cret', description: 'Hidden text', cost: '5' }),
        ).expect(201)
      ).body;
      // The write response was unlocked by the request's own password.
      expect(e.description).toBe('<p>Hidden text</p>');
      const locked = await http().get(`${BASE}/events/${e.id}`).expect(403);
      expect(locked.body).toEqual(
        wpError(
          403,
          'event-password-protected',
          'The requested event is not accessible without a password',
        ),
      );
      await http().get(`${BASE}/events/${e.id}?password=wrong`).expect(403);
      await http().get(`${BASE}/events/${e.id}?password=`).expect(400);
      const open = await http().get(`${BASE}/events/${e.id}?password=s3cret`).expect(200);
      expect(open.body.description).toBe('<p>Hidden text</p>');
      await http()
        .get(`${BASE}/events/${e.id}?context=edit`)
        .set('Authorization', users.editor.header)
        .expect(200);
      const list = await http().get(`${BASE}/events?include=${e.id}`).expect(200);
      expect(list.body.events[0]).toMatchObject({
        description: '',
        cost: '',
        image: false,
        featured: null,
        categories: [],
      });
    });

    it('answers a venue id on an event route with rest-invalid-event-id', async () => {
      const venue = await http()
        .post(`${BASE}/venues`)
        .set('Authorization', users.editor.header)
        .send({ venue: 'Not an event' })
        .expect(201);
      const res = await http().get(`${BASE}/events/${venue.body.id}`).expect(400);
      expect(res.body).toEqual(
        wpError(400, 'rest-invalid-event-id', 'The specified ID is not a valid event.'),
      );
    });
  });

  describe("the answer of a create or an update (built from the event's row as written)", () => {
    // The answer is not read back from the database: everything it shows must be what a read
    // shows afterwards, for every kind of field and link.
    // A single read adds json_ld to the event and what it embeds; a write's answer has none.
    type Json = Record<string, unknown>;
    const strip = (record: Json): Json => {
      const { json_ld, ...plain } = record;
      void json_ld;
      return plain;
    };
    const withoutJsonLd = (event: Json) => {
      const rest = strip(event);
      if (rest.venue && !Array.isArray(rest.venue)) rest.venue = strip(rest.venue as Json);
      if (Array.isArray(rest.organizer)) rest.organizer = (rest.organizer as Json[]).map(strip);
      return rest;
    };
    const readBack = async (id: number, language = '') => {
      const res = await http()
        .get(`${language}${BASE}/events/${id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      return withoutJsonLd(res.body);
    };
    /** A record of another collection, made by the editor: its answer's body. */
    const made = async (collection: string, body: Json, language = '') =>
      (
        await http()
          .post(`${language}${BASE}/${collection}`)
          .set('Authorization', users.editor.header)
          .send(body)
          .expect(201)
      ).body as { id: number; slug: string };

    it('is what a read shows, with every field, inline and linked records and new terms', async () => {
      const organizer = await made('organizers', { organizer: 'Linked organizer for the answer' });
      const original = (
        await create('editor', minimal({ title: 'Original of the answer' })).expect(201)
      ).body;
      const created = await postEvent(
        http,
        users.editor.header,
        {
          title: 'Every field in the answer',
          start_date: '2031-05-06 19:30:00',
          end_date: '2031-05-06 22:00:00',
          timezone: 'Europe/Budapest',
          description: '<p>Line one\nline two</p>',
          excerpt: 'Short "quoted" -- text',
          image: 'https://img.example.org/answer.png',
          cost: '10 - 25 €',
          website: 'https://example.org/answer',
          show_map: true,
          show_map_link: false,
          sticky: true,
          featured: true,
          categories: ['Answer category new', 'Jazz'],
          tags: ['answer-tag-new'],
          // Inline records are answered as the write inserted them: every field a read shows.
          venue: {
            venue: 'Answer hall',
            description: '<p>A <b>hall</b></p>',
            address: ' Kossuth tér 1 ',
            city: 'Szeged',
            country: 'Hungary',
            province: 'Csongrád',
            zip: '6720',
            phone: '+36 62 000',
            website: 'https://hall.example.org/answer',
            show_map: false,
            show_map_link: '1',
            geo_lat: '46.2530',
            geo_lng: 20.1414,
          },
          organizer: [
            organizer.id,
            {
              organizer: 'Inline organizer of the answer',
              email: 'o@example.org',
              phone: '+36 1 000',
              website: 'https://organizer.example.org/',
            },
          ],
          translation_of: original.id,
        },
        `/hu${BASE}`,
      ).expect(201);
      const { id } = created.body;
      expect(created.body.venue).toMatchObject({ venue: 'Answer hall', city: 'Szeged' });
      expect(created.body.organizer).toHaveLength(2);
      expect(created.body.categories.length).toBe(2);
      expect(created.body.translations).toBeDefined();
      expect(created.body).toEqual(await readBack(id, '/hu'));
    });

    it('is what a read shows after each kind of update', async () => {
      const organizer = await made('organizers', { organizer: 'Organizer for updated answers' });
      const event = (
        await create(
          'editor',
          minimal({
            title: 'Updated answer',
            categories: ['Jazz'],
            tags: ['outdoor'],
            venue: { venue: 'Hall of updated answers' },
            organizer: [organizer.id],
            image: 'https://img.example.org/before.png',
          }),
        ).expect(201)
      ).body;
      const update = (body: Record<string, unknown>, language = '') =>
        http()
          .patch(`${language}${BASE}/events/${event.id}`)
          .set('Authorization', users.editor.header)
          .send(body)
          .expect(200);
      const updates: Array<[Record<string, unknown>, string?]> = [
        [{ title: 'Renamed answer', description: '<p>New "text"</p>' }],
        [{ categories: ['Answer update category'], tags: [] }],
        [{ venue: { venue: 'Another hall of updated answers', city: 'Arad' } }],
        [{ organizer: [{ organizer: 'Inline organizer of an update' }, organizer.id] }],
        [{ status: 'draft', image: '' }],
        [{ status: 'publish', start_date: '2032-01-02 09:00:00', all_day: true, cost: '5' }],
        [{ slug: 'answer-chosen-slug', featured: true, sticky: false }],
        [{ language: 'ro' }, '/ro'],
      ];
      for (const [body, language] of updates) {
        const answered = await update(body, language);
        expect(answered.body).toEqual(await readBack(event.id, language));
      }
    });

    it('is what a read shows for a reused venue, a draft and an all-day event', async () => {
      await create(
        'editor',
        minimal({ title: 'First with the hall', venue: { venue: 'Reused answer hall' } }),
      ).expect(201);
      const reused = await create(
        'editor',
        minimal({
          title: 'Second with the hall',
          venue: { venue: 'Reused answer hall', city: 'Cluj' },
        }),
      ).expect(201);
      expect(reused.body.venue).toMatchObject({ venue: 'Reused answer hall', city: 'Cluj' });
      // A new inline venue takes its id in the event's statement: each id is of its own kind.
      const withNewHall = await create(
        'editor',
        minimal({ title: 'With a new hall', venue: { venue: 'New answer hall' } }),
      ).expect(201);
      const hallId = withNewHall.body.venue.id as number;
      expect(hallId).toBeGreaterThan(withNewHall.body.id);
      await http().get(`${BASE}/events/${hallId}`).expect(400);
      await http().get(`${BASE}/venues/${hallId}`).expect(200);
      expect(withNewHall.body).toEqual(await readBack(withNewHall.body.id));
      expect(reused.body).toEqual(await readBack(reused.body.id));
      const draft = await create(
        'editor',
        minimal({ title: 'Draft answer', status: 'draft' }),
      ).expect(201);
      expect(draft.body.slug).toBe('');
      expect(draft.body).toEqual(await readBack(draft.body.id));
      const allDay = await create(
        'contributor',
        minimal({
          title: 'All day answer',
          all_day: true,
          categories: ['Jazz'],
          tags: ['outdoor'],
        }),
      ).expect(201);
      expect(allDay.body).toEqual(await readBack(allDay.body.id));
    });

    it('is what a read shows when every term existed: order, counts, languages', async () => {
      // These answers embed the terms as the write's look-up found them (no read after the
      // commit): the counts must include the new event exactly where a read counts it.
      const term = (kind: 'categories' | 'tags', name: string, language = '') =>
        made(kind, { name }, language);
      // Created in an order unlike their names', one name differing only by case from a slug.
      const zeta = await term('categories', 'zeta answer cat');
      const alpha = await term('categories', 'Alpha answer cat');
      const mid = await term('categories', 'Mid answer cat');
      const hungarian = await term('categories', 'Magyar answer cat', '/hu');
      const tagB = await term('tags', 'b answer tag');
      const tagA = await term('tags', 'A answer tag');
      const bodies: Array<Record<string, unknown>> = [
        { categories: [zeta.id, 'alpha-answer-cat', 'MID ANSWER CAT'], tags: [tagB.slug, tagA.id] },
        { categories: [alpha.id, hungarian.id], tags: ['a answer tag'], status: 'publish' },
        { categories: [mid.slug, zeta.slug], tags: [tagA.slug, tagB.id], status: 'draft' },
        { categories: [zeta.id, zeta.slug, 'Zeta Answer Cat'], tags: [] },
        { categories: [hungarian.id], tags: [tagB.id], status: 'pending' },
        // Slugs only, one of them written as a name: every term found by its slug.
        { categories: ['MID ANSWER CAT', zeta.slug], tags: ['A Answer Tag', tagB.slug] },
      ];
      for (const [i, body] of bodies.entries()) {
        const created = await create('editor', minimal({ title: `Known terms ${i}`, ...body }));
        expect(created.status).toBe(201);
        expect(created.body).toEqual(await readBack(created.body.id));
      }
      // The Hungarian category was linked from English events: it counts none of them.
      const hu = await http().get(`/hu${BASE}/categories/${hungarian.id}`).expect(200);
      expect(hu.body.count).toBe(0);
      const zetaRead = await http().get(`${BASE}/categories/${zeta.id}`).expect(200);
      expect(zetaRead.body.count).toBe(3);
    });

    it('takes a fixed set of statements: one term look-up without UNION, inserts without RETURNING', async () => {
      const category = await made('categories', { name: 'Statements category' });
      await made('tags', { name: 'Statements tag' });
      const statements: string[] = [];
      const exchanges: string[] = [];
      const count = await countQueries(
        app(),
        () =>
          create(
            'editor',
            minimal({
              title: 'Statements of a create',
              venue: { venue: 'Statements hall', city: 'Szeged' },
              categories: [category.slug],
              tags: ['Statements Tag'],
            }),
          ).expect(201),
        statements,
        exchanges,
      );
      const termReads = statements.filter((sql) =>
        /^SELECT\b[\s\S]*\bFROM [`"]?terms[`"]? /.test(sql),
      );
      expect(termReads).toHaveLength(1);
      expect(termReads[0]).not.toMatch(/UNION/);
      const inserts = statements.filter((sql) =>
        /^INSERT INTO [`"]?(events|venues|event_terms)\b/.test(sql),
      );
      expect(inserts).toHaveLength(3);
      for (const sql of inserts) expect(sql).not.toMatch(/RETURNING/);
      // The user's row; BEGIN; on MySQL/MariaDB the duplicate-venue lock, on SQLite the write
      // lock taken first (a no-op UPDATE, so that no other connection's commit can make the
      // write fail); the duplicate check; the event's and the venue's ids in one statement (two
      // on MySQL 8, which has no RETURNING); the venue; the event;
      // terms; their links; their counts; the webhook outbox's row of the changes; COMMIT. The
      // answer reads nothing back: the event's row and the venue are as the write inserted them,
      // and a create without the modules' fields has no row in their tables (virtual_events).
      // A pool connection's first write also sets its isolation level once (not counted).
      // What may follow is another task's: the webhook dispatcher starts a round when a write
      // commits (on SQLite its transaction's unmarked BEGIN and write lock), reading nothing.
      const own = statements.slice(0, statements.indexOf('COMMIT') + 1);
      expect(own.length).toBeLessThanOrEqual(count);
      expect(statements.slice(own.length).filter((sql) => /\bFROM\b/i.test(sql))).toEqual([]);
      const once = own.filter((sql) => sql.startsWith('SET SESSION TRANSACTION')).length;
      const mysql8 = app().get(DataSource).options.type === 'mysql';
      expect(own.length - once).toBe(mysql8 ? 13 : 12);
      const ids = own.filter((sql) => /^INSERT INTO [`"]?post_ids\b/.test(sql));
      expect(ids).toHaveLength(mysql8 ? 2 : 1);
      // On MySQL/MariaDB, what nobody reads the answer of goes with the next statement
      // (statement-batch.ts): the transaction's start with the venue-name lock and the duplicate
      // check; the links, counts and outbox row with the COMMIT. Seven exchanges (eight on
      // MySQL 8). SQLite, in-process, sends each alone. (A bare START TRANSACTION or COMMIT is
      // the webhook dispatcher's, which may run meanwhile: a batched write sends neither alone.)
      if (app().get(DataSource).options.type !== 'better-sqlite3') {
        const ours = exchanges.filter((sql) => !/^(START TRANSACTION|COMMIT)$/.test(sql));
        const sent = ours.slice(0, ours.findIndex((sql) => sql.endsWith(';\nCOMMIT')) + 1);
        expect(sent.length - once).toBe(mysql8 ? 8 : 7);
        expect(sent[1 + once]).toMatch(
          /^START TRANSACTION;\nINSERT INTO write_locks[\s\S]*;\nSELECT /,
        );
        expect(sent.at(-1)).toMatch(
          /^INSERT INTO `event_terms`[\s\S]*;\nUPDATE terms[\s\S]*;\nINSERT INTO webhook_outbox[\s\S]*;\nCOMMIT$/,
        );
      }
    });

    it('numbers an inline venue right after its event, and a reused one takes no id', async () => {
      const first = await create(
        'editor',
        minimal({ title: 'Numbered event', venue: { venue: 'Numbered hall', city: 'Pécs' } }),
      ).expect(201);
      expect(first.body.venue.id).toBe(first.body.id + 1);
      const reused = await create(
        'editor',
        minimal({ title: 'Numbered again', venue: { venue: 'Numbered hall', city: 'Pécs' } }),
      ).expect(201);
      expect(reused.body.venue.id).toBe(first.body.venue.id);
      expect(reused.body.id).toBe(first.body.venue.id + 1);
      const alone = await create('editor', minimal({ title: 'Numbered alone' })).expect(201);
      expect(alone.body.id).toBe(reused.body.id + 1);
      const twoVenues = await create(
        'editor',
        minimal({
          title: 'Numbered with a new hall',
          venue: { venue: 'Second numbered hall', city: 'Pécs' },
        }),
      ).expect(201);
      expect(twoVenues.body.id).toBe(alone.body.id + 1);
      expect(twoVenues.body.venue.id).toBe(twoVenues.body.id + 1);
    });

    it('links the term whose slug an item is before the one it names, whether or not all are found', async () => {
      // "Slug first" names the term whose slug is "clash-answer"; "Name second" is named
      // "Clash answer" but has another slug. The item "Clash answer" is the first's slug.
      const first = await made('categories', { name: 'Slug first', slug: 'clash-answer' });
      const second = await made('categories', { name: 'Clash answer', slug: 'name-second' });
      for (const [i, categories] of [
        ['Clash answer'],
        ['Clash answer', 'A category made by this create'],
        ['Clash answer', 'name-second'],
      ].entries()) {
        const created = await create('editor', minimal({ title: `Clash ${i}`, categories }));
        expect(created.status).toBe(201);
        const ids = (created.body.categories as Array<{ id: number }>).map((c) => c.id);
        expect(ids).toContain(first.id);
        expect(ids.includes(second.id)).toBe(categories.includes('name-second'));
        expect(created.body).toEqual(await readBack(created.body.id));
      }
    });
  });

  describe('update', () => {
    it('changes only what the request carries, on POST, PUT and PATCH', async () => {
      const full = {
        title: 'Full draft',
        start_date: '2031-02-03 10:00:00',
        end_date: '2031-02-03 12:00:00',
        description: 'Desc',
        excerpt: 'Short',
        status: 'draft',
        timezone: 'Europe/Bucharest',
        all_day: false,
        image: 'https://img.example.org/x.png',
        cost: '20€',
        website: 'https://example.org',
        show_map: true,
        show_map_link: true,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        categories: ['Jazz'],
        tags: ['outdoor'],
        venue: { venue: 'Full venue' },
        organizer: [{ organizer: 'Full organizer' }],
      };
      const before = (await create('editor', full).expect(201)).body;
      for (const method of ['post', 'put', 'patch'] as const) {
        const send = http()[method].bind(http());
        const after = await send(`${BASE}/events/${before.id}`)
          .set('Authorization', users.editor.header)
          .send({ title: `Renamed ${method}` })
          .expect(200);
        const { title, modified, modified_utc, json_ld, ...rest } = after.body;
        const { title: _t, modified: _m, modified_utc: _mu, ...restBefore } = before;
        void json_ld;
        expect(title).toBe(`Renamed ${method}`);
        expect(rest).toEqual(restBefore);
        expect(typeof modified).toBe('string');
        expect(typeof modified_utc).toBe('string');
      }
    });

    // Regressions found by test/fuzz.e2e-spec.ts: these answered 500.
    it('treats null as an absent field (as WordPress does) and rejects unstorable dates', async () => {
      const e = (await create('editor', minimal({ date: null, author: null })).expect(201)).body;
      const res = await http()
        .patch(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .send({ title: null, start_date: null, date_utc: null, password: null, excerpt: 'Kept' })
        .expect(200);
      expect(res.body).toMatchObject({ title: e.title, start_date: e.start_date, date: e.date });
      await create('editor', minimal({ title: null })).expect(400, /rest_missing_callback_param/);
      for (const date of ['0000-00-00 00:00:00', '-0001-01-01', -99999999999]) {
        const bad = await create('editor', minimal({ start_date: date })).expect(400);
        expect(bad.body.data.params).toEqual({
          start_date: 'start_date is outside the years 1 to 9999.',
        });
        await create('editor', minimal({ date_utc: date })).expect(400);
      }
    });

    it('applies the plugin rules to the fields it is given', async () => {
      const e = (await create('editor', minimal({ cost: '20€' })).expect(201)).body;
      const res = await http()
        .patch(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .send({ timezone: 'America/New_York', end_date: '2030-05-05 20:00', cost: '25' })
        .expect(200);
      expect(res.body).toMatchObject({
        timezone: 'America/New_York',
        start_date: e.start_date,
        end_date: '2030-05-05 20:00:00',
        utc_end_date: '2030-05-06 00:00:00',
        timezone_abbr: expect.stringMatching(/^E[SD]T$/),
        cost: '25€',
      });
    });

    it('answers 404/401/403/400 as the plugin does', async () => {
      await http().put(`${BASE}/events/999999`).send({ title: 'x' }).expect(401);
      await http()
        .put(`${BASE}/events/999999`)
        .set('Authorization', users.subscriber.header)
        .send({ title: 'x' })
        .expect(403);
      const nf = await http()
        .put(`${BASE}/events/999999`)
        .set('Authorization', users.editor.header)
        .send({ title: 'x' })
        .expect(404);
      expect(nf.body.message).toBe('Event with ID 999999 does not exist.');
      const slug = await http()
        .put(`${BASE}/events/by-slug/nothing-here`)
        .set('Authorization', users.editor.header)
        .send({ title: 'x' })
        .expect(404);
      expect(slug.body.message).toBe('Event with ID 0 does not exist.');
      const e = (await create('editor', minimal()).expect(201)).body;
      await http()
        .put(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .send({ start_date: 'nope' })
        .expect(400);
    });

    it('lets contributors edit only their own unpublished events', async () => {
      const own = (await create('contributor', minimal()).expect(201)).body;
      await http()
        .put(`${BASE}/events/${own.id}`)
        .set('Authorization', users.contributor.header)
        .send({ title: 'Mine' })
        .expect(200);
      const admins = (await create('administrator', minimal()).expect(201)).body;
      await http()
        .put(`${BASE}/events/${admins.id}`)
        .set('Authorization', users.contributor.header)
        .send({ title: 'x' })
        .expect(403);
      await http()
        .delete(`${BASE}/events/${admins.id}`)
        .set('Authorization', users.contributor.header)
        .expect(403);
      await http()
        .put(`${BASE}/events/${admins.id}`)
        .set('Authorization', users.author.header)
        .send({ title: 'x' })
        .expect(403);
      await http()
        .put(`${BASE}/events/${admins.id}`)
        .set('Authorization', users.editor.header)
        .send({ title: 'x' })
        .expect(200);
    });

    it('publishes a draft with a slug and a date', async () => {
      const draft = (
        await create('editor', minimal({ status: 'draft', title: 'Late bloomer' })).expect(201)
      ).body;
      const res = await http()
        .post(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.editor.header)
        .send({ status: 'publish' })
        .expect(200);
      expect(res.body.slug).toBe('late-bloomer');
      expect(res.body.date_utc).not.toBe('0000-00-00 00:00:00');
      expect(res.body.url).toBe('http://cal.test/event/late-bloomer/');
    });

    it('updates by slug, with a body slug renaming the event', async () => {
      await create('editor', minimal({ title: 'Slugged' })).expect(201);
      const res = await http()
        .patch(`${BASE}/events/by-slug/slugged`)
        .set('Authorization', users.editor.header)
        .send({ slug: 'renamed-slug' })
        .expect(200);
      expect(res.body.slug).toBe('renamed-slug');
      await http().get(`${BASE}/events/by-slug/renamed-slug`).expect(200);
    });
  });

  describe('term counts follow event writes', () => {
    it('counts only published events, through create, update and trash', async () => {
      const e = (
        await create('editor', minimal({ categories: ['Counted'], tags: ['counted-tag'] })).expect(
          201,
        )
      ).body;
      const cat = e.categories[0].id;
      const count = async () =>
        (await http().get(`${BASE}/categories/${cat}`).expect(200)).body.count;
      expect(e.categories[0].count).toBe(1);
      expect(await count()).toBe(1);
      await http()
        .patch(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .send({ status: 'draft' })
        .expect(200);
      expect(await count()).toBe(0);
      await http()
        .patch(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .send({ status: 'publish' })
        .expect(200);
      expect(await count()).toBe(1);
      await http()
        .delete(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(await count()).toBe(0);
    });
  });

  describe('delete', () => {
    it('trashes, then answers 410 on a second delete (by id and by slug)', async () => {
      const e = (await create('editor', minimal({ title: 'Doomed' })).expect(201)).body;
      const first = await http()
        .delete(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(first.body.status).toBe('trash');
      const second = await http()
        .delete(`${BASE}/events/${e.id}`)
        .set('Authorization', users.editor.header)
        .expect(410);
      expect(second.body).toEqual(
        wpError(410, 'event-is-in-trash', 'The event is already trashed'),
      );
      await http()
        .delete(`${BASE}/events/by-slug/doomed`)
        .set('Authorization', users.editor.header)
        .expect(410);
    });

    it('checks existence after permission for missing ids, before it for unknown slugs', async () => {
      await http().delete(`${BASE}/events/999999`).expect(401);
      await http()
        .delete(`${BASE}/events/999999`)
        .set('Authorization', users.editor.header)
        .expect(404);
      await http().delete(`${BASE}/events/by-slug/unknown-slug`).expect(400);
    });

    // Authorization matrix: a trashed record counts as unpublished for its contributor, so the
    // second DELETE is the 410 of CONTRACT §3 and updates are allowed.
    it('answers a contributor 410 on a second delete of an own draft, and lets it update it', async () => {
      const draft = (await create('contributor', minimal()).expect(201)).body;
      const remove = () =>
        http().delete(`${BASE}/events/${draft.id}`).set('Authorization', users.contributor.header);
      await remove().expect(200);
      const again = await remove().expect(410);
      expect(again.body.code).toBe('event-is-in-trash');
      const res = await http()
        .patch(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.contributor.header)
        .send({ title: 'Still mine' })
        .expect(200);
      expect(res.body).toMatchObject({ status: 'trash', title: 'Still mine' });
      await http()
        .patch(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.author.header)
        .send({ title: 'Not mine' })
        .expect(403);
    });

    it('lets a contributor delete an own draft but not an own published event', async () => {
      const draft = (await create('contributor', minimal()).expect(201)).body;
      await http()
        .delete(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.contributor.header)
        .expect(200);
      const published = (
        await create('editor', minimal({ author: users.contributor.id })).expect(201)
      ).body;
      await http()
        .delete(`${BASE}/events/${published.id}`)
        .set('Authorization', users.contributor.header)
        .expect(403);
    });
  });
});
