import type { NestExpressApplication } from '@nestjs/platform-express';
import { DateTime } from 'luxon';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { dayQuery, jsonLdOf, linkOf, viewDays } from '../helpers/calendar-views.js';
import { nonPublicEvents } from '../helpers/event-body.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { countQueries } from '../helpers/query-counter.js';
import { eventPublisher, type Tec } from '../helpers/public-pages.js';

/**
 * The calendar views for visitors (CONTRACT §7): month, week, day and list at the plugin's
 * addresses in every language, their placement of events (multi-day, all-day, occurrences of a
 * series, what a reader may see), navigation, filters, subscriptions, JSON-LD and embeds, read
 * from the markup as a scraper would and compared with `GET /events` for the same days.
 */

const BASE = '/cal/events/v1';
const SITE = 'http://cal.test';
/** The site's zone: its midnight is not UTC's, so the grid's days are not UTC days. */
const ZONE = 'America/New_York';

describe('calendar views (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  const { made, post } = eventPublisher(
    () => app,
    () => users.editor.header,
  );
  const page = (path: string, auth?: string) => {
    const req = http().get(path);
    return auth ? req.set('Authorization', auth) : req;
  };
  /** The links of each day of a view, by day. */
  const daysOf = (html: string) => new Map(viewDays(html).map((d) => [d.day, d]));
  /** What `GET /events` lists for a day: the events' `url`s in its order. */
  const apiDay = async (day: string, extra = '', auth?: string) => {
    const req = http().get(`${BASE}/events?${dayQuery(day, ZONE)}${extra}`);
    if (auth) req.set('Authorization', auth);
    const res = await req.expect(200);
    return (res.body as Tec).events.map((e: Tec) => e.url as string);
  };

  beforeAll(async () => {
    app = await createTestApp({
      // Entries outlive a loaded machine's slow test (the cache test counts statements): writes
      // invalidate them, as on a live site.
      env: {
        SITE_TIMEZONE: ZONE,
        EMBED_ORIGINS: 'https://blog.example.org',
        RESPONSE_CACHE_TTL_MS: '60000',
      },
    });
    users = await createRoleUsers(app);
    const venue = await http()
      .post(`${BASE}/venues`)
      .set('Authorization', users.editor.header)
      .send({ venue: 'Main Hall', status: 'publish' })
      .expect(201);
    const organizer = await http()
      .post(`${BASE}/organizers`)
      .set('Authorization', users.editor.header)
      .send({ organizer: 'Friends', status: 'publish' })
      .expect(201);
    made.venue = venue.body as Tec;
    made.organizer = organizer.body as Tec;
    await post('concert', {
      title: 'Spring concert',
      start_date: '2030-03-14 19:00:00',
      end_date: '2030-03-14 21:00:00',
      timezone: 'Europe/Budapest',
      slug: 'spring-concert',
      venue: made.venue.id,
      categories: ['Music'],
      tags: ['classical'],
    });
    await post('concert_hu', {
      title: 'Tavaszi koncert',
      start_date: '2030-03-14 19:00:00',
      end_date: '2030-03-14 21:00:00',
      timezone: 'Europe/Budapest',
      slug: 'tavaszi-koncert',
      translation_of: made.concert.id,
      i18n_language: 'hu',
    });
    await post('fair', {
      title: 'Book fair',
      all_day: true,
      start_date: '2030-03-30 00:00:00',
      end_date: '2030-04-02 23:59:59',
      slug: 'book-fair',
      organizer: [made.organizer.id],
    });
    // Late in the evening in Tokyo: still the 20th in its own zone, placed on its own dates.
    await post('tokyo', {
      title: 'Night in Tokyo',
      start_date: '2030-03-20 23:00:00',
      end_date: '2030-03-21 01:00:00',
      timezone: 'Asia/Tokyo',
      slug: 'night-in-tokyo',
    });
    await post('choir', {
      title: 'Weekly choir',
      start_date: '2030-03-05 18:00:00',
      end_date: '2030-03-05 20:00:00',
      slug: 'weekly-choir',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'] },
      categories: ['Music'],
    });
    for (const [key, body] of Object.entries(nonPublicEvents('2030-03-14'))) {
      await post(key, body);
    }
    await post('hidden', {
      title: 'Hidden secret',
      hide_from_listings: true,
      start_date: '2030-03-14 10:00:00',
      end_date: '2030-03-14 11:00:00',
    });
    await post('protected', {
      title: 'Members evening',
      password: 'pw',
      start_date: '2030-03-15 19:00:00',
      end_date: '2030-03-15 21:00:00',
      slug: 'members-evening',
    });
    // A busy day: more than a month's cell lists.
    for (let i = 0; i < 5; i++) {
      await post(`busy${i}`, {
        title: `Workshop ${i}`,
        start_date: `2030-03-22 0${i + 1}:00:00`,
        end_date: `2030-03-22 0${i + 2}:00:00`,
        venue: i === 0 ? made.venue.id : undefined,
      });
    }
  }, 120_000);
  afterAll(() => closeApp(app));

  it('a month: each day a <time datetime> in a week of seven, events on every day they span', async () => {
    const res = await page('/events/month/2030-03/').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const days = viewDays(res.text);
    // English weeks start on Sunday: 2030-02-24 … 2030-04-06.
    expect(days.length % 7).toBe(0);
    expect(days[0].day).toBe('2030-02-24');
    expect(days[days.length - 1].day).toBe('2030-04-06');
    const byDay = daysOf(res.text);
    const concert = `${SITE}/event/spring-concert/`;
    expect(byDay.get('2030-03-14')!.links).toEqual([concert]);
    // Multi-day all-day: every day from its first to its last, into the next month's days.
    for (const day of ['2030-03-30', '2030-03-31', '2030-04-01', '2030-04-02']) {
      expect(byDay.get(day)!.links).toContain(`${SITE}/event/book-fair/`);
    }
    expect(byDay.get('2030-04-03')!.links).not.toContain(`${SITE}/event/book-fair/`);
    // The event's own local dates: the 20th and the 21st of Tokyo, not New York's.
    expect(byDay.get('2030-03-20')!.links).toContain(`${SITE}/event/night-in-tokyo/`);
    expect(byDay.get('2030-03-21')!.links).toContain(`${SITE}/event/night-in-tokyo/`);
    // Each occurrence in its cell, linking to its dated address.
    for (const day of ['2030-03-05', '2030-03-12', '2030-03-19', '2030-03-26', '2030-04-02']) {
      expect(byDay.get(day)!.links).toContain(`${SITE}/event/weekly-choir/${day}/`);
    }
    // Nothing the anonymous reader may not list; a protected event shows its title as in the API.
    expect(res.text).not.toMatch(/secret/i);
    expect(byDay.get('2030-03-15')!.links).toEqual([`${SITE}/event/members-evening/`]);
    // Five workshops: three listed, "+2 more" to the day view.
    const busy = byDay.get('2030-03-22')!;
    expect(busy.links).toHaveLength(3);
    expect(busy.more).toBe(2);
    expect(res.text).toContain(`href="${SITE}/events/2030-03-22/" aria-label="2 more events on`);
  });

  it('every day of month, week and day views lists what GET /events lists for that day', async () => {
    for (const [path, auth] of [
      ['/events/month/2030-03/', undefined],
      ['/events/week/2030-03-14/', undefined],
      ['/events/2030-03-14/', undefined],
      ['/events/month/2030-03/', users.editor.header],
    ] as const) {
      const res = await page(path, auth).expect(200);
      for (const d of viewDays(res.text)) {
        const expected = await apiDay(d.day, '', auth);
        expect({ path, day: d.day, links: d.links, all: d.links.length + d.more }).toEqual({
          path,
          day: d.day,
          links: expected.slice(0, d.links.length),
          all: expected.length,
        });
        if (!path.includes('month')) expect(d.more).toBe(0);
      }
    }
    // The editor sees the drafts and private events the API lists them, never hidden ones.
    const editor = await page('/events/2030-03-14/', users.editor.header).expect(200);
    expect(editor.text).toContain('Draft secret');
    expect(editor.text).toContain('Private secret');
    expect(editor.text).not.toContain('Hidden secret');
  });

  it('languages: localized names, Monday first in hu and ro, links in the language', async () => {
    const hu = await page('/hu/events/month/2030-03/').expect(200);
    expect(hu.text).toContain('<html lang="hu">');
    expect(hu.text).toContain('2030. március');
    expect(hu.text).toMatch(/<th scope="col"><abbr title="hétfő">/);
    expect(viewDays(hu.text)[0].day).toBe('2030-02-25');
    // The Hungarian translation, at its Hungarian address.
    expect(daysOf(hu.text).get('2030-03-14')!.links).toEqual([`${SITE}/hu/event/tavaszi-koncert/`]);
    expect(linkOf(hu.text, 'next')).toBe(`${SITE}/hu/events/month/2030-04/`);
    const ro = await page('/ro/events/week/2030-03-14/').expect(200);
    expect(ro.text).toContain('<html lang="ro">');
    expect(viewDays(ro.text).map((d) => d.day)[0]).toBe('2030-03-11');
    expect(ro.text).toMatch(/martie/);
    const en = await page('/events/month/2030-03/').expect(200);
    expect(en.text).toContain('March 2030');
    expect(en.text).toMatch(/<th scope="col"><abbr title="Sunday">/);
  });

  it('navigation: previous and next always, today, the other views, subscriptions of what is shown', async () => {
    // A month far from any event still links its neighbours.
    const empty = await page('/events/month/2150-07/').expect(200);
    expect(linkOf(empty.text, 'prev')).toBe(`${SITE}/events/month/2150-06/`);
    expect(linkOf(empty.text, 'next')).toBe(`${SITE}/events/month/2150-08/`);
    const week = await page('/events/week/2030-03-14/').expect(200);
    expect(linkOf(week.text, 'prev')).toBe(`${SITE}/events/week/2030-03-03/`);
    expect(linkOf(week.text, 'next')).toBe(`${SITE}/events/week/2030-03-17/`);
    const day = await page('/events/2030-03-14/').expect(200);
    expect(linkOf(day.text, 'prev')).toBe(`${SITE}/events/2030-03-13/`);
    expect(linkOf(day.text, 'next')).toBe(`${SITE}/events/2030-03-15/`);
    // Today in the site's zone.
    const today = DateTime.now().setZone(ZONE).toISODate()!;
    const current = await page('/events/today/').expect(200);
    expect(viewDays(current.text).map((d) => d.day)).toEqual([today]);
    expect(current.text).toContain(`href="${SITE}/events/${today}/" aria-current="date"`);
    expect(day.text).toContain(`href="${SITE}/events/${today}/">Today</a>`);
    // The other views of the same period.
    expect(day.text).toContain(`href="${SITE}/events/month/2030-03/">Month</a>`);
    expect(day.text).toContain(`href="${SITE}/events/week/2030-03-14/">Week</a>`);
    expect(day.text).toContain(`href="${SITE}/events/list/?tribe-bar-date=2030-03-14">List</a>`);
    // The subscription is the same window of the list: its calendar holds what the view shows.
    const ics = /<a href="([^"]*events\.ics[^"]*)">These events/.exec(week.text)![1];
    const feed = await http().get(ics.replace(/&amp;/g, '&').slice(SITE.length)).expect(200);
    const shown = new Set(viewDays(week.text).flatMap((d) => d.links));
    expect(Number(feed.headers['x-tec-total'])).toBe(shown.size);
    expect(week.text).toContain(ics.replace(/^http:/, 'webcal:'));
  });

  it('/events/ is DEFAULT_VIEW (month), /events/list/ pages from ?tribe-bar-date=', async () => {
    const home = await page('/events/').expect(200);
    expect(home.text).toContain('class="cal cal-month"');
    const list = await page('/events/list/?tribe-bar-date=2030-03-14').expect(200);
    const titles = [...list.text.matchAll(/<h2><a href="([^"]*)"/g)].map((m) => m[1]);
    const api = await http()
      .get(
        `${BASE}/events?${dayQuery('2030-03-14', ZONE)
          .replace(/&starts_before=[^&]*/, '')
          .replace('per_page=50', 'per_page=12')}`,
      )
      .expect(200);
    expect(titles).toEqual((api.body as Tec).events.map((e: Tec) => e.url));
    // Later: the next page, or from the last page the list a month on.
    expect(linkOf(list.text, 'next')).toBe(
      Number(api.headers['x-tec-totalpages']) > 1
        ? `${SITE}/events/list/?tribe-bar-date=2030-03-14&page=2`
        : `${SITE}/events/list/?tribe-bar-date=2030-04-14`,
    );
    expect(linkOf(list.text, 'prev')).toBe(`${SITE}/events/list/?tribe-bar-date=2030-02-14`);
    await page('/events/list/?tribe-bar-date=2030-02-30').expect(404);
    await page('/events/list/?page=abc').expect(404);
    // Another DEFAULT_VIEW, on the same database.
    const weekly = await createTestApp({
      env: { SITE_TIMEZONE: ZONE, DEFAULT_VIEW: 'week' },
      keepDatabase: true,
    });
    try {
      const res = await request(weekly.getHttpServer()).get('/hu/events/').expect(200);
      expect(res.text).toContain('class="cal cal-week"');
      expect(viewDays(res.text)).toHaveLength(7);
    } finally {
      await closeApp(weekly);
    }
  });

  it('categories and tags nest, ?venue= ?organizer= ?search= filter any view', async () => {
    const music = await page('/events/category/music/month/2030-03/').expect(200);
    const links = new Set(viewDays(music.text).flatMap((d) => d.links));
    expect([...links].sort()).toEqual(
      [
        `${SITE}/event/spring-concert/`,
        ...['05', '12', '19', '26'].map((d) => `${SITE}/event/weekly-choir/2030-03-${d}/`),
        `${SITE}/event/weekly-choir/2030-04-02/`,
      ].sort(),
    );
    expect(linkOf(music.text, 'next')).toBe(`${SITE}/events/category/music/month/2030-04/`);
    const tag = await page('/events/tag/classical/week/2030-03-14/').expect(200);
    expect(new Set(viewDays(tag.text).flatMap((d) => d.links))).toEqual(
      new Set([`${SITE}/event/spring-concert/`]),
    );
    const venue = await page(`/events/month/2030-03/?venue=${made.venue.id}`).expect(200);
    expect(new Set(viewDays(venue.text).flatMap((d) => d.links))).toEqual(
      new Set([`${SITE}/event/spring-concert/`, made.busy0.url]),
    );
    expect(linkOf(venue.text, 'next')).toBe(`${SITE}/events/month/2030-04/?venue=${made.venue.id}`);
    const organizer = await page(`/events/week/2030-03-31/?organizer=${made.organizer.id}`).expect(
      200,
    );
    expect(new Set(viewDays(organizer.text).flatMap((d) => d.links))).toEqual(
      new Set([`${SITE}/event/book-fair/`]),
    );
    const search = await page('/events/month/2030-03/?search=tokyo').expect(200);
    expect(new Set(viewDays(search.text).flatMap((d) => d.links))).toEqual(
      new Set([`${SITE}/event/night-in-tokyo/`]),
    );
    // Not a view, not a filter: not found, never a 500.
    for (const bad of [
      '/events/month/2030-13/',
      '/events/week/2030-02-30/',
      '/events/month/2030-03/extra/',
      '/events/category/nothing-here/month/',
      '/events/tag/nothing-here/',
      '/events/month/?venue=abc',
      '/events/month/?venue=999999',
      `/events/month/?search=${'x'.repeat(201)}`,
      '/events/1899-12-31/',
      '/embed/events/nonsense/',
    ]) {
      await page(bad).expect(404);
    }
  });

  it('JSON-LD: an ItemList of the events shown, as lean schema.org Events (their pages have the rest)', async () => {
    // The place's address, position and phone are on the event's page, not in every view's list.
    await http()
      .post(`${BASE}/venues/${made.venue.id}`)
      .set('Authorization', users.editor.header)
      .send({
        address: '1 Music Square',
        city: 'Budapest',
        zip: '1051',
        country: 'Hungary',
        phone: '+36 1 555 0100',
        geo_lat: 47.5,
        geo_lng: 19.05,
      })
      .expect(200);
    const res = await page('/events/2030-03-14/').expect(200);
    const [list] = jsonLdOf(res.text);
    expect(list).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      url: `${SITE}/events/2030-03-14/`,
      numberOfItems: 1,
    });
    expect(list.itemListElement).toEqual([
      {
        '@type': 'ListItem',
        position: 1,
        item: {
          '@type': 'Event',
          name: 'Spring concert',
          startDate: '2030-03-14T19:00:00+01:00',
          endDate: '2030-03-14T21:00:00+01:00',
          eventStatus: 'https://schema.org/EventScheduled',
          location: { '@type': 'Place', name: 'Main Hall', url: `${SITE}/venue/main-hall/` },
          url: `${SITE}/event/spring-concert/`,
        },
      },
    ]);
    const [event] = jsonLdOf((await page('/event/spring-concert/').expect(200)).text);
    expect(event.location).toMatchObject({
      name: 'Main Hall',
      address: { streetAddress: '1 Music Square', addressLocality: 'Budapest' },
      geo: { latitude: 47.5, longitude: 19.05 },
      telephone: '+36 1 555 0100',
    });
    // In Hungarian, the item links the Hungarian address of the translation.
    const [hu] = jsonLdOf((await page('/hu/events/2030-03-14/').expect(200)).text);
    expect(hu.itemListElement.map((i: Tec) => i.item.url)).toEqual([
      `${SITE}/hu/event/tavaszi-koncert/`,
    ]);
  });

  it('embeds: no header or footer, framable from EMBED_ORIGINS, a snippet to copy; embed.js', async () => {
    const embed = await page('/hu/embed/events/month/2030-03/').expect(200);
    expect(embed.text).not.toContain('<header class="site">');
    expect(embed.headers['content-security-policy']).toContain(
      "frame-ancestors 'self' https://blog.example.org",
    );
    expect(embed.headers['x-frame-options']).toBeUndefined();
    // Its navigation stays in the embed; its canonical page is the site's.
    expect(linkOf(embed.text, 'next')).toBe(`${SITE}/hu/embed/events/month/2030-04/`);
    expect(embed.text).toContain(`<link rel="canonical" href="${SITE}/hu/events/month/2030-03/">`);
    expect(embed.text).toMatch(/target="_top"/);
    // The site's pages stay unframable.
    const site = await page('/events/month/2030-03/').expect(200);
    expect(site.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(site.headers['content-security-policy']).not.toContain('blog.example.org');
    expect(site.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(site.text).toContain(`&lt;iframe src=&quot;${SITE}/embed/events/month/2030-03/&quot;`);
    expect(site.text).toContain(`&lt;script src=&quot;${SITE}/embed.js&quot; async&gt;`);
    const script = await page('/embed.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain('data-cal-embed');
  });

  it('cached per view, language and filter; a write invalidates only the views that could show it', async () => {
    const views = [
      '/events/month/2030-03/',
      '/hu/events/month/2030-03/',
      '/events/week/2030-03-10/',
      '/events/month/2030-05/',
    ];
    for (const path of views) await page(path).expect(200);
    // Cached: no statement at all.
    expect(await countQueries(app, () => page(views[0]).expect(200))).toBe(0);
    // A new event in May: March's views are kept, May's is computed again.
    await post('may', {
      title: 'May day',
      start_date: '2030-05-01 10:00:00',
      end_date: '2030-05-01 11:00:00',
    });
    expect(await countQueries(app, () => page(views[0]).expect(200))).toBe(0);
    expect(await countQueries(app, () => page(views[2]).expect(200))).toBe(0);
    const may = await page(views[3]).expect(200);
    expect(may.text).toContain('May day');
    // A change of an event shown in March recomputes March (in each language).
    await http()
      .post(`${BASE}/events/${made.concert.id}`)
      .set('Authorization', users.editor.header)
      .send({ title: 'Spring concert, moved' })
      .expect(200);
    const march = await page(views[0]).expect(200);
    expect(march.text).toContain('Spring concert, moved');
    // May's view never showed it and could not (its dates are March's): kept.
    expect(await countQueries(app, () => page(views[3]).expect(200))).toBe(0);
    // Moved into May, it leaves March's views and joins May's: both are computed again.
    await http()
      .post(`${BASE}/events/${made.concert.id}`)
      .set('Authorization', users.editor.header)
      .send({ start_date: '2030-05-14 19:00:00', end_date: '2030-05-14 21:00:00' })
      .expect(200);
    expect((await page(views[3]).expect(200)).text).toContain('Spring concert, moved');
    expect((await page(views[0]).expect(200)).text).not.toContain('Spring concert, moved');
    // Back in March, as the other tests of this file expect it.
    await http()
      .post(`${BASE}/events/${made.concert.id}`)
      .set('Authorization', users.editor.header)
      .send({ start_date: '2030-03-14 19:00:00', end_date: '2030-03-14 21:00:00' })
      .expect(200);
  });

  it('a computed month: one range query and one read of its records, whatever their number', async () => {
    // Signed in: never cached, computed each time (another month warms what is not the view's).
    await page('/events/month/2030-02/', users.editor.header).expect(200);
    const statements: string[] = [];
    const n = await countQueries(
      app,
      () => page('/events/month/2030-04/?search=e', users.editor.header).expect(200),
      statements,
    );
    // Authentication and the list's reads (range, rows, links): a fixed number, not one per event.
    expect(n).toBeLessThanOrEqual(12);
    const ranges = statements.filter((s) => /UNION ALL/.test(s));
    expect(ranges).toHaveLength(1);
  });

  it('a child category nests every view and its embed; every view carries its ItemList', async () => {
    const auth = users.editor.header;
    const music = await http().get(`${BASE}/categories?slug=music`).expect(200);
    const parent = (music.body as Tec).categories[0] as Tec;
    const child = await http()
      .post(`${BASE}/categories`)
      .set('Authorization', auth)
      .send({ name: 'Chamber', parent: parent.id })
      .expect(201);
    await post('chamber', {
      title: 'Chamber evening',
      start_date: '2030-05-12 19:00:00',
      end_date: '2030-05-12 21:00:00',
      slug: 'chamber-evening',
      categories: [(child.body as Tec).id],
    });
    const base = '/events/category/music/chamber/';
    for (const [tail, view] of [
      ['month/2030-05/', 'month'],
      ['week/2030-05-12/', 'week'],
      ['2030-05-12/', 'day'],
      ['list/?tribe-bar-date=2030-05-01', 'list'],
    ]) {
      for (const prefix of ['', '/embed']) {
        const res = await page(`${prefix}${base}${tail}`).expect(200);
        expect(res.text).toContain(`class="cal cal-${view}"`);
        expect(res.text).toContain(`${SITE}/event/chamber-evening/`);
        expect(res.text).not.toContain('Spring concert');
        // The embed has no site header; the site's page links the subscription in its footer.
        expect(res.text.includes('<header class="site">')).toBe(prefix === '');
        expect(res.text.match(/These events \(iCalendar\)<\/a>/g)).toHaveLength(1);
        expect(linkOf(res.text, 'next')).toContain(`${SITE}${prefix}${base}`);
        const [list] = jsonLdOf(res.text);
        expect(list['@type']).toBe('ItemList');
        expect(list.itemListElement.map((i: Tec) => i.item.url)).toEqual([
          `${SITE}/event/chamber-evening/`,
        ]);
      }
    }
    // A tag's address without a view's tail is its default view (the month).
    const tag = await page('/events/tag/classical/').expect(200);
    expect(tag.text).toContain('class="cal cal-month"');
  });
});
