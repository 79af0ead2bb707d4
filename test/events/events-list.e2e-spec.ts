import { TrashPurger } from '../../src/posts/purge-trash.js';
import { DateTime } from 'luxon';
import type { RoleUsers } from '../helpers/auth.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import { wpError } from '../helpers/wp-error.js';

const BASE = '/cal/events/v1';
const utcDay = (offsetDays: number, time = '10:00:00') =>
  `${DateTime.utc().plus({ days: offsetDays }).toFormat('yyyy-MM-dd')} ${time}`;

/** Listing, filters, paging and the date window of BEHAVIOR §5.1-§5.2 on a fixed data set. */
describe('events list (e2e)', () => {
  const { app, http, users } = useTestApp();
  const ids: Record<string, number> = {};
  let venueA: number;
  let venueB: number;
  let organizer: number;
  let jazz: number;

  const create = async (
    key: string,
    body: Record<string, unknown>,
    as: keyof RoleUsers = 'editor',
  ) => {
    const res = await postEvent(http, users[as].header, body);
    if (res.status !== 201) throw new Error(`${key}: ${res.status} ${JSON.stringify(res.body)}`);
    ids[key] = res.body.id;
    return res.body;
  };
  const list = (query = '', as?: keyof RoleUsers) => {
    const req = http().get(`${BASE}/events${query}`);
    return as ? req.set('Authorization', users[as].header) : req;
  };
  const listed = async (query = '', as?: keyof RoleUsers) => {
    const res = await list(query, as).expect(200);
    return (res.body.events as Array<{ id: number }>).map((e) => e.id);
  };

  beforeAll(async () => {
    const venue = (name: string) =>
      http()
        .post(`${BASE}/venues`)
        .set('Authorization', users.editor.header)
        .send({ venue: name })
        .then((r) => r.body.id as number);
    venueA = await venue('Hall A');
    venueB = await venue('Hall B');
    organizer = (
      await http()
        .post(`${BASE}/organizers`)
        .set('Authorization', users.editor.header)
        .send({ organizer: 'Org One' })
    ).body.id;
    await create('past', {
      title: 'Long gone',
      start_date: utcDay(-10),
      end_date: utcDay(-10, '12:00:00'),
    });
    await create('running', {
      title: 'Started two days ago',
      start_date: utcDay(-2),
      end_date: utcDay(1),
    });
    await create('yesterday', {
      title: 'Yesterday morning',
      start_date: utcDay(-1, '08:00:00'),
      end_date: utcDay(-1, '09:00:00'),
    });
    await create('soon', {
      title: 'Jazz night',
      description: 'Smooth saxophone',
      start_date: utcDay(3),
      end_date: utcDay(3, '23:00:00'),
      categories: ['Jazz'],
      tags: ['evening'],
      venue: venueA,
      organizer: [organizer],
      featured: true,
    });
    await create('later', {
      title: 'Rock day',
      start_date: utcDay(10),
      end_date: utcDay(10, '18:00:00'),
      venue: venueB,
      tags: ['evening'],
    });
    await create('far', { title: 'Far future', start_date: utcDay(1000), end_date: utcDay(1000) });
    await create('hidden', {
      title: 'Hidden one',
      start_date: utcDay(4),
      end_date: utcDay(4),
      hide_from_listings: true,
    });
    await create(
      'draft',
      { title: 'Draft of contributor', start_date: utcDay(5), end_date: utcDay(5) },
      'contributor',
    );
    await create(
      'private',
      { title: 'Private of author', start_date: utcDay(6), end_date: utcDay(6), status: 'private' },
      'author',
    );
    jazz = (await http().get(`${BASE}/events/${ids.soon}`).expect(200)).body.categories[0].id;
  });

  it('lists upcoming published events from yesterday on, ordered by start', async () => {
    const res = await list().expect(200);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([
      ids.yesterday,
      ids.soon,
      ids.later,
    ]);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(res.body.total).toBe(3);
    expect(res.body.total_pages).toBe(1);
    expect(res.headers['x-tec-total']).toBe('3');
    expect(res.headers['x-tec-totalpages']).toBe('1');
    const restUrl = new URL(res.body.rest_url);
    expect(restUrl.pathname).toBe('/cal/events/v1/events/');
    expect(restUrl.searchParams.get('status')).toBe('publish');
    expect(restUrl.searchParams.get('start_date')).toBe(utcDay(-1, '00:00:00'));
  });

  it('never lists hidden events, for any caller or filter', async () => {
    expect(await listed(`?include=${ids.hidden}`, 'administrator')).toEqual([]);
  });

  it('shows unpublished events only as CONTRACT §2 allows', async () => {
    expect(await listed('', 'editor')).toEqual([
      ids.yesterday,
      ids.soon,
      ids.draft,
      ids.private,
      ids.later,
    ]);
    expect(await listed('', 'contributor')).toEqual([
      ids.yesterday,
      ids.soon,
      ids.draft,
      ids.later,
    ]);
    expect(await listed('', 'author')).toEqual([ids.yesterday, ids.soon, ids.private, ids.later]);
    expect(await listed('?status=draft', 'editor')).toEqual([ids.draft]);
    expect(await listed('?status=draft,private', 'editor')).toEqual([ids.draft, ids.private]);
    const anon = await list('?status=draft').expect(400);
    expect(anon.body.data.params).toEqual({ status: 'Invalid parameter.' });
    await list('?status=publish').expect(200);
    await list('?status=foo,publish', 'editor').expect(400);
  });

  it('applies explicit date windows (inclusive and strict)', async () => {
    expect(
      await listed(`?start_date=${utcDay(-10, '23:00:00')}&end_date=${utcDay(3, '00:00:01')}`),
    ).toEqual([ids.past, ids.running, ids.yesterday, ids.soon]);
    expect(
      await listed(`?start_date=${utcDay(3, '10:00:01')}&end_date=${utcDay(20)}&strict_dates=true`),
    ).toEqual([ids.later]);
  });

  it('applies relative filters and drops the default window', async () => {
    expect(await listed(`?ends_after=${utcDay(0)}&starts_before=${utcDay(0)}`)).toEqual([
      ids.running,
    ]);
    expect(await listed(`?starts_after=${utcDay(3)}`)).toEqual([ids.later, ids.far]);
    expect(await listed(`?ends_before=${utcDay(-5)}`)).toEqual([ids.past]);
  });

  it('ignores date windows with include', async () => {
    expect(await listed(`?include=${ids.far},${ids.past}`)).toEqual([ids.past, ids.far]);
  });

  it('filters by search, categories, tags, venue, organizer and featured', async () => {
    expect(await listed('?search=saxophone')).toEqual([ids.soon]);
    expect(await listed('?search=JAZZ')).toEqual([ids.soon]);
    expect(await listed('?search=day -rock')).toEqual([ids.yesterday]);
    expect(await listed('?categories=jazz')).toEqual([ids.soon]);
    expect(await listed(`?categories=${jazz}`)).toEqual([ids.soon]);
    expect(await listed('?tags[]=evening')).toEqual([ids.soon, ids.later]);
    expect(await listed(`?venue=${venueB}`)).toEqual([ids.later]);
    expect(await listed(`?venue=${venueA},${venueB}`)).toEqual([ids.soon, ids.later]);
    expect(await listed(`?organizer=${organizer}`)).toEqual([ids.soon]);
    expect(
      await listed(
        `?venue=${venueA}&organizer=${organizer}&categories=jazz&search=night&start_date=${utcDay(0)}&end_date=${utcDay(5)}`,
      ),
    ).toEqual([ids.soon]);
    expect(await listed('?featured=true')).toEqual([ids.soon]);
    expect(await listed('?featured=0')).toEqual([ids.yesterday, ids.later]);
  });

  it('rejects filters naming records that do not exist', async () => {
    const res = await list('?categories=no-such-category&venue=999999').expect(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params).toEqual({
      categories: 'Invalid parameter.',
      venue: 'Invalid parameter.',
    });
    await list(`?venue=${ids.soon}`).expect(400);
    await list(`?organizer=${venueA}`).expect(400);
    await list('?post_parent=999999').expect(400);
    expect(await listed(`?post_parent=${ids.soon}`)).toEqual([]);
  });

  it('checks a venue or organizer filter again after a write', async () => {
    const made = await http()
      .post(`${BASE}/venues`)
      .set('Authorization', users.editor.header)
      .send({ venue: 'Short-lived hall' })
      .expect(201);
    const venue = made.body.id as number;
    // Checked once, then kept until a write: the purge below must be seen at once.
    expect(await listed(`?venue=${venue}`)).toEqual([]);
    expect(await listed(`?venue=${venue}`)).toEqual([]);
    await http()
      .delete(`${BASE}/venues/${venue}`)
      .set('Authorization', users.editor.header)
      .expect(200);
    // Trashed, the venue still exists (any status); purged, it does not.
    expect(await listed(`?venue=${venue}`)).toEqual([]);
    await app().get(TrashPurger).purge(null);
    const res = await list(`?venue=${venue}`).expect(400);
    expect(res.body.data.params).toEqual({ venue: 'Invalid parameter.' });
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=foo', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=1.5', 'per_page'],
    ['start_date=foo', 'start_date'],
    ['starts_after=not a date', 'starts_after'],
    ['featured=yes', 'featured'],
    ['include=0', 'include'],
    ['search=', 'search'],
  ])('rejects %s', async (query, param) => {
    const res = await list(`?${query}`).expect(400);
    expect(Object.keys(res.body.data.params)).toEqual([param]);
  });

  it('rejects ticketed=true with the Event Tickets reason and accepts false', async () => {
    const res = await list('?ticketed=true').expect(400);
    expect(res.body.data.params).toEqual({ ticketed: 'Event Tickets plugin is not activated.' });
    expect(res.body.data.details.ticketed).toEqual(
      wpError(400, 'event-tickets-not-active', 'Event Tickets plugin is not activated.'),
    );
    await list('?ticketed=false').expect(200);
    const foo = await list('?ticketed=foo').expect(400);
    expect(foo.body.data.params).toEqual({ ticketed: 'ticketed is not of type boolean.' });
  });

  it('applies the geolocation filters: venues without coordinates are not listed', async () => {
    // The fixtures' venues have no coordinates; test/events/geoloc.e2e-spec.ts covers the rest.
    expect(await listed('?geoloc=0')).toEqual([ids.yesterday, ids.soon, ids.later]);
    expect(await listed('?geoloc=1')).toEqual([]);
    expect(await listed('?geoloc=1&geoloc_lat=47.5&geoloc_lng=19.04')).toEqual([]);
  });

  it('pages with links, clamps per_page and 404s past the last page', async () => {
    const p1 = await list('?per_page=2').expect(200);
    expect(p1.body.events).toHaveLength(2);
    expect(p1.body.total_pages).toBe(2);
    expect(new URL(p1.body.next_rest_url).searchParams.get('page')).toBe('2');
    expect(p1.body.previous_rest_url).toBeUndefined();
    const p2 = await list('?per_page=2&page=2').expect(200);
    expect(p2.body.events).toHaveLength(1);
    expect(p2.body.next_rest_url).toBeUndefined();
    expect(new URL(p2.body.previous_rest_url).searchParams.has('page')).toBe(false);
    const p3 = await list('?per_page=2&page=3').expect(404);
    expect(p3.body).toEqual(
      wpError(
        404,
        'event-archive-page-not-found',
        'The requested event archive page does not exist',
      ),
    );
    const clamped = await list('?per_page=500').expect(200);
    expect(new URL(clamped.body.rest_url).searchParams.get('per_page')).toBe('50');
  });

  it('answers an empty first page with 200 and zero totals', async () => {
    const res = await list('?search=nothing-matches-this').expect(200);
    expect(res.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
    expect(res.headers['x-tec-total']).toBe('0');
  });

  it('embeds venue, organizers and terms', async () => {
    const res = await list('?featured=1').expect(200);
    const e = res.body.events[0];
    expect(e.venue).toMatchObject({ id: venueA, venue: 'Hall A' });
    expect(e.organizer).toHaveLength(1);
    expect(e.organizer[0]).toMatchObject({ id: organizer, organizer: 'Org One' });
    expect(e.categories[0]).toMatchObject({
      name: 'Jazz',
      slug: 'jazz',
      taxonomy: 'cal_events_cat',
    });
    expect(e.tags[0]).toMatchObject({ name: 'evening', taxonomy: 'post_tag' });
  });

  it('lists only the events of the request language', async () => {
    await postEvent(
      http,
      users.editor.header,
      { title: 'Magyar', start_date: utcDay(2), end_date: utcDay(2) },
      `/hu${BASE}`,
    ).expect(201);
    const hu = await http().get(`/hu${BASE}/events`).expect(200);
    expect(hu.body.events.map((e: { title: string }) => e.title)).toEqual(['Magyar']);
    expect(new URL(hu.body.rest_url).pathname).toBe('/hu/cal/events/v1/events/');
    expect(await listed('?i18n_language=en')).toEqual([ids.yesterday, ids.soon, ids.later]);
  });

  it('reflects a write in the very next list (cached totals are invalidated)', async () => {
    const before = (await list('?search=Fresh').expect(200)).body.total;
    await create('fresh', { title: 'Fresh event', start_date: utcDay(2), end_date: utcDay(2) });
    const after = await list('?search=Fresh').expect(200);
    expect(after.body.total).toBe(before + 1);
    expect(after.headers['x-tec-total']).toBe(String(before + 1));
    await http()
      .delete(`${BASE}/events/${ids.fresh}`)
      .set('Authorization', users.editor.header)
      .expect(200);
    expect((await list('?search=Fresh').expect(200)).body.total).toBe(before);
  });

  it('loads a page in the same number of queries whatever per_page and page are', async () => {
    // Six events linked alike (venue, organizer, category, tag), so that every page needs the
    // same lookups; a lookup with nothing to look up is skipped, never repeated per event.
    for (let i = 1; i <= 6; i++) {
      await create(`series${i}`, {
        title: `Series ${i}`,
        start_date: `2090-01-0${i} 10:00:00`,
        end_date: `2090-01-0${i} 12:00:00`,
        venue: venueA,
        organizer: [organizer],
        categories: ['Jazz'],
        tags: ['evening'],
      });
    }
    const window = 'start_date=2090-01-01&end_date=2090-12-31';
    expect((await list(`?${window}`, 'editor').expect(200)).body.total).toBe(6);
    // Cold each time: list totals are cached until the next write. Authenticated, so the
    // response cache (anonymous reads only) is not involved either.
    const count = (query: string) =>
      countQueries(app(), async () => {
        await coldCaches(app());
        await list(`?${window}&${query}`, 'editor').expect(200);
      });
    const first = await count('per_page=1');
    expect(first).toBeGreaterThan(0);
    for (const query of [
      'per_page=6',
      'per_page=1&page=2',
      'per_page=1&page=6',
      'per_page=2&page=3',
    ]) {
      expect([query, await count(query)]).toEqual([query, first]);
    }
  });
});
