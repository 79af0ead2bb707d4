import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { loadConfig } from '../../src/config/config.js';
import { jsonLd, type Tec } from '../helpers/public-pages.js';
import { postEvent } from '../helpers/app-fixture.js';
import { nonPublicEvents } from '../helpers/event-body.js';

/**
 * Public pages (CONTRACT §7): a page behind every `url`, the home page and the RSS
 * feeds, with the API's permissions and languages.
 */

const BASE = '/cal/events/v1';
const SITE = 'http://cal.test';

const path = (url: string) => url.slice(SITE.length);
/** Where the password form of a page posts to, as the browser reads the attribute. */
function formAction(html: string): string {
  const m = /<form method="post" action="([^"]*)"/.exec(html);
  expect(m).not.toBeNull();
  return m![1].replace(/&amp;/g, '&');
}

describe('public pages (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  /** Posts `password` to a protected event's form at `page`, as its form does. */
  const unlock = (page: string, password: string) =>
    http().post(page).type('form').send({ post_password: password });
  const made: Record<string, Tec> = {};
  const post = async (key: string, collection: string, body: Record<string, unknown>) => {
    const res = await http()
      .post(`${BASE}/${collection}`)
      .set('Authorization', users.editor.header)
      .send(body);
    expect([200, 201]).toContain(res.status);
    made[key] = res.body as Tec;
    return made[key];
  };

  beforeAll(async () => {
    app = await createTestApp();
    users = await createRoleUsers(app);
    await post('venue', 'venues', {
      venue: 'Opera House',
      address: 'Andrássy út 22',
      city: 'Budapest',
      zip: '1061',
      country: 'Hungary',
    });
    await post('organizer', 'organizers', {
      organizer: 'Friends of Music',
      email: 'f@example.org',
    });
    await post('concert', 'events', {
      title: 'Spring <em>concert</em>',
      description: '<p>An evening of music.</p><script>alert(1)</script>',
      excerpt: 'Music all evening.',
      start_date: '2030-03-30 19:00:00',
      end_date: '2030-03-30 21:30:00',
      timezone: 'Europe/Budapest',
      venue: made.venue.id,
      organizer: [made.organizer.id],
      categories: ['Music'],
      tags: ['classical'],
      cost: '15',
      slug: 'spring-concert',
      show_map_link: true,
    });
    await post('concert_hu', 'events', {
      title: 'Tavaszi koncert',
      start_date: '2030-03-30 19:00:00',
      end_date: '2030-03-30 21:30:00',
      timezone: 'Europe/Budapest',
      slug: 'tavaszi-koncert',
      translation_of: made.concert.id,
      i18n_language: 'hu',
    });
    await post('concert_ro', 'events', {
      title: 'Concert de primăvară',
      start_date: '2030-03-30 19:00:00',
      end_date: '2030-03-30 21:30:00',
      timezone: 'Europe/Budapest',
      slug: 'concert-de-primavara',
      translation_of: made.concert.id,
      i18n_language: 'ro',
    });
    await post('fair', 'events', {
      title: 'Book fair',
      all_day: true,
      start_date: '2030-04-10 00:00:00',
      end_date: '2030-04-12 23:59:59',
      slug: 'book-fair',
    });
    const nonPublic = nonPublicEvents('2030-05-01', (status) => ({
      description: `${status} words`,
      slug: `${status}-secret`,
    }));
    for (const [key, body] of Object.entries(nonPublic)) await post(key, 'events', body);
    await post('protected', 'events', {
      title: 'Members evening',
      description: 'password words',
      password: 'pw',
      slug: 'members-evening',
      start_date: '2030-05-02 10:00:00',
      end_date: '2030-05-02 11:00:00',
    });
    await post('protected_hu', 'events', {
      title: 'Tagok estéje',
      description: 'jelszavas szavak',
      password: 'jelszó',
      slug: 'tagok-esteje',
      start_date: '2030-05-02 10:00:00',
      end_date: '2030-05-02 11:00:00',
      translation_of: made.protected.id,
      i18n_language: 'hu',
    });
  });
  afterAll(() => closeApp(app));

  describe('event page', () => {
    it('shows the event with its details, escaped, in its zone', async () => {
      const res = await http().get('/event/spring-concert/').expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = res.text;
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<h1>Spring concert</h1>');
      expect(html).toContain('Saturday, 30 March 2030, 19:00–21:30 Europe/Budapest (CET)');
      expect(html).toContain('Opera House');
      expect(html).toContain('Andrássy út 22, Budapest, 1061, Hungary');
      expect(html).toContain('href="http://cal.test/venue/opera-house/"');
      expect(html).toContain(
        'href="https://www.openstreetmap.org/search?query=Andr%C3%A1ssy%20%C3%BAt%2022%2C%20Budapest%2C%201061%2C%20Hungary"',
      );
      expect(html).toContain('Friends of Music');
      expect(html).toContain('href="http://cal.test/events/category/music/"');
      expect(html).toContain('href="http://cal.test/tag/classical/"');
      expect(html).toContain('<p>An evening of music.</p>');
      expect(html).not.toContain('<script>alert');
      expect(html).toContain(`href="${SITE}${BASE}/events/${made.concert.id}.ics"`);
      expect(html).toContain(`href="webcal://cal.test${BASE}/events/${made.concert.id}.ics"`);
      expect(html).toContain(
        '<link rel="alternate" type="application/rss+xml" title="cal.test: upcoming events" href="http://cal.test/feed/">',
      );
      expect(html).toContain(
        '<link rel="alternate" hreflang="hu" href="http://cal.test/hu/event/tavaszi-koncert/">',
      );
      expect(html).toContain(
        '<link rel="alternate" hreflang="x-default" href="http://cal.test/event/spring-concert/">',
      );
      expect(html).toContain('<meta property="og:title" content="Spring concert">');
      expect(html).toContain(
        '<meta property="og:url" content="http://cal.test/event/spring-concert/">',
      );
      // No client script, only the JSON-LD data block.
      expect(html.match(/<script/g)).toHaveLength(1);
    });

    it('carries schema.org Event JSON-LD with the required and recommended properties', async () => {
      const res = await http().get('/event/spring-concert/').expect(200);
      const [ld] = jsonLd(res.text);
      expect(ld).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: 'Spring concert',
        description: 'Music all evening.',
        startDate: '2030-03-30T19:00:00+01:00',
        endDate: '2030-03-30T21:30:00+01:00',
        eventStatus: 'https://schema.org/EventScheduled',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        location: {
          '@type': 'Place',
          name: 'Opera House',
          address: {
            '@type': 'PostalAddress',
            streetAddress: 'Andrássy út 22',
            addressLocality: 'Budapest',
            postalCode: '1061',
            addressCountry: 'Hungary',
          },
        },
        organizer: { '@type': 'Organization', name: 'Friends of Music' },
        offers: { '@type': 'Offer', price: '15', availability: 'https://schema.org/InStock' },
        inLanguage: 'en',
        url: 'http://cal.test/event/spring-concert/',
      });
    });

    it('shows all-day, multi-day events as dates', async () => {
      const res = await http().get('/event/book-fair/').expect(200);
      expect(res.text).toContain('Wednesday, 10 April 2030 – Friday, 12 April 2030 (all day)');
      expect(jsonLd(res.text)[0]).toMatchObject({ startDate: '2030-04-10', endDate: '2030-04-12' });
    });

    it('answers in the language of the prefix or of i18n_language', async () => {
      const hu = await http().get('/hu/event/tavaszi-koncert/').expect(200);
      expect(hu.text).toContain('<html lang="hu">');
      expect(hu.text).toContain('2030. március 30., szombat');
      expect(hu.text).toContain('Hozzáadás a naptárhoz (.ics)');
      expect(jsonLd(hu.text)[0]).toMatchObject({ inLanguage: 'hu', name: 'Tavaszi koncert' });
      expect(hu.text).toContain('hreflang="en" href="http://cal.test/event/spring-concert/"');
      const ro = await http().get('/event/concert-de-primavara/?i18n_language=ro').expect(200);
      expect(ro.text).toContain('<html lang="ro">');
      expect(ro.text).toContain('Adăugare în calendar (.ics)');
      expect(ro.text).toContain('sâmbătă, 30 martie 2030');
    });

    it('finds records whose slug is stored percent-encoded', async () => {
      const event = await post('cyrillic', 'events', {
        title: 'Концерт',
        start_date: '2030-03-30 19:00:00',
        end_date: '2030-03-30 21:30:00',
      });
      expect(event.url).toMatch(/^http:\/\/cal\.test\/event\/%d0%ba/);
      const res = await http()
        .get(path(event.url as string))
        .expect(200);
      expect(res.text).toContain('<h1>Концерт</h1>');
      // Typed by a reader: the browser sends upper-case escapes.
      await http().get('/event/%D0%BA%D0%BE%D0%BD%D1%86%D0%B5%D1%80%D1%82/').expect(200);
    });

    it('moves a slug of another language to that language', async () => {
      const res = await http().get('/event/tavaszi-koncert/').expect(302);
      expect(res.headers.location).toBe('http://cal.test/hu/event/tavaszi-koncert/');
    });

    it('answers 404 for drafts, pending, scheduled, private and unknown records, without their content', async () => {
      const pending = await post('pending', 'events', {
        title: 'Pending secret',
        status: 'pending',
        slug: 'pending-secret',
        start_date: '2030-05-01 10:00:00',
        end_date: '2030-05-01 11:00:00',
      });
      expect(pending.status).toBe('pending');
      const future = await post('future', 'events', {
        title: 'Future secret',
        slug: 'future-secret',
        date: '+1 week',
        start_date: '2030-05-01 10:00:00',
        end_date: '2030-05-01 11:00:00',
      });
      expect(future.status).toBe('future');
      const venue = await post('draftVenue', 'venues', { venue: 'Secret venue', status: 'draft' });
      expect(venue.status).toBe('draft');
      await http().get('/venue/secret-venue/').expect(404);
      for (const page of ['/', '/feed/']) {
        const res = await http().get(page).expect(200);
        expect(res.text).not.toMatch(/secret|draft words|private words|password words/i);
      }
      for (const slug of [
        'draft-secret',
        'pending-secret',
        'future-secret',
        'private-secret',
        'nothing-here',
      ]) {
        const res = await http().get(`/event/${slug}/`).expect(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.text).toContain('Page not found');
        expect(res.text).not.toMatch(/secret|words/i);
      }
      // The `url` of an unpublished event is the query form.
      expect(made.draft.url).toBe(`${SITE}/?post_type=cal_events&p=${made.draft.id}`);
      const byId = await http().get(`/?post_type=cal_events&p=${made.draft.id}`).expect(404);
      expect(byId.text).not.toContain('draft words');
      const trashed = await post('trashed', 'events', {
        title: 'Trashed secret',
        slug: 'trashed-secret',
        start_date: '2030-05-01 10:00:00',
        end_date: '2030-05-01 11:00:00',
      });
      await http()
        .delete(`${BASE}/events/${trashed.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      await http().get('/event/trashed-secret/').expect(404);
    });

    it('shows a password form, and nothing of a protected event, until the password is typed', async () => {
      const form = await http().get('/event/members-evening/').expect(200);
      expect(form.text).toContain('name="post_password"');
      expect(form.text).not.toMatch(/Members evening|password words/);
      expect(jsonLd(form.text)).toEqual([]);
      expect(form.headers['cache-control']).toBe('private, no-store');
      const wrong = await unlock('/event/members-evening/', 'nope').expect(403);
      expect(wrong.text).toContain('The password is not correct.');
      expect(wrong.text).not.toContain('password words');
      const right = await unlock('/event/members-evening/', 'pw').expect(200);
      expect(right.text).toContain('password words');
      expect(right.headers['cache-control']).toBe('private, no-store');
    });

    it('unlocks a protected event through the address its form posts to, in every language', async () => {
      for (const [page, password, words] of [
        ['/event/members-evening/', 'pw', 'password words'],
        ['/hu/event/tagok-esteje/', 'jelszó', 'jelszavas szavak'],
        [`/ro/?post_type=cal_events&p=${made.protected.id}`, 'pw', 'password words'],
        [`/?p=${made.protected_hu.id}`, 'jelszó', 'jelszavas szavak'],
      ]) {
        const form = await http().get(page).expect(200);
        const action = formAction(form.text);
        expect(action).toBe(page.replace(/^\/\?p=/, '/?post_type=cal_events&p='));
        const wrong = await unlock(action, 'nope').expect(403);
        expect(formAction(wrong.text)).toBe(action);
        expect(wrong.text).not.toContain(words);
        const right = await unlock(action, password).expect(200);
        expect(right.text).toContain(words);
        expect(right.headers['cache-control']).toBe('private, no-store');
      }
      // POST / is only the form of an event by id.
      await unlock('/', 'pw').expect(404);
    });

    it('is served under the CSP with a strong ETag, Last-Modified and 304', async () => {
      const res = await http().get('/event/spring-concert/').expect(200);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers.etag).toMatch(/^"/);
      expect(res.headers['last-modified']).toBeDefined();
      expect(res.headers['cache-control']).toBe('public, no-cache');
      await http().get('/event/spring-concert/').set('If-None-Match', res.headers.etag).expect(304);
      await http()
        .get('/event/spring-concert/')
        .set('If-Modified-Since', res.headers['last-modified'])
        .expect(304);
      const css = await http().get('/assets/cal.css').expect(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    });
  });

  describe('list pages', () => {
    it('venue, organizer, category and tag pages list their upcoming events', async () => {
      for (const url of [
        made.venue.url,
        made.organizer.url,
        `${SITE}/events/category/music/`,
        `${SITE}/tag/classical/`,
      ]) {
        const res = await http()
          .get(path(url as string))
          .expect(200);
        expect(res.text).toContain('href="http://cal.test/event/spring-concert/"');
        expect(res.text).not.toContain('book-fair');
      }
      const tag = await http().get('/tag/classical/').expect(200);
      expect(tag.text).toContain('href="http://cal.test/tag/classical/feed/"');
      expect(tag.text).toContain(`${BASE}/events.ics?tags=`);
      await http().get('/venue/no-such-venue/').expect(404);
      await http().get('/events/category/no-such/').expect(404);
      await http().get('/tag/classical/?page=2').expect(404);
      await http().get('/tag/classical/?page=x').expect(404);
    });

    it('the home page lists upcoming events with paging, feeds and the API documentation', async () => {
      for (let i = 0; i < 11; i++) {
        await post(`more${i}`, 'events', {
          title: `Workshop ${i}`,
          start_date: `2031-01-${String(i + 10)} 10:00:00`,
          end_date: `2031-01-${String(i + 10)} 11:00:00`,
        });
      }
      const home = await http().get('/').expect(200);
      expect(home.text).toContain(
        '<link rel="https://api.w.org/" href="http://cal.test/wp-json/">',
      );
      expect(home.text).toContain('href="http://cal.test/cal/events/v1/doc/ui"');
      expect(home.text).toContain('href="http://cal.test/hu/cal/events/v1/doc/ui"');
      expect(home.text).toContain('href="http://cal.test/ro/cal/events/v1/doc/ui"');
      expect(home.text).toContain('rel="next" href="http://cal.test/?page=2"');
      expect(home.text).toContain('Page 1 of 2');
      expect(home.text).toContain('Spring concert');
      expect(home.text).not.toMatch(/secret/i);
      const second = await http().get('/?page=2').expect(200);
      expect(second.text).toContain('rel="prev" href="http://cal.test/"');
      expect(second.text).toContain('Workshop 10');
      await http().get('/?page=3').expect(404);
      const hu = await http().get('/hu/').expect(200);
      expect(hu.text).toContain('<html lang="hu">');
      expect(hu.text).toContain('Közelgő események');
      expect(hu.text).toContain('Tavaszi koncert');
      expect(hu.text).not.toContain('Spring concert');
      const ro = await http().get('/ro').expect(200);
      expect(ro.text).toContain('Evenimente viitoare');
    });
  });

  describe('RSS', () => {
    it('lists the upcoming events of the language, never drafts, private or protected content', async () => {
      const res = await http().get('/feed/').expect(200);
      expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(res.text).toContain('<rss version="2.0"');
      expect(res.text).toContain('<link>http://cal.test/event/spring-concert/</link>');
      expect(res.text).not.toMatch(/secret|password words/i);
      expect(res.text).toContain('<language>en</language>');
      const again = await http().get('/feed/').expect(200);
      expect(again.text).toBe(res.text);
      await http().get('/feed/').set('If-None-Match', res.headers.etag).expect(304);
      const hu = await http().get('/hu/feed/').expect(200);
      expect(hu.text).toContain('<link>http://cal.test/hu/event/tavaszi-koncert/</link>');
      expect(hu.text).toContain('<language>hu</language>');
    });

    it('per category and per tag', async () => {
      const cat = await http().get('/events/category/music/feed/').expect(200);
      expect(cat.text).toContain('spring-concert');
      expect(cat.text).not.toContain('book-fair');
      const tag = await http().get('/tag/classical/feed/').expect(200);
      expect(tag.text).toContain('spring-concert');
      await http().get('/tag/nothing/feed/').expect(404);
    });
  });
});

describe('public pages with BASE_PATH (e2e)', () => {
  let app: NestExpressApplication;
  afterAll(() => closeApp(app));

  it('serves the pages at the site root, the API under BASE_PATH', async () => {
    app = await createTestApp({ env: { BASE_PATH: '/wp-json' } });
    const http = () => request(app.getHttpServer());
    const home = await http().get('/').expect(200);
    expect(home.text).toContain('href="http://cal.test/wp-json/cal/events/v1/doc/ui"');
    expect(home.text).toContain('href="http://cal.test/wp-json/cal/events/v1/events.ics"');
    await http().get('/hu/').expect(200);
    await http().get('/feed/').expect(200);
    await http().get('/assets/cal.css').expect(200);
    await http().get('/event/nothing/').expect(404);
    await http().get('/wp-json/cal/events/v1/events').expect(200);
    await http().get('/wp-json/cal/events/v1/events.ics').expect(200);
    const root = await http().get('/?rest_route=/cal/events/v1/nothing').expect(404);
    expect((root.body as { code: string }).code).toBe('rest_no_route');
  });
});

describe('PUBLIC_URL_TEMPLATE (e2e)', () => {
  let app: NestExpressApplication;
  afterAll(() => closeApp(app));

  it('points every url at the front end, and turns the record pages off', async () => {
    app = await createTestApp({
      env: { PUBLIC_URL_TEMPLATE: 'https://www.example.org/{lang}/{type}/{slug}/?id={id}' },
    });
    const http = () => request(app.getHttpServer());
    const users = await createRoleUsers(app);
    const created = await postEvent(http, users.editor.header, {
      title: 'Fair',
      slug: 'fair',
      start_date: '2030-06-01 10:00:00',
      end_date: '2030-06-01 12:00:00',
      venue: { venue: 'Hall' },
      organizer: [{ organizer: 'Club' }],
      categories: ['Markets'],
      tags: ['outdoor'],
    }).expect(201);
    const event = created.body as Tec;
    expect(event.url).toBe(`https://www.example.org/en/event/fair/?id=${event.id}`);
    expect(event.venue.url).toBe(`https://www.example.org/en/venue/hall/?id=${event.venue.id}`);
    expect(event.organizer[0].url).toBe(
      `https://www.example.org/en/organizer/club/?id=${event.organizer[0].id}`,
    );
    const category = await http().get(`${BASE}/categories`).expect(200);
    expect((category.body as Tec).categories[0].url).toMatch(
      /^https:\/\/www\.example\.org\/en\/category\/markets\/\?id=\d+$/,
    );
    // A draft keeps the query form.
    const draft = await postEvent(http, users.editor.header, {
      title: 'D',
      status: 'draft',
      start_date: '2030-06-01 10:00:00',
      end_date: '2030-06-01 11:00:00',
    }).expect(201);
    expect((draft.body as Tec).url).toBe(
      `${SITE}/?post_type=cal_events&p=${(draft.body as Tec).id}`,
    );
    await http().get('/event/fair/').expect(404);
    await http().get('/venue/hall/').expect(404);
    await http().get('/tag/outdoor/').expect(404);
    await http().get('/events/category/markets/').expect(404);
    const home = await http().get('/').expect(200);
    expect(home.text).toContain(`href="https://www.example.org/en/event/fair/?id=${event.id}"`);
    const feed = await http().get('/tag/outdoor/feed/').expect(200);
    expect(feed.text).toContain(`https://www.example.org/en/event/fair/?id=${event.id}`);
    const ics = await http().get(`${BASE}/events.ics?end_date=2100-01-01`).expect(200);
    expect(ics.text).toContain('URL;VALUE=URI:https://www.example.org/en/event/fair/?id=');
  });

  it('is checked at start', () => {
    expect(() => loadConfig({ PUBLIC_URL_TEMPLATE: 'ftp://example.org/{slug}' })).toThrow(
      /PUBLIC_URL_TEMPLATE/,
    );
    expect(() => loadConfig({ PUBLIC_URL_TEMPLATE: 'https://example.org/events/' })).toThrow(
      /PUBLIC_URL_TEMPLATE/,
    );
    expect(
      loadConfig({ PUBLIC_URL_TEMPLATE: 'https://example.org/{slug}' }).publicUrlTemplate,
    ).toBe('https://example.org/{slug}');
  });
});
