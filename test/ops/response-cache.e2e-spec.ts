import request from 'supertest';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { EventsService } from '../../src/events/events.service.js';
import { countQueries } from '../helpers/query-counter.js';
import { until } from '../helpers/until.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';
const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

/**
 * The response cache of anonymous reads (src/cache/response-cache.ts): repeated reads
 * skip the database, yet every write shows in the very next read (BEHAVIOR §1.8), and nothing
 * that depends on the caller or on a request body is ever shared.
 */
describe('response cache (e2e)', () => {
  const { app, http, users } = useTestApp({ env: { RESPONSE_CACHE_TTL_MS: '60000' } });
  const editor = () => users.editor.header;

  const createEvent = async (title: string, extra: Record<string, unknown> = {}) =>
    (
      await postEvent(http, editor(), {
        title,
        start_date: '2030-05-01 10:00',
        end_date: '2030-05-01 12:00',
        ...extra,
      }).expect(201)
    ).body as { id: number; title: string };

  beforeAll(async () => {
    await createEvent('Cached concert', { categories: ['Cached'], venue: { venue: 'Cache Hall' } });
  });

  it('answers a repeated anonymous read from memory, byte for byte the same', async () => {
    const url = `${BASE}/events?${WINDOW}&search=concert`;
    let first!: request.Response;
    expect(await countQueries(app(), async () => (first = await http().get(url)))).toBeGreaterThan(
      0,
    );
    let second!: request.Response;
    expect(await countQueries(app(), async () => (second = await http().get(url)))).toBe(0);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers['content-type']).toBe('application/json; charset=UTF-8');
    // The list headers come back with their spelling.
    const raw = (r: request.Response) =>
      (r as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders;
    expect(raw(second)).toEqual(expect.arrayContaining(['X-TEC-Total', '1']));
    expect(raw(second)).toEqual(expect.arrayContaining(['X-TEC-TotalPages', '1']));
    expect(second.headers.etag).toBe(first.headers.etag);
    await http().get(url).set('If-None-Match', first.headers.etag).expect(304);
  });

  it('shows every write in the next read: create, update, trash', async () => {
    const url = `${BASE}/events?${WINDOW}&search=fresh`;
    expect((await http().get(url).expect(200)).body.total).toBe(0);
    expect((await http().get(url).expect(200)).body.total).toBe(0);
    const created = await createEvent('Fresh one');
    const afterCreate = await http().get(url).expect(200);
    expect(afterCreate.body.total).toBe(1);
    expect(afterCreate.headers['x-tec-total']).toBe('1');

    const single = `${BASE}/events/${created.id}`;
    expect((await http().get(single).expect(200)).body.title).toBe('Fresh one');
    await http()
      .post(single)
      .set('Authorization', editor())
      .send({ title: 'Fresh two' })
      .expect(200);
    expect((await http().get(single).expect(200)).body.title).toBe('Fresh two');

    await http().delete(single).set('Authorization', editor()).expect(200);
    expect((await http().get(url).expect(200)).body.total).toBe(0);
    expect((await http().get(single)).status).toBeGreaterThanOrEqual(400);
  });

  it('shows writes to linked records and terms inside cached events', async () => {
    const event = await createEvent('Linked show', {
      categories: ['Linked cat'],
      venue: { venue: 'Linked Hall' },
    });
    const single = `${BASE}/events/${event.id}`;
    const before = (await http().get(single).expect(200)).body;
    await http().get(single).expect(200);
    await http()
      .post(`${BASE}/venues/${before.venue.id}`)
      .set('Authorization', editor())
      .send({ venue: 'Renamed Hall' })
      .expect(200);
    await http()
      .post(`${BASE}/categories/${before.categories[0].id}`)
      .set('Authorization', editor())
      .send({ name: 'Renamed cat' })
      .expect(200);
    const after = (await http().get(single).expect(200)).body;
    expect(after.venue.venue).toBe('Renamed Hall');
    expect(after.categories[0].name).toBe('Renamed cat');
  });

  it('shows a scheduled event in cached lists and counts as soon as its date passes', async () => {
    // Ten seconds ahead (room for a write and two reads on a loaded machine), whole seconds
    // (dates are stored to the second).
    const at = Math.ceil(Date.now() / 1000) * 1000 + 10_000;
    const date = new Date(at).toISOString().slice(0, 19).replace('T', ' ');
    const event = await createEvent('Scheduled gig', { date, categories: ['Scheduled cat'] });
    expect(event).toMatchObject({ status: 'future' });
    const category = (event as unknown as { categories: Array<{ id: number }> }).categories[0];
    const url = `${BASE}/events?${WINDOW}&search=scheduled`;
    const count = () => http().get(`${BASE}/categories/${category.id}`).expect(200);
    expect((await http().get(url).expect(200)).body.total).toBe(0);
    expect((await count()).body.count).toBe(0);
    // The response cache (60 s here) holds both answers: the date passing must evict them, so
    // they change by themselves once it has come (polled: no fixed wait).
    await until(
      async () => (await http().get(url).expect(200)).body.total === 1,
      at - Date.now() + 30_000,
      'the scheduled event went live',
    );
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    const after = await http().get(url).expect(200);
    expect(after.body.total).toBe(1);
    expect(after.body.events[0]).toMatchObject({ id: event.id, status: 'publish' });
    expect((await count()).body.count).toBe(1);
  });

  it('goes live on time when a later write schedules an earlier date, by update too', async () => {
    const inSeconds = (n: number) => Math.ceil(Date.now() / 1000) * 1000 + n * 1000;
    const sql = (at: number) => new Date(at).toISOString().slice(0, 19).replace('T', ' ');
    await createEvent('Timed later', { date: sql(inSeconds(600)) });
    // A draft venue and a draft event, then both updated to a date ten seconds ahead (room for
    // the three writes on a loaded machine): each becomes scheduled by an update, earlier than
    // the publication already waited for.
    const at = inSeconds(10);
    const venue = await http()
      .post(`${BASE}/venues`)
      .set('Authorization', editor())
      .send({ venue: 'Timed venue', status: 'draft' })
      .expect(201);
    const draft = await createEvent('Timed draft', { status: 'draft' });
    await http()
      .post(`${BASE}/venues/${venue.body.id}`)
      .set('Authorization', editor())
      .send({ status: 'publish', date: sql(at) })
      .expect(200);
    const updated = await http()
      .post(`${BASE}/events/${draft.id}`)
      .set('Authorization', editor())
      .send({ status: 'publish', date: sql(at) })
      .expect(200);
    expect(updated.body.status).toBe('future');
    const events = `${BASE}/events?${WINDOW}&search=timed`;
    const venues = `${BASE}/venues?search=timed`;
    expect((await http().get(events).expect(200)).body.total).toBe(0);
    expect((await http().get(venues).expect(200)).body.total).toBe(0);
    // Both answers are in the response cache (60 s): only the publication timer can evict them,
    // so they change by themselves once the date has come (polled: no fixed wait).
    const live = async (url: string) => (await http().get(url).expect(200)).body.total === 1;
    await until(() => live(events), at - Date.now() + 30_000, 'the event went live');
    await until(() => live(venues), 30_000, 'the venue went live');
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    const after = await http().get(events).expect(200);
    expect(after.body.events.map((e: { id: number }) => e.id)).toEqual([draft.id]);
  });

  it('never caches authenticated reads', async () => {
    const url = `${BASE}/events?${WINDOW}&status=publish,draft`;
    const read = () => http().get(url).set('Authorization', editor()).expect(200);
    await read();
    expect(await countQueries(app(), read)).toBeGreaterThan(0);
    // ... nor answers an anonymous caller with one: anonymous status=draft is refused.
    await http().get(`${BASE}/events?${WINDOW}&status=draft`).set('Authorization', editor());
    await http().get(`${BASE}/events?${WINDOW}&status=draft`).expect(400);
  });

  it('keeps languages apart: prefix, i18n_language in the URL and in a body', async () => {
    const url = `${BASE}/events?${WINDOW}&search=concert`;
    const en = await http().get(url).expect(200);
    const hu = await http().get(`/hu${url}`).expect(200);
    expect(new URL(en.body.rest_url).pathname).toBe('/cal/events/v1/events/');
    expect(new URL(hu.body.rest_url).pathname).toBe('/hu/cal/events/v1/events/');
    // A read with a body is computed afresh and not stored: the body may pick the language.
    const withBody = await http()
      .get(`${BASE}/events/999999`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ i18n_language: 'hu' }));
    const plain = await http().get(`${BASE}/events/999999`);
    expect(withBody.status).toBe(plain.status);
    expect(withBody.body.message).not.toBe(plain.body.message);
    const huBody = await http()
      .get(url)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ i18n_language: 'hu' }))
      .expect(200);
    // Lists show the records of the request's language: none in Hungarian.
    expect(en.body.total).toBe(1);
    expect(huBody.body.total).toBe(0);
    expect((await http().get(url).expect(200)).text).toBe(en.text);
  });

  it('stores only successful answers', async () => {
    const missing = `${BASE}/events/987654`;
    await http().get(missing).expect(404);
    expect(await countQueries(app(), () => http().get(missing).expect(404))).toBeGreaterThan(0);
  });

  it('forgets an answer after RESPONSE_CACHE_TTL_MS', async () => {
    const url = `${BASE}/categories?hide_empty=0`;
    await http().get(url).expect(200);
    expect(await countQueries(app(), () => http().get(url).expect(200))).toBe(0);
    const cache = app().get(ResponseCache);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + cache.ttlMs + 1);
    try {
      expect(await countQueries(app(), () => http().get(url).expect(200))).toBeGreaterThan(0);
    } finally {
      clock.mockRestore();
    }
  });

  it('keeps feeds and public pages like the JSON reads, each format and language apart', async () => {
    const event = await createEvent('Cached gala', { slug: 'cached-gala' });
    const urls = [
      `${BASE}/events.ics?${WINDOW}`,
      `${BASE}/events/${event.id}.ics`,
      '/feed/',
      '/hu/feed/',
      '/event/cached-gala/',
      '/',
    ];
    const first: Record<string, request.Response> = {};
    for (const url of urls) first[url] = await http().get(url).expect(200);
    for (const url of urls) {
      let again!: request.Response;
      expect(await countQueries(app(), async () => (again = await http().get(url)))).toBe(0);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first[url].text);
      expect(again.headers['content-type']).toBe(first[url].headers['content-type']);
      expect(again.headers.etag).toBe(first[url].headers.etag);
      expect(again.headers['last-modified']).toBe(first[url].headers['last-modified']);
      await http().get(url).set('If-None-Match', first[url].headers.etag).expect(304);
    }
    expect(first['/hu/feed/'].text).toContain('<language>hu</language>');
    // The same address asked for as a calendar and as JSON: two answers.
    const list = `${BASE}/events?${WINDOW}`;
    const json = await http().get(list).expect(200);
    const calendar = await http().get(list).set('Accept', 'text/calendar').expect(200);
    expect(calendar.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect((await http().get(list).expect(200)).headers['content-type']).toBe(
      json.headers['content-type'],
    );
    expect(
      (await http().get(list).set('Accept', 'text/calendar').expect(200)).headers['content-type'],
    ).toBe('text/calendar; charset=utf-8');
    // A write shows in the next read of every feed and page that shows the event.
    await http()
      .post(`${BASE}/events/${event.id}`)
      .set('Authorization', editor())
      .send({ title: 'Renamed gala' })
      .expect(200);
    for (const url of urls.filter((u) => u !== '/hu/feed/' && u !== '/')) {
      expect((await http().get(url).expect(200)).text).not.toBe(first[url].text);
    }
    expect((await http().get('/event/cached-gala/').expect(200)).text).toContain('Renamed gala');
  });

  it('keeps a page or a feed through writes of what it does not show, not through the others', async () => {
    const shown = await createEvent('Kept recital', {
      slug: 'kept-recital',
      venue: { venue: 'Kept Hall' },
      categories: ['Kept cat'],
      tags: ['Kept tag'],
    });
    // Long past: no list of upcoming events holds it.
    const unrelated = await createEvent('Bygone fair', {
      start_date: '2001-03-01 10:00',
      end_date: '2001-03-01 12:00',
    });
    const urls = [
      '/event/kept-recital/',
      '/',
      '/feed/',
      '/venue/kept-hall/',
      '/events/category/kept-cat/',
      '/events/category/kept-cat/feed/',
      '/tag/kept-tag/',
    ];
    const first: Record<string, request.Response> = {};
    for (const url of urls) {
      first[url] = await http().get(url).expect(200);
      expect(first[url].text).toContain('Kept recital');
    }
    const events = app().get(EventsService);
    const computed = [vi.spyOn(events, 'list'), vi.spyOn(events, 'getBySlug')];
    /** Reads every page: none computed again, no statement, each the same bytes and ETag. */
    const expectKept = async () => {
      for (const url of urls) {
        let again!: request.Response;
        const statements: string[] = [];
        const queries = await countQueries(
          app(),
          async () => (again = await http().get(url)),
          statements,
        );
        expect({ url, queries, statements }).toEqual({ url, queries: 0, statements: [] });
        expect({ url, text: again.text }).toEqual({ url, text: first[url].text });
        expect(again.headers.etag).toBe(first[url].headers.etag);
        await http().get(url).set('If-None-Match', first[url].headers.etag).expect(304);
      }
      for (const spy of computed) expect(spy).not.toHaveBeenCalled();
    };
    try {
      await expectKept();
      // Writes of what none of them shows: another event's title, a venue of its own.
      await http()
        .post(`${BASE}/events/${unrelated.id}`)
        .set('Authorization', editor())
        .send({ title: 'Bygone market' })
        .expect(200);
      await createEvent('Elsewhere', {
        start_date: '2001-04-01 10:00',
        end_date: '2001-04-01 12:00',
        venue: { venue: 'Other Hall' },
      });
      await expectKept();
    } finally {
      for (const spy of computed) spy.mockRestore();
    }
    // Its venue renamed: the pages that show the venue are computed anew.
    const venueId = (await http().get(`${BASE}/events/${shown.id}`).expect(200)).body.venue.id;
    await http()
      .post(`${BASE}/venues/${venueId}`)
      .set('Authorization', editor())
      .send({ venue: 'Kept Auditorium' })
      .expect(200);
    for (const url of ['/event/kept-recital/', '/', '/venue/kept-hall/']) {
      const res = await http().get(url).set('If-None-Match', first[url].headers.etag).expect(200);
      expect(res.text).toContain('Kept Auditorium');
      expect(res.headers.etag).not.toBe(first[url].headers.etag);
    }
    // The event renamed: every page and feed that lists it.
    await http()
      .post(`${BASE}/events/${shown.id}`)
      .set('Authorization', editor())
      .send({ title: 'Kept sonata' })
      .expect(200);
    for (const url of urls) {
      const res = await http().get(url).expect(200);
      expect({ url, renamed: res.text.includes('Kept sonata') }).toEqual({ url, renamed: true });
      expect(res.text).not.toContain('Kept recital');
    }
  });

  it('never keeps a page or feed for a signed-in reader, or one a password opened', async () => {
    await createEvent('Locked gala', { slug: 'locked-gala', password: 'pw' });
    // The record cache may answer these without a query: the response cache must not grow.
    const cache = app().get(ResponseCache);
    const kept = cache.size;
    const signedIn = await http()
      .get(`${BASE}/events.ics?${WINDOW}`)
      .set('Authorization', editor())
      .expect(200);
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    const form = await http().get('/event/locked-gala/').expect(200);
    expect(form.headers['cache-control']).toBe('private, no-store');
    expect(form.text).toContain('name="post_password"');
    const opened = (await http().get(`${BASE}/events?${WINDOW}&search=locked`).expect(200)).body
      .events[0] as { id: number };
    const withPassword = await http()
      .get(`${BASE}/events/${opened.id}.ics?password=pw`)
      .expect(200);
    expect(withPassword.headers['cache-control']).toBe('private, no-store');
    expect(withPassword.text).toContain('SUMMARY:Locked gala');
    // Only the anonymous JSON list was kept.
    expect(cache.size).toBe(kept + 1);
  });

  it('does not cache /health', async () => {
    await http().get('/health').expect(200);
    expect(await countQueries(app(), () => http().get('/health').expect(200))).toBeGreaterThan(0);
  });
});

describe('response cache turned off (RESPONSE_CACHE_TTL_MS=0)', () => {
  const { app, http, users } = useTestApp({ env: { RESPONSE_CACHE_TTL_MS: '0' } });

  it('computes every read', async () => {
    await postEvent(http, users.editor.header, {
      title: 'Uncached',
      start_date: '2030-05-01 10:00',
      end_date: '2030-05-01 12:00',
    }).expect(201);
    const url = `${BASE}/events?${WINDOW}`;
    await http().get(url).expect(200);
    const again = await countQueries(app(), () => http().get(url).expect(200));
    expect(again).toBeGreaterThan(0);
    expect(app().get(ResponseCache).size).toBe(0);
  });
});
