import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DateTime } from 'luxon';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';
import { postEvent } from '../helpers/app-fixture.js';
import { postRecord } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';
const day = (offset: number) =>
  `${DateTime.utc().plus({ days: offset }).toFormat('yyyy-MM-dd')} 10:00:00`;

/**
 * The point `km` away from (lat, lng) towards `bearing` degrees on a sphere of the mean Earth
 * radius (the direct geodesic problem on the sphere, written independently of src/).
 */
function destination(lat: number, lng: number, km: number, bearing: number): [number, number] {
  const r = Math.PI / 180;
  const d = km / 6371.0088;
  const p1 = lat * r;
  const b = bearing * r;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l2 =
    lng * r +
    Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  let lng2 = l2 / r;
  while (lng2 > 180) lng2 -= 360;
  while (lng2 < -180) lng2 += 360;
  return [p2 / r, lng2];
}

/** 25 miles, the default fence. */
const FENCE_KM = 25 * 1.609344;
const BUDAPEST = [47.4979, 19.0402] as const;
const FIJI = [-17.7, 179.95] as const;
const POLE = [89.9, 10] as const;

/** The geolocation filters of the events list (CONTRACT §6), venue coordinates on writes. */
describe('events list geolocation (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  const venues: Record<string, number> = {};
  const events: Record<string, number> = {};
  let jazz: number;

  const post = (path: string, body: Record<string, unknown>, status = 201) =>
    postRecord(http, users.editor.header, path, body, status, BASE);
  const list = (query: string) => http().get(`${BASE}/events${query}`);
  const listed = async (query: string) => {
    const res = await list(query).expect(200);
    return (res.body.events as Array<{ id: number }>).map((e) => e.id);
  };
  const at = (name: string, point: readonly [number, number] | null, offset: number) =>
    (async () => {
      venues[name] = (
        await post(
          '/venues',
          point ? { venue: name, geo_lat: point[0], geo_lng: point[1] } : { venue: name },
        )
      ).id;
      events[name] = (
        await post('/events', {
          title: `At ${name}`,
          start_date: day(offset),
          end_date: day(offset),
          venue: venues[name],
          ...(name === 'inside' ? { categories: [jazz] } : {}),
        })
      ).id;
    })();
  const fence = ([lat, lng]: readonly [number, number]) => `?geoloc_lat=${lat}&geoloc_lng=${lng}`;

  beforeAll(async () => {
    app = await createTestApp();
    users = await createRoleUsers(app);
    jazz = (
      await http()
        .post(`${BASE}/categories`)
        .set('Authorization', users.administrator.header)
        .send({ name: 'Jazz' })
        .expect(201)
    ).body.id;
    // Around Budapest: the order of the offsets is the list order.
    await at('inside', destination(...BUDAPEST, 10, 0), 1);
    await at('justInside', destination(...BUDAPEST, FENCE_KM - 0.2, 90), 2);
    await at('justOutside', destination(...BUDAPEST, FENCE_KM + 0.2, 200), 3);
    await at('vienna', [48.2082, 16.3738], 4);
    await at('noCoordinates', null, 5);
    // Across the antimeridian from a point in Fiji.
    await at('eastOfDateLine', destination(...FIJI, 30, 90), 6);
    await at('westOfDateLine', destination(...FIJI, 30, 270), 7);
    await at('farEast', destination(...FIJI, 60, 90), 8);
    // Near the north pole: across it, and at every side.
    await at('acrossPole', destination(...POLE, 30, 0), 9);
    await at('poleSide', destination(...POLE, 38, 100), 10);
    await at('poleFar', destination(...POLE, 45, 180), 11);
    // An event without a venue.
    events.noVenue = (
      await post('/events', { title: 'Nowhere', start_date: day(12), end_date: day(12) })
    ).id;
  });

  afterAll(() => closeApp(app));

  it('places the fixtures where the test means them to be', () => {
    const [lat, lng] = destination(...FIJI, 30, 90);
    expect(lng).toBeLessThan(0);
    expect(lat).toBeCloseTo(-17.7, 0);
    expect(destination(...POLE, 30, 0)[1]).toBeCloseTo(-170, 6);
  });

  it('geoloc truthy lists only events whose venue has coordinates; falsy has no effect', async () => {
    const all = await listed('?per_page=50');
    expect(all).toHaveLength(12);
    const withGeo = await listed('?geoloc=1&per_page=50');
    expect(withGeo).toEqual(
      all.filter((id) => id !== events.noCoordinates && id !== events.noVenue),
    );
    expect(await listed('?geoloc=true&per_page=50')).toEqual(withGeo);
    expect(await listed('?geoloc=0&per_page=50')).toEqual(all);
    expect(await listed('?geoloc=false&per_page=50')).toEqual(all);
    const res = await list('?geoloc=1').expect(200);
    expect(new URL(res.body.rest_url).searchParams.get('geoloc')).toBe('1');
    expect(res.headers['x-tec-total']).toBe('10');
  });

  it('keeps the venues within 25 miles of the point, in list order', async () => {
    expect(await listed(fence(BUDAPEST))).toEqual([events.inside, events.justInside]);
    const res = await list(`${fence(BUDAPEST)}&geoloc=1`).expect(200);
    expect(res.body.total).toBe(2);
    expect(res.headers['x-tec-total']).toBe('2');
  });

  it('pages a fenced list with links that keep the fence', async () => {
    const p1 = await list(`${fence(BUDAPEST)}&per_page=1`).expect(200);
    expect(p1.body.events.map((e: { id: number }) => e.id)).toEqual([events.inside]);
    expect(p1.body.total_pages).toBe(2);
    const self = new URL(p1.body.rest_url);
    expect(self.searchParams.get('geoloc_lat')).toBe(String(BUDAPEST[0]));
    expect(self.searchParams.get('geoloc_lng')).toBe(String(BUDAPEST[1]));
    const next = new URL(p1.body.next_rest_url);
    const p2 = await http().get(`${next.pathname}${next.search}`).expect(200);
    expect(p2.body.events.map((e: { id: number }) => e.id)).toEqual([events.justInside]);
    expect(p2.body.next_rest_url).toBeUndefined();
  });

  it('fences across the antimeridian', async () => {
    expect(await listed(fence(FIJI))).toEqual([events.eastOfDateLine, events.westOfDateLine]);
    // A centre just east of the line: 24 and 36 km to the two venues, 54 km to the far one.
    expect(await listed(`?geoloc_lat=${FIJI[0]}&geoloc_lng=-179.99`)).toEqual([
      events.eastOfDateLine,
      events.westOfDateLine,
    ]);
  });

  it('fences around a pole across every longitude', async () => {
    expect(await listed(fence(POLE))).toEqual([events.acrossPole, events.poleSide]);
    // From the pole itself: 19, 41 and 56 km.
    expect(await listed('?geoloc_lat=90&geoloc_lng=-180')).toEqual([events.acrossPole]);
  });

  it('combines with the other filters', async () => {
    const f = fence(BUDAPEST);
    expect(await listed(`${f}&categories=${jazz}`)).toEqual([events.inside]);
    expect(await listed(`${f}&venue=${venues.justInside},${venues.vienna}`)).toEqual([
      events.justInside,
    ]);
    expect(await listed(`${f}&search=${encodeURIComponent('At justInside')}`)).toEqual([
      events.justInside,
    ]);
    expect(await listed(`${f}&start_date=${day(2).slice(0, 10)}`)).toEqual([events.justInside]);
    expect(await listed(`${f}&end_date=${day(1).slice(0, 10)}`)).toEqual([events.inside]);
    expect(await listed(`${f}&starts_after=${day(1).slice(0, 10)}`)).toEqual([events.justInside]);
    expect(await listed(`${f}&include=${events.justInside},${events.vienna}`)).toEqual([
      events.justInside,
    ]);
    // Lists answer the request's language only (CONTRACT §5).
    expect(await listed(f.replace('?', '?i18n_language=hu&'))).toEqual([]);
  });

  it.each([
    ['?geoloc_lat=47.5', { geoloc_lng: 'geoloc_lng must be sent together with geoloc_lat.' }],
    ['?geoloc_lng=19', { geoloc_lat: 'geoloc_lat must be sent together with geoloc_lng.' }],
    ['?geoloc_lat=abc&geoloc_lng=19', { geoloc_lat: 'geoloc_lat is not of type number.' }],
    [
      '?geoloc_lat=&geoloc_lng=',
      {
        geoloc_lat: 'geoloc_lat is not of type number.',
        geoloc_lng: 'geoloc_lng is not of type number.',
      },
    ],
    ['?geoloc_lat=1e999&geoloc_lng=0', { geoloc_lat: 'geoloc_lat is not of type number.' }],
    ['?geoloc_lat[]=1&geoloc_lng=0', { geoloc_lat: 'geoloc_lat is not of type number.' }],
    ['?geoloc_lat=0x10&geoloc_lng=0', { geoloc_lat: 'geoloc_lat is not of type number.' }],
    [
      '?geoloc_lat=90.0001&geoloc_lng=0',
      {
        geoloc_lat: 'geoloc_lat must be between -90 and 90 degrees.',
      },
    ],
    [
      '?geoloc_lat=-91&geoloc_lng=180.5',
      {
        geoloc_lat: 'geoloc_lat must be between -90 and 90 degrees.',
        geoloc_lng: 'geoloc_lng must be between -180 and 180 degrees.',
      },
    ],
    [
      '?geoloc_lat=0&geoloc_lng=-1000',
      {
        geoloc_lng: 'geoloc_lng must be between -180 and 180 degrees.',
      },
    ],
    ['?geoloc=maybe', { geoloc: 'geoloc is not of type boolean.' }],
  ])('%s is a 400 naming the parameter', async (query, params) => {
    const res = await list(query).expect(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.status).toBe(400);
    expect(res.body.data.params).toEqual(params);
  });

  it('accepts the edge values and localizes its refusals', async () => {
    await list('?geoloc_lat=-90&geoloc_lng=180').expect(200);
    await list('?geoloc_lat=%2B47.5&geoloc_lng=.5').expect(200);
    const hu = await http().get(`/hu${BASE}/events?geoloc_lat=95&geoloc_lng=0`).expect(400);
    expect(hu.body.data.params.geoloc_lat).toBe(
      'A(z) geoloc_lat értékének -90 és 90 fok között kell lennie.',
    );
    const ro = await http().get(`/ro${BASE}/events?geoloc_lng=0`).expect(400);
    expect(ro.body.data.params.geoloc_lat).toBe(
      'geoloc_lat trebuie trimis împreună cu geoloc_lng.',
    );
  });

  it('lists a fenced page in as many queries as an unfenced one', async () => {
    const count = (query: string) =>
      countQueries(app, async () => {
        await coldCaches(app);
        await list(query).expect(200);
      });
    const plain = await count('?per_page=2');
    expect(await count(`${fence(BUDAPEST)}&per_page=2`)).toBe(plain);
    expect(await count('?geoloc=1&per_page=2')).toBe(plain);
  });

  describe('venue coordinates on writes', () => {
    it('creates, updates and clears them by ID and by slug', async () => {
      const created = await post('/venues', { venue: 'Coords', geo_lat: '46.07', geo_lng: 23.58 });
      expect(created).toMatchObject({ geo_lat: 46.07, geo_lng: 23.58 });
      const updated = await post(`/venues/${created.id}`, { geo_lat: -33.5 }, 200);
      expect(updated).toMatchObject({ geo_lat: -33.5, geo_lng: 23.58 });
      const bySlug = await post(`/venues/by-slug/${String(created.slug)}`, { geo_lng: -70 }, 200);
      expect(bySlug).toMatchObject({ geo_lat: -33.5, geo_lng: -70 });
      const cleared = await post(`/venues/${created.id}`, { geo_lat: '', geo_lng: '' }, 200);
      expect(cleared).not.toHaveProperty('geo_lat');
      expect(cleared).not.toHaveProperty('geo_lng');
      const none = await post('/venues', { venue: 'No coords' });
      expect(none).not.toHaveProperty('geo_lat');
    });

    it('takes them inline in an event write, and the fence finds the event', async () => {
      const event = await post('/events', {
        title: 'Inline',
        start_date: day(13),
        end_date: day(13),
        venue: { venue: 'Inline hall', geo_lat: 10.5, geo_lng: -20.25 },
      });
      expect(event.venue).toMatchObject({ geo_lat: 10.5, geo_lng: -20.25 });
      expect(await listed('?geoloc_lat=10.5&geoloc_lng=-20.3')).toEqual([event.id]);
    });

    it.each([
      [{ geo_lat: 91 }, 'geo_lat'],
      [{ geo_lng: -180.1 }, 'geo_lng'],
      [{ geo_lat: 'north' }, 'geo_lat'],
    ])('refuses %j', async (body, name) => {
      const res = await http()
        .post(`${BASE}/venues`)
        .set('Authorization', users.editor.header)
        .send({ venue: 'Bad', ...body })
        .expect(400);
      expect(Object.keys(res.body.data.params)).toEqual([name]);
    });
  });
});

describe('events list geofence setting (e2e)', () => {
  let app: NestExpressApplication;
  afterAll(() => closeApp(app));

  it('uses GEOFENCE_RADIUS in GEOFENCE_UNIT', async () => {
    app = await createTestApp({ env: { GEOFENCE_RADIUS: '15', GEOFENCE_UNIT: 'km' } });
    const users = await createRoleUsers(app);
    const http = () => request(app.getHttpServer());
    const ids: number[] = [];
    for (const km of [14.8, 15.2]) {
      const [lat, lng] = destination(...BUDAPEST, km, 45);
      const res = await postEvent(http, users.editor.header, {
        title: `${km} km`,
        start_date: day(1),
        end_date: day(1),
        venue: { venue: `${km} km`, geo_lat: lat, geo_lng: lng },
      }).expect(201);
      ids.push(res.body.id);
    }
    const res = await http()
      .get(`${BASE}/events?geoloc_lat=${BUDAPEST[0]}&geoloc_lng=${BUDAPEST[1]}`)
      .expect(200);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([ids[0]]);
  });
});
