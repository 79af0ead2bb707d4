import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { useAppAfterMigration } from '../helpers/schema-before.js';
import { isMysql } from '../helpers/database.js';
import { indexesUsed } from '../helpers/query-plan.js';
import { coldCaches, ownQueries } from '../helpers/query-counter.js';
import { postEvent } from '../helpers/app-fixture.js';
import { day, event } from '../helpers/event-body.js';

/**
 * Content languages and linked translations (CONTRACT §5): every event, venue, organizer,
 * category and tag has a language and may be linked to its translations.
 */

const BASE = '/cal/events/v1';
const SITE = 'http://cal.test';
const WIDE = 'start_date=2000-01-01&end_date=2100-01-01';

/** A record as the API answers it (fields read by the tests). */
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;
type Prefix = '' | '/en' | '/hu' | '/ro';

const ids = (items: Tec[]) => items.map((item) => Number(item.id));
const invalid = (params: Record<string, string>) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${Object.keys(params).join(', ')}`,
  data: { status: 400, params, details: [] },
});

describe('translations (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let ds: DataSource;
  const http = () => request(app.getHttpServer());
  const post = (
    prefix: Prefix,
    path: string,
    body: Record<string, unknown>,
    role: keyof RoleUsers | null = 'editor',
  ) => {
    const req = http().post(`${prefix}${BASE}/${path}`);
    return (role ? req.set('Authorization', users[role].header) : req).send(body);
  };
  const patch = (
    path: string,
    body: Record<string, unknown>,
    role: keyof RoleUsers | null = 'editor',
  ) => {
    const req = http().patch(`${BASE}/${path}`);
    return (role ? req.set('Authorization', users[role].header) : req).send(body);
  };
  const get = (prefix: Prefix, path: string, role: keyof RoleUsers | null = null) => {
    const req = http().get(`${prefix}${BASE}/${path}`);
    return role ? req.set('Authorization', users[role].header) : req;
  };
  const remove = (path: string) =>
    http().delete(`${BASE}/${path}`).set('Authorization', users.editor.header);
  const created = async (
    prefix: Prefix,
    path: string,
    body: Record<string, unknown>,
    role: keyof RoleUsers = 'editor',
  ): Promise<Tec> => (await post(prefix, path, body, role).expect(201)).body;
  beforeAll(async () => {
    app = await createTestApp();
    users = await createRoleUsers(app);
    ds = app.get(DataSource);
  });
  afterAll(() => closeApp(app));

  describe('events', () => {
    let en: Tec;
    let hu: Tec;
    let ro: Tec;

    it('creates the same event through /en, /hu and i18n_language, linked as translations', async () => {
      en = await created('/en', 'events', event('Jazz night', { slug: 'jazz-night' }));
      expect(en).toMatchObject({ language: 'en', slug: 'jazz-night', translations: { en: en.id } });
      // Then the event's series (CONTRACT §9), under cal/events/v1.
      expect(Object.keys(en).slice(-3)).toEqual(['language', 'translations', 'recurrence']);

      hu = await created(
        '/hu',
        'events',
        event('Dzsesszest', { slug: 'jazz-night', translation_of: en.id }),
      );
      expect(hu).toMatchObject({
        language: 'hu',
        slug: 'jazz-night',
        rest_url: `${SITE}/hu${BASE}/events/${hu.id}`,
        translations: { en: en.id, hu: hu.id },
      });

      // No prefix: the body's i18n_language selects Romanian; it links through any member.
      ro = await created(
        '',
        'events',
        event('Seară de jazz', { slug: 'jazz-night', translation_of: hu.id, i18n_language: 'ro' }),
      );
      expect(ro.language).toBe('ro');
      expect(ro.slug).toBe('jazz-night');
      const all = { en: en.id, hu: hu.id, ro: ro.id };
      expect(ro.translations).toEqual(all);
      expect(Object.keys(ro.translations)).toEqual(['en', 'hu', 'ro']);

      for (const [id, language] of [
        [en.id, 'en'],
        [hu.id, 'hu'],
        [ro.id, 'ro'],
      ]) {
        const res = await get('', `events/${id}`).expect(200);
        expect(res.body).toMatchObject({ language, translations: all });
      }
    });

    it('lists in each language only the events of that language, with their translations', async () => {
      const byLanguage = async (prefix: Prefix, query = '') =>
        ids((await get(prefix, `events?${WIDE}${query}`).expect(200)).body.events);
      expect(await byLanguage('')).toContain(en.id);
      expect(await byLanguage('')).not.toContain(hu.id);
      expect(await byLanguage('/en')).toEqual(expect.arrayContaining([en.id]));
      const huIds = await byLanguage('/hu');
      expect(huIds).toContain(hu.id);
      expect(huIds).not.toContain(en.id);
      expect(huIds).not.toContain(ro.id);
      const roIds = await byLanguage('/ro');
      expect(roIds).toContain(ro.id);
      expect(roIds).not.toContain(hu.id);
      expect(await byLanguage('/en', '&i18n_language=hu')).toEqual(huIds);

      const page = (await get('/hu', `events?${WIDE}`).expect(200)).body.events as Tec[];
      expect(page.find((e) => e.id === hu.id)).toMatchObject({
        language: 'hu',
        translations: { en: en.id, hu: hu.id, ro: ro.id },
      });
    });

    it('reuses one slug once per language: by-slug reads the request language, ids any', async () => {
      expect((await get('', 'events/by-slug/jazz-night').expect(200)).body.id).toBe(en.id);
      expect((await get('/hu', 'events/by-slug/jazz-night').expect(200)).body.id).toBe(hu.id);
      expect((await get('/ro', 'events/by-slug/jazz-night').expect(200)).body.id).toBe(ro.id);
      const other = await get('/hu', `events/${en.id}`).expect(200);
      expect(other.body).toMatchObject({ id: en.id, language: 'en' });
      // A second English event asking for the slug gets the next free one.
      const again = await created('', 'events', event('Jazz again', { slug: 'jazz-night' }));
      expect(again.slug).toBe('jazz-night-2');
    });

    it('validates translation_of before the permission check', async () => {
      const venue = await created('', 'venues', { venue: 'Not an event' });
      const reason = (id: unknown, prefix: Prefix = '', role: keyof RoleUsers | null = 'editor') =>
        post(prefix, 'events', event('Bad link', { translation_of: id }), role);
      expect((await reason(venue.id).expect(400)).body).toEqual(
        invalid({ translation_of: 'translation_of is not the ID of an event.' }),
      );
      expect((await reason(987654).expect(400)).body.data.params).toEqual({
        translation_of: 'translation_of is not the ID of an event.',
      });
      // A record cannot translate one of its own language, nor join a group that has one.
      expect((await reason(en.id).expect(400)).body).toEqual(
        invalid({ translation_of: 'The translations already include a record in en.' }),
      );
      expect((await reason(ro.id, '/hu').expect(400)).body).toEqual({
        code: 'rest_invalid_param',
        message: 'Érvénytelen paraméter(ek): translation_of',
        data: {
          status: 400,
          params: { translation_of: 'A fordítások között már van hu nyelvű rekord.' },
          details: [],
        },
      });
      expect((await reason('abc').expect(400)).body.data.params).toEqual({
        translation_of: 'translation_of is not of type integer.',
      });
      expect((await reason(0).expect(400)).body.data.params).toEqual({
        translation_of: 'Invalid parameter.',
      });
      // Messages follow the request language.
      const roReason = await post('/ro', 'events', event('Rău', { translation_of: venue.id }));
      expect(roReason.body.data.params.translation_of).toBe(
        'translation_of nu este ID-ul unui eveniment.',
      );
      // Anonymous: a bad link is a 400, a good one reaches the permission check (401).
      await reason(en.id, '/hu', null).expect(400);
      const lone = await created('', 'events', event('Lone for anonymous'));
      await reason(lone.id, '/hu', null).expect(401);
      // Nothing was written by the refused requests.
      expect((await get('/hu', `events?${WIDE}&search=Bad link`).expect(200)).body.total).toBe(0);
      expect((await get('', `events/${lone.id}`).expect(200)).body.translations).toEqual({
        en: lone.id,
      });
    });

    it('moves an event on update only to a language in which it has no translation', async () => {
      const solo = await created('', 'events', event('Solo', { slug: 'solo', excerpt: 'Kept' }));
      await created('/hu', 'events', event('Szóló', { slug: 'solo' }));
      const moved = await patch(`events/${solo.id}`, { language: 'hu' }).expect(200);
      // Partial update: only the language changes; the slug is taken in Hungarian, so -2.
      expect(moved.body).toMatchObject({
        id: solo.id,
        language: 'hu',
        title: 'Solo',
        excerpt: '<p>Kept</p>',
        slug: 'solo-2',
        translations: { hu: solo.id },
      });
      expect(ids((await get('/hu', `events?${WIDE}`).expect(200)).body.events)).toContain(solo.id);
      expect(ids((await get('/en', `events?${WIDE}`).expect(200)).body.events)).not.toContain(
        solo.id,
      );
      expect((await get('/hu', 'events/by-slug/solo-2').expect(200)).body.id).toBe(solo.id);

      expect((await patch(`events/${ro.id}`, { language: 'hu' }).expect(400)).body).toEqual(
        invalid({ language: 'The translations already include a record in hu.' }),
      );
      expect((await patch(`events/${ro.id}`, { language: 'de' }).expect(400)).body).toEqual(
        invalid({ language: 'Invalid parameter.' }),
      );
      // Validation first: anonymous gets the 400 for a taken language, a 401 otherwise.
      await patch(`events/${ro.id}`, { language: 'hu' }, null).expect(400);
      await patch(`events/${solo.id}`, { language: 'ro' }, null).expect(401);
      // Same language: nothing to check.
      await patch(`events/${ro.id}`, { language: 'ro' }).expect(200);

      // A member moves to a free language and stays linked.
      const a = await created('', 'events', event('Pair A'));
      const b = await created('/hu', 'events', event('Pair B', { translation_of: a.id }));
      const res = await patch(`events/${b.id}`, { language: 'ro', title: 'Pereche B' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ language: 'ro', translations: { en: a.id, ro: b.id } });
      expect((await get('', `events/${a.id}`).expect(200)).body.translations).toEqual({
        en: a.id,
        ro: b.id,
      });
    });

    it('lists only the translations the caller may read', async () => {
      const published = await created('', 'events', event('Public talk'));
      // The author's draft in the editor's group: only an editor may put it there (CONTRACT §5).
      const draft = await created(
        '/hu',
        'events',
        event('Nyilvános előadás', {
          translation_of: published.id,
          status: 'draft',
          author: users.author.id,
        }),
      );
      expect(draft.status).toBe('draft');
      const read = async (role: keyof RoleUsers | null) =>
        (await get('', `events/${published.id}`, role).expect(200)).body.translations;
      expect(await read(null)).toEqual({ en: published.id });
      expect(await read('subscriber')).toEqual({ en: published.id });
      expect(await read('author')).toEqual({ en: published.id, hu: draft.id });
      expect(await read('editor')).toEqual({ en: published.id, hu: draft.id });
    });

    it('trashing one translation leaves the others linked', async () => {
      // The first record (whose id names the group) leaves first.
      const trashed = await remove(`events/${en.id}`).expect(200);
      expect(trashed.body).toMatchObject({ status: 'trash', translations: { en: en.id } });
      const rest = { hu: hu.id, ro: ro.id };
      expect((await get('', `events/${hu.id}`).expect(200)).body.translations).toEqual(rest);
      expect((await get('', `events/${ro.id}`).expect(200)).body.translations).toEqual(rest);
      // A trashed event is no translation target; its language is free again.
      expect(
        (await post('', 'events', event('Again', { translation_of: en.id })).expect(400)).body.data
          .params,
      ).toEqual({ translation_of: 'translation_of is not the ID of an event.' });
      const en2 = await created('', 'events', event('Jazz night II', { translation_of: ro.id }));
      const group = { en: en2.id, hu: hu.id, ro: ro.id };
      expect(en2.translations).toEqual(group);
      expect((await get('', `events/${hu.id}`).expect(200)).body.translations).toEqual(group);

      await remove(`events/${ro.id}`).expect(200);
      expect((await get('', `events/${en2.id}`).expect(200)).body.translations).toEqual({
        en: en2.id,
        hu: hu.id,
      });
      // The last two part: each is alone again.
      await remove(`events/${en2.id}`).expect(200);
      expect((await get('', `events/${hu.id}`).expect(200)).body.translations).toEqual({
        hu: hu.id,
      });
      const [row] = await ds.query('SELECT translation_group FROM events WHERE id = ?', [hu.id]);
      expect(row.translation_group).toBeNull();
    });
  });

  describe('venues and organizers', () => {
    let vEn: Tec;
    let vHu: Tec;
    let vRo: Tec;
    let oEn: Tec;
    let oHu: Tec;

    it('creates linked venue translations; lists and slugs per language', async () => {
      vEn = await created('', 'venues', { venue: 'Opera House', city: 'Budapest' });
      expect(vEn).toMatchObject({
        language: 'en',
        slug: 'opera-house',
        translations: { en: vEn.id },
      });
      expect(Object.keys(vEn).slice(-2)).toEqual(['language', 'translations']);
      vHu = await created('/hu', 'venues', { venue: 'Opera House', translation_of: vEn.id });
      vRo = await created('/ro', 'venues', {
        venue: 'Opera House',
        translation_of: vHu.id,
        city: 'Budapesta',
      });
      const all = { en: vEn.id, hu: vHu.id, ro: vRo.id };
      expect(vHu).toMatchObject({ language: 'hu', slug: 'opera-house' });
      expect(vRo).toMatchObject({ language: 'ro', slug: 'opera-house', translations: all });
      expect((await get('/hu', `venues/${vEn.id}`).expect(200)).body.translations).toEqual(all);

      const listed = async (prefix: Prefix) =>
        ids((await get(prefix, 'venues?search=opera').expect(200)).body.venues);
      expect(await listed('')).toEqual([vEn.id]);
      expect(await listed('/hu')).toEqual([vHu.id]);
      expect(await listed('/ro')).toEqual([vRo.id]);
      const page = (await get('/ro', 'venues?search=opera').expect(200)).body.venues;
      expect(page[0].translations).toEqual(all);
      expect((await get('/hu', 'venues/by-slug/opera-house').expect(200)).body.id).toBe(vHu.id);
      expect((await get('', 'venues/by-slug/opera-house').expect(200)).body.id).toBe(vEn.id);
      expect((await get('/ro', `venues/${vEn.id}`).expect(200)).body.language).toBe('en');
    });

    it('creates linked organizer translations', async () => {
      oEn = await created('', 'organizers', { organizer: 'Opera Company' });
      oHu = await created('/hu', 'organizers', {
        organizer: 'Operatársulat',
        translation_of: oEn.id,
      });
      expect(oHu).toMatchObject({ language: 'hu', translations: { en: oEn.id, hu: oHu.id } });
      expect(Object.keys(oHu).slice(-2)).toEqual(['language', 'translations']);
      expect(
        ids((await get('/hu', 'organizers?search=opera').expect(200)).body.organizers),
      ).toEqual([oHu.id]);
    });

    it('embeds venues and organizers in events with their translations', async () => {
      const e = await created(
        '/ro',
        'events',
        event('Operă', { venue: vEn.id, organizer: [oHu.id] }),
      );
      expect(e.venue).toMatchObject({
        id: vEn.id,
        language: 'en',
        translations: { en: vEn.id, hu: vHu.id, ro: vRo.id },
      });
      expect(e.organizer[0]).toMatchObject({
        id: oHu.id,
        language: 'hu',
        translations: { en: oEn.id, hu: oHu.id },
      });
      const read = await get('', `events/${e.id}`).expect(200);
      expect(read.body.venue.translations).toEqual({ en: vEn.id, hu: vHu.id, ro: vRo.id });
    });

    it('validates translation_of and language before the permission check', async () => {
      expect(
        (await post('', 'organizers', { organizer: 'X', translation_of: vEn.id }).expect(400)).body,
      ).toEqual(invalid({ translation_of: 'translation_of is not the ID of an organizer.' }));
      expect(
        (await post('/ro', 'venues', { venue: 'Y', translation_of: vEn.id }, null).expect(400)).body
          .data.params,
      ).toEqual({ translation_of: 'Traducerile includ deja o înregistrare în limba ro.' });
      await post('/hu', 'venues', { venue: 'Anonymous', translation_of: oEn.id }, null).expect(400);
      expect((await patch(`venues/${vRo.id}`, { language: 'hu' }).expect(400)).body).toEqual(
        invalid({ language: 'The translations already include a record in hu.' }),
      );
      await patch(`venues/${vRo.id}`, { language: 'hu' }, null).expect(400);
      expect((await patch(`organizers/${oHu.id}`, { language: 'xx' }).expect(400)).body).toEqual(
        invalid({ language: 'Invalid parameter.' }),
      );
      // An inline venue of an event is validated like POST /venues (any failure is on `venue`).
      const inline = await post(
        '/ro',
        'events',
        event('Inline', { venue: { venue: 'Inline', translation_of: oEn.id } }),
      ).expect(400);
      expect(Object.keys(inline.body.data.params)).toEqual(['venue']);
    });

    it('moves a venue to a free language, keeping its other fields and a unique slug', async () => {
      const lone = await created('', 'venues', { venue: 'Opera House', city: 'Szeged' });
      // The duplicate rule (same name in English) reuses the English venue; use another name.
      expect(lone.id).toBe(vEn.id);
      const other = await created('', 'venues', { venue: 'Small Hall', city: 'Szeged' });
      await created('/hu', 'venues', { venue: 'Small Hall' });
      const moved = await patch(`venues/${other.id}`, { language: 'hu' }).expect(200);
      expect(moved.body).toMatchObject({
        language: 'hu',
        city: 'Szeged',
        slug: 'small-hall-2',
        translations: { hu: other.id },
      });
      await patch(`venues/${other.id}`, { language: 'ro' }, null).expect(401);
    });

    it('trashing one translation leaves the others linked', async () => {
      await remove(`venues/${vHu.id}`).expect(200);
      expect((await get('', `venues/${vEn.id}`).expect(200)).body.translations).toEqual({
        en: vEn.id,
        ro: vRo.id,
      });
      const trashedOrganizer = await remove(`organizers/${oEn.id}`).expect(200);
      expect(trashedOrganizer.body.translations).toEqual({ en: oEn.id });
      expect((await get('', `organizers/${oHu.id}`).expect(200)).body.translations).toEqual({
        hu: oHu.id,
      });
    });
  });

  describe('categories and tags', () => {
    let cEn: Tec;
    let cHu: Tec;
    let cRo: Tec;

    it('creates linked category translations, the same slug once per language', async () => {
      cEn = await created('', 'categories', { name: 'Music' });
      expect(cEn).toMatchObject({ slug: 'music', language: 'en', translations: { en: cEn.id } });
      cHu = await created('/hu', 'categories', {
        name: 'Zene',
        slug: 'music',
        translation_of: cEn.id,
      });
      cRo = await created('', 'categories', {
        name: 'Muzică',
        slug: 'music',
        translation_of: cEn.id,
        i18n_language: 'ro',
      });
      const all = { en: cEn.id, hu: cHu.id, ro: cRo.id };
      expect(cHu).toMatchObject({ slug: 'music', language: 'hu' });
      expect(cRo).toMatchObject({ slug: 'music', language: 'ro', translations: all });
      expect((await get('/hu', `categories/${cEn.id}`).expect(200)).body).toMatchObject({
        language: 'en',
        translations: all,
      });
      const bySlug = async (prefix: Prefix) =>
        ids((await get(prefix, 'categories?slug=music&hide_empty=0').expect(200)).body.categories);
      expect(await bySlug('')).toEqual([cEn.id]);
      expect(await bySlug('/hu')).toEqual([cHu.id]);
      expect(await bySlug('/ro')).toEqual([cRo.id]);
      const listed = (await get('/ro', 'categories?hide_empty=0&slug=music').expect(200)).body;
      expect(listed.categories[0].translations).toEqual(all);
    });

    it('keeps categories and tags apart', async () => {
      const tag = await created('', 'tags', { name: 'Outdoor' });
      expect(
        (await post('', 'categories', { name: 'Kint', translation_of: tag.id }).expect(400)).body,
      ).toEqual(invalid({ translation_of: 'translation_of is not the ID of an event category.' }));
      expect(
        (await post('', 'tags', { name: 'Zene', translation_of: cEn.id }).expect(400)).body,
      ).toEqual(invalid({ translation_of: 'translation_of is not the ID of an event tag.' }));
      const huTag = await created('/hu', 'tags', { name: 'Szabadtéri', translation_of: tag.id });
      expect(huTag.translations).toEqual({ en: tag.id, hu: huTag.id });
      // Validation before permission: an author gets the 400 first, then the 403.
      await post('/ro', 'tags', { name: 'Afară', translation_of: huTag.id }, 'author').expect(403);
      await post('/hu', 'tags', { name: 'Kint', translation_of: tag.id }, 'author').expect(400);
    });

    it('counts for each term the published events of its own language', async () => {
      const cats = (termIds: number[]) => ({ categories: termIds });
      await created('', 'events', event('Concert', cats([cEn.id, cHu.id])));
      await created('/hu', 'events', event('Koncert', cats([cHu.id])));
      await created('/hu', 'events', event('Koncert 2', cats([cHu.id, cEn.id])));
      const count = async (id: number) =>
        (await get('', `categories/${id}`).expect(200)).body.count;
      expect(await count(cEn.id)).toBe(1);
      expect(await count(cHu.id)).toBe(2);
      expect(await count(cRo.id)).toBe(0);
      // The same count through every prefix; hide_empty follows it.
      expect((await get('/ro', `categories/${cHu.id}`).expect(200)).body.count).toBe(2);
      expect(ids((await get('/ro', 'categories?slug=music').expect(200)).body.categories)).toEqual(
        [],
      );
      expect(ids((await get('/hu', 'categories?slug=music').expect(200)).body.categories)).toEqual([
        cHu.id,
      ]);
      // A moved event moves its counts.
      const moving = await created('', 'events', event('Moving concert', cats([cEn.id, cHu.id])));
      expect(await count(cHu.id)).toBe(2);
      await patch(`events/${moving.id}`, { language: 'hu' }).expect(200);
      expect(await count(cHu.id)).toBe(3);
      expect(await count(cEn.id)).toBe(1);
    });

    it('moves a term to a free language with a slug unique there', async () => {
      const a = await created('', 'tags', { name: 'Indoor' });
      await created('/hu', 'tags', { name: 'Indoor' });
      const moved = await patch(`tags/${a.id}`, { language: 'hu' }).expect(200);
      expect(moved.body).toMatchObject({ language: 'hu', name: 'Indoor', slug: 'indoor-2' });
      const slugged = await patch(`tags/${a.id}`, { language: 'ro', slug: 'inauntru' });
      expect(slugged.body).toMatchObject({ language: 'ro', slug: 'inauntru' });
      expect((await patch(`categories/${cHu.id}`, { language: 'en' }).expect(400)).body).toEqual(
        invalid({ language: 'The translations already include a record in en.' }),
      );
      await patch(`categories/${cHu.id}`, { language: 'xx' }).expect(400);
      await patch(`categories/${cHu.id}`, { language: 'en' }, 'author').expect(400);
      await patch(`tags/${a.id}`, { language: 'en' }, 'author').expect(403);
    });

    it('deleting one translation leaves the others linked', async () => {
      const deleted = await remove(`categories/${cEn.id}`).expect(200);
      expect(deleted.body.translations).toEqual({ en: cEn.id, hu: cHu.id, ro: cRo.id });
      expect((await get('', `categories/${cHu.id}`).expect(200)).body.translations).toEqual({
        hu: cHu.id,
        ro: cRo.id,
      });
      const en = await created('', 'categories', {
        name: 'Music',
        translation_of: cRo.id,
      });
      expect(en.translations).toEqual({ en: en.id, hu: cHu.id, ro: cRo.id });
    });
  });

  describe('filters naming records of another language', () => {
    it('select by id, whatever the language of the named record', async () => {
      const venue = await created('', 'venues', { venue: 'Cross Hall' });
      const organizer = await created('', 'organizers', { organizer: 'Cross Org' });
      const category = await created('', 'categories', { name: 'Cross category' });
      const tag = await created('', 'tags', { name: 'Cross tag' });
      const links = {
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
      };
      const huEvent = await created('/hu', 'events', event('Kereszt', links));
      const enEvent = await created('', 'events', event('Cross', links));
      const huList = async (query: string) =>
        ids((await get('/hu', `events?${WIDE}&${query}`).expect(200)).body.events);
      expect(await huList(`venue=${venue.id}`)).toEqual([huEvent.id]);
      expect(await huList(`organizer=${organizer.id}`)).toEqual([huEvent.id]);
      expect(await huList(`categories=${category.id}`)).toEqual([huEvent.id]);
      expect(await huList(`tags=${tag.id}`)).toEqual([huEvent.id]);
      expect(
        ids((await get('', `events?${WIDE}&venue=${venue.id}`).expect(200)).body.events),
      ).toEqual([enEvent.id]);

      expect(ids((await get('', `venues?event=${huEvent.id}`).expect(200)).body.venues)).toEqual([
        venue.id,
      ]);
      expect(
        ids((await get('', `organizers?event=${huEvent.id}`).expect(200)).body.organizers),
      ).toEqual([organizer.id]);
      expect(
        ids((await get('', `categories?event=${huEvent.id}`).expect(200)).body.categories),
      ).toEqual([category.id]);
      expect(ids((await get('', `tags?post=${huEvent.id}`).expect(200)).body.tags)).toEqual([
        tag.id,
      ]);
      // The lists stay in their language: no Hungarian venue is linked to the event.
      expect((await get('/hu', `venues?event=${huEvent.id}`).expect(200)).body.venues).toEqual([]);
    });
  });

  describe('documentation', () => {
    it('documents translation_of on creates and language on updates, in three languages', async () => {
      const texts = {
        en: 'The ID of the same record in another language: the new record joins its translations.',
        hu: 'Ugyanennek a rekordnak az azonosítója egy másik nyelven: az új rekord a fordításai közé kerül.',
        ro: 'ID-ul aceleiași înregistrări într-o altă limbă: noua înregistrare se alătură traducerilor acesteia.',
      };
      for (const [language, text] of Object.entries(texts)) {
        const schemas = (await http().get(`/${language}${BASE}/doc`).expect(200)).body.components
          .schemas;
        for (const kind of ['Event', 'Venue', 'Organizer', 'Category', 'Tag']) {
          const create = schemas[`Create${kind}Dto`].properties;
          const update = schemas[`Update${kind}Dto`].properties;
          expect(create.translation_of).toMatchObject({ type: 'integer' });
          expect(create.translation_of.description.startsWith(text)).toBe(true);
          expect(create.language).toBeUndefined();
          expect(update.language).toMatchObject({ type: 'string', enum: ['en', 'hu', 'ro'] });
          expect(update.translation_of).toBeUndefined();
        }
      }
      const routes = (await http().get(BASE).expect(200)).body.routes;
      expect(routes[`${BASE}/categories`].endpoints[1].args.translation_of).toMatchObject({
        type: 'integer',
        required: false,
      });
      expect(routes[`${BASE}/venues/(?P<id>\\d+)`].endpoints[2].args.language).toMatchObject({
        type: 'string',
        required: false,
      });
    });
  });

  describe('queries', () => {
    /** Runs `work` and returns the SQL it sent, with parameters (the database ping left out). */
    async function capture(work: () => Promise<unknown>) {
      const spy = vi.spyOn(ds.logger, 'logQuery');
      try {
        await work();
        return ownQueries(spy)
          .map(([sql, parameters]) => ({ sql, parameters: (parameters ?? []) as unknown[] }))
          .filter((q) => q.sql.trim() !== 'SELECT 1');
      } finally {
        spy.mockRestore();
      }
    }

    beforeAll(async () => {
      for (let i = 0; i < 6; i++) {
        const v = await created('', 'venues', { venue: `Bulkvenue ${i}` });
        const vHu = await created('/hu', 'venues', {
          venue: `Bulkvenue ${i}`,
          translation_of: v.id,
        });
        const o = await created('', 'organizers', { organizer: `Bulkorg ${i}` });
        await created('/hu', 'organizers', { organizer: `Bulkorg ${i}`, translation_of: o.id });
        const c = await created('', 'categories', { name: `Bulkcat ${i}` });
        const cHu = await created('/hu', 'categories', {
          name: `Bulkcat ${i}`,
          translation_of: c.id,
        });
        const e = await created('', 'events', event(`Bulk ${i}`, { venue: v.id }));
        await created(
          '/hu',
          'events',
          event(`Bulk ${i}`, {
            translation_of: e.id,
            venue: vHu.id,
            organizer: [o.id],
            categories: [cHu.id],
          }),
        );
      }
    });

    it('loads the translations of a page in a constant number of queries', async () => {
      for (const path of [
        `events?${WIDE}&search=Bulk`,
        'venues?search=Bulkvenue',
        'organizers?search=Bulkorg',
        'categories?search=Bulkcat&hide_empty=0',
      ]) {
        const count = async (perPage: number) => {
          let body: Tec = {};
          // Cold: list totals are cached until the next write.
          await coldCaches(app);
          const queries = await capture(async () => {
            body = (await get('/hu', `${path}&per_page=${perPage}`).expect(200)).body;
          });
          const items = Object.values(body).find(Array.isArray) as Tec[];
          expect(items).toHaveLength(perPage);
          for (const item of items) expect(Object.keys(item.translations)).toEqual(['en', 'hu']);
          return queries.length;
        };
        const two = await count(2);
        expect(await count(6)).toBe(two);
      }
    });

    it('serves a list of one language and the translations of a page from indexes', async () => {
      // Enough rows in three languages that a full scan is not the cheaper plan.
      const values: unknown[] = [];
      const rows: string[] = [];
      for (let i = 0; i < 300; i++) {
        const id = 100000 + i;
        const language = ['en', 'hu', 'ro'][i % 3];
        rows.push(`(?, 'publish', ?, '', '', '2020-01-01 00:00:00', '2020-01-01 00:00:00',
          '2020-01-01 00:00:00', '2020-01-01 00:00:00', ?, ?, ?, ?, ?, 'UTC', '[]', ?)`);
        const start = day(10 + (i % 50));
        values.push(id, `Plan ${i}`, language, start, start, start, start, 100000 + i - (i % 3));
      }
      await ds.query(
        `INSERT INTO events (id, status, title, description, excerpt, date, date_utc, modified,
           modified_utc, language, start_date, end_date, start_utc, end_utc, timezone, cost,
           translation_group) VALUES ${rows.join(', ')}`,
        values,
      );
      if (isMysql()) await ds.query('ANALYZE TABLE events');
      else await ds.query('ANALYZE');
      // Written behind the service's back: cached answers and counts must not be reused.
      await coldCaches(app);

      const queries = await capture(() => get('/hu', `events?${WIDE}&per_page=20`).expect(200));
      const list = queries.find((q) => /FROM [`"]events[`"]/.test(q.sql) && /LIMIT/.test(q.sql));
      const translations = queries.find((q) =>
        /FROM [`"]events[`"] [`"]tr[`"] WHERE [`"]tr[`"]\.[`"]translation_group[`"] IN/.test(q.sql),
      );
      expect(list).toBeDefined();
      expect(translations).toBeDefined();
      expect(await indexesUsed(ds, list!)).toContain('IDX_events_listing');
      expect(await indexesUsed(ds, translations!)).toContain('IDX_events_translation');

      // Term counts (per language now) are read from the link index alone (counted afresh:
      // the events list above cached the counts of its terms).
      await coldCaches(app);
      const termQueries = await capture(() =>
        get('/hu', 'categories?per_page=20&hide_empty=0').expect(200),
      );
      const terms = termQueries.find(
        (q) => /FROM [`"]terms[`"]/.test(q.sql) && /COUNT\(\*\) FROM event_terms/.test(q.sql),
      );
      expect(terms).toBeDefined();
      expect(await indexesUsed(ds, terms!)).toContain('IDX_event_terms_count');
    });
  });
});

describe('translations migration on existing data (e2e)', () => {
  // The schema as it was before the translations migration, filled with raw SQL.
  const { app, http } = useAppAfterMigration(
    'Translations',
    async (q) => {
      for (const [id, kind] of [
        [1, 'event'],
        [2, 'event'],
        [3, 'event'],
        [4, 'event'],
        [5, 'venue'],
        [6, 'organizer'],
      ]) {
        await q('INSERT INTO post_ids (id, kind) VALUES (?, ?)', [id, kind]);
      }
      const start = day(3);
      const insertEvent = (id: number, language: string, slug: string) =>
        q(
          `INSERT INTO events (id, status, title, slug, description, excerpt, date, date_utc,
           modified, modified_utc, language, start_date, end_date, start_utc, end_utc, timezone,
           cost, venue_id)
         VALUES (?, 'publish', ?, ?, '', '', '2020-01-01 00:00:00', '2020-01-01 00:00:00',
           '2020-01-01 00:00:00', '2020-01-01 00:00:00', ?, ?, ?, ?, ?, 'UTC', '[]', ?)`,
          [id, `Old ${id}`, slug, language, start, start, start, start, id === 2 ? 5 : null],
        );
      await insertEvent(1, 'en', 'concert');
      await insertEvent(2, '', 'concert');
      await insertEvent(3, 'hu', 'party');
      await insertEvent(4, 'de', 'party');
      const insertPost = (table: string, id: number, language: string) =>
        q(
          `INSERT INTO ${table} (id, status, title, slug, description, excerpt, date, date_utc,
           modified, modified_utc, language)
         VALUES (?, 'publish', ?, ?, '', '', '2020-01-01 00:00:00', '2020-01-01 00:00:00',
           '2020-01-01 00:00:00', '2020-01-01 00:00:00', ?)`,
          [id, `Old ${table}`, `old-${table}`, language],
        );
      await insertPost('venues', 5, '');
      await insertPost('organizers', 6, 'en');
      await q(
        `INSERT INTO terms (id, taxonomy, name, slug, description, parent, language) VALUES
         (10, 'cal_events_cat', 'Music', 'music', '', 0, 'en'),
         (11, 'cal_events_cat', 'Zene', 'music', '', 0, '')`,
      );
      await q(
        `INSERT INTO event_terms (event_id, term_id, event_status, event_date_utc) VALUES
         (1, 10, 'publish', '2020-01-01 00:00:00'),
         (2, 10, 'publish', '2020-01-01 00:00:00'),
         (2, 11, 'publish', '2020-01-01 00:00:00')`,
      );
    },
    { env: { DEFAULT_LANGUAGE: 'hu' } },
  );

  it('gives rows without a supported language DEFAULT_LANGUAGE, keeping slugs unique', async () => {
    const ds = app().get(DataSource);
    const rows = async (table: string) =>
      (
        await ds.query<Tec[]>(
          `SELECT id, language, slug, translation_group FROM ${table} ORDER BY id`,
        )
      ).map((r) => ({ ...r, id: Number(r.id) }));
    expect(await rows('events')).toEqual([
      { id: 1, language: 'en', slug: 'concert', translation_group: null },
      { id: 2, language: 'hu', slug: 'concert', translation_group: null },
      { id: 3, language: 'hu', slug: 'party', translation_group: null },
      { id: 4, language: 'hu', slug: 'party-4', translation_group: null },
    ]);
    expect((await rows('venues'))[0]).toMatchObject({ language: 'hu' });
    expect((await rows('organizers'))[0]).toMatchObject({ language: 'en' });
    expect(await rows('terms')).toEqual([
      { id: 10, language: 'en', slug: 'music', translation_group: null },
      { id: 11, language: 'hu', slug: 'music', translation_group: null },
    ]);
    const links: Tec[] = await ds.query(
      'SELECT event_id, term_id, event_language FROM event_terms ORDER BY event_id, term_id',
    );
    expect(links.map((l) => [Number(l.event_id), Number(l.term_id), l.event_language])).toEqual([
      [1, 10, 'en'],
      [2, 10, 'hu'],
      [2, 11, 'hu'],
    ]);
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries;
    expect(pending.map((p) => p.query)).toEqual([]);
  });

  it('serves the old data per language, with translations and per-language counts', async () => {
    const list = async (prefix: string) =>
      (await http().get(`${prefix}${BASE}/events?${WIDE}`).expect(200)).body.events as Tec[];
    // No prefix: DEFAULT_LANGUAGE (hu).
    expect(ids(await list(''))).toEqual([2, 3, 4]);
    expect(ids(await list('/en'))).toEqual([1]);
    const [first] = await list('/en');
    expect(first).toMatchObject({ language: 'en', translations: { en: 1 } });
    expect(
      (await http().get(`${BASE}/events/by-slug/party-4`).expect(200)).body.translations,
    ).toEqual({ hu: 4 });
    const venue = (await http().get(`${BASE}/venues/5`).expect(200)).body;
    expect(venue).toMatchObject({ language: 'hu', translations: { hu: 5 } });
    // Term 10 is English: the Hungarian event 2 carries it but does not count.
    expect((await http().get(`${BASE}/categories/10`).expect(200)).body.count).toBe(1);
    expect((await http().get(`${BASE}/categories/11`).expect(200)).body.count).toBe(1);
  });

  it('creates records in DEFAULT_LANGUAGE when no language is selected, and links them', async () => {
    const users = await createRoleUsers(app());
    const res = await postEvent(
      http,
      users.editor.header,
      event('New', { translation_of: 1 }),
    ).expect(201);
    expect(res.body).toMatchObject({ language: 'hu', translations: { en: 1, hu: res.body.id } });
    const old = (await http().get(`/en${BASE}/events/1`).expect(200)).body;
    expect(old.translations).toEqual({ en: 1, hu: res.body.id });
  });
});
