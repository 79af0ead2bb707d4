import { DataSource } from 'typeorm';
import type { RoleUsers } from '../helpers/auth.js';
import { useTestApp } from '../helpers/app-fixture.js';
import { countRows } from '../helpers/database.js';
import { event as eventBody } from '../helpers/event-body.js';

/**
 * Every field and list has a maximum (CONTRACT §4, Limits): over it is a 400
 * `rest_invalid_param` naming the limit, never a 500 ("Data too long" on MySQL/MariaDB, "too many
 * SQL variables" on SQLite) and never a partial write. The probe's cases, then one boundary per
 * limit (the maximum passes, one more fails), on the engine of TEST_DATABASE_URL.
 */
const BASE = '/cal/events/v1';
const URL_PREFIX = 'http://example.org/';
const url = (length: number) => URL_PREFIX + 'a'.repeat(length - URL_PREFIX.length);
const ids = (n: number, id = 1) => Array.from({ length: n }, (_, i) => (id ? id : i + 1));
const EMOJI = '😀'; // 4 bytes in UTF-8, 2 UTF-16 units, 1 character

// oxlint-disable-next-line typescript/no-explicit-any
type Res = { status: number; body: any };

/** 400 whose reason for `param` is the limit `max` (`rest_too_long` or `rest_too_many_items`). */
function expectLimit(res: Res, param: string, max: number, code = 'rest_too_long') {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('rest_invalid_param');
  expect(res.body.data.params[param]).toContain(String(max));
  expect(res.body.data.details[param].code).toBe(code);
}
const expectTooMany = (res: Res, param: string, max: number) =>
  expectLimit(res, param, max, 'rest_too_many_items');

describe('input limits (e2e)', () => {
  const { app, http, users } = useTestApp();
  let ds: DataSource;
  const post = (path: string, body: object, as: keyof RoleUsers | null = 'editor') => {
    const req = http().post(`${BASE}${path}`);
    return (as ? req.set('Authorization', users[as].header) : req).send(body);
  };
  const get = (path: string) => http().get(`${BASE}${path}`);
  const event = (extra: Record<string, unknown> = {}) => eventBody('Limits', extra);
  const count = (table: string) => countRows(ds, table);

  beforeAll(async () => {
    ds = app().get(DataSource);
  });

  describe("the security probe's cases", () => {
    it('a 312-character password is a 400 on events, venues and organizers', async () => {
      const password = 'p'.repeat(312);
      expectLimit(await post('/events', event({ password })), 'password', 255);
      expectLimit(await post('/venues', { venue: 'V', password }), 'password', 255);
      expectLimit(await post('/organizers', { organizer: 'O', password }), 'password', 255);
    });

    it('a 3 KB website is a 400 on events, venues and organizers', async () => {
      const website = url(3 * 1024);
      expectLimit(await post('/events', event({ website })), 'website', 2048);
      expectLimit(await post('/venues', { venue: 'V', website }), 'website', 2048);
      expectLimit(await post('/organizers', { organizer: 'O', website }), 'website', 2048);
    });

    it('a 70 KB title, venue name or organizer name is a 400', async () => {
      const name = 'n'.repeat(70 * 1024);
      expectLimit(await post('/events', event({ title: name })), 'title', 1000);
      expectLimit(await post('/venues', { venue: name }), 'venue', 1000);
      expectLimit(await post('/organizers', { organizer: name }), 'organizer', 1000);
    });

    it('40,000 ids in an anonymous list filter never reach the database', async () => {
      const list = ids(40_000, 0).join(',');
      // Too long for a request line: Node refuses it in the error shape, not a 500.
      const res = await get(`/events?include=${list}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      // As many ids as a URL holds: the limit answers.
      expectTooMany(await get(`/events?include=${ids(3000, 0).join(',')}`), 'include', 100);
      expectTooMany(await get(`/events?venue=${ids(3000, 0).join(',')}`), 'venue', 100);
      expectTooMany(await get(`/categories?include=${ids(3000, 0).join(',')}`), 'include', 100);
      // The same list in a body, anonymous: validation comes before the 401 (CONTRACT §2).
      expectTooMany(
        await post('/events', event({ organizer: ids(40_000, 0) }), null),
        'organizer',
        100,
      );
      expectTooMany(await post('/events', event({ venue: ids(40_000, 0) }), null), 'venue', 100);
    });

    it('140,000 category ids are a 400', async () => {
      expectTooMany(
        await post('/events', event({ categories: ids(140_000, 0) })),
        'categories',
        100,
      );
    });

    it.each([2000, 8000])('%i inline organizers are a 400 and write nothing', async (n) => {
      const before = await count('organizers');
      const organizer = Array.from({ length: n }, (_, i) => ({ organizer: `Inline ${i}` }));
      expectTooMany(await post('/events', event({ organizer })), 'organizer', 100);
      expect(await count('organizers')).toBe(before);
    });
  });

  describe('event fields: the maximum passes, one more is a 400', () => {
    it.each([
      ['title', 1000],
      ['description', 10_000],
      ['excerpt', 10_000],
      ['slug', 200],
      ['password', 255],
    ])('%s: %i characters', async (field, max) => {
      expect((await post('/events', event({ [field]: 'x'.repeat(max) }))).status).toBe(201);
      expectLimit(await post('/events', event({ [field]: 'x'.repeat(max + 1) })), field, max);
    });

    it.each(['website', 'image'])('%s: 2048 characters', async (field) => {
      expect((await post('/events', event({ [field]: url(2048) }))).status).toBe(201);
      expectLimit(await post('/events', event({ [field]: url(2049) })), field, 2048);
    });

    it('timezone: 64 characters', async () => {
      expectLimit(await post('/events', event({ timezone: 'E'.repeat(65) })), 'timezone', 64);
    });

    it('cost: 20 values of 255 characters; the long currency symbol is stored whole', async () => {
      const value = `${'€'.repeat(253)}10`;
      const res = await post('/events', event({ cost: value }));
      expect(res.status).toBe(201);
      expect(res.body.cost_details.currency_symbol).toBe('€'.repeat(253));
      expect((await post('/events', event({ cost: ids(20, 5) }))).status).toBe(201);
      expectLimit(await post('/events', event({ cost: `${value}0` })), 'cost', 255);
      expectTooMany(await post('/events', event({ cost: ids(21, 5) })), 'cost', 20);
      expectLimit(await post('/events', event({ cost: ['5', `${value}0`] })), 'cost', 255);
    });

    it('categories and tags: 100 items of 200 characters', async () => {
      for (const field of ['categories', 'tags']) {
        expect((await post('/events', event({ [field]: ids(100, 0) }))).status).toBe(201);
        expectTooMany(await post('/events', event({ [field]: ids(101, 0) })), field, 100);
        // A comma-separated string counts its parts.
        expectTooMany(await post('/events', event({ [field]: ids(101, 0).join(',') })), field, 100);
        const name = 'c'.repeat(200);
        const ok = await post('/events', event({ [field]: [name] }));
        expect(ok.status).toBe(201);
        expectLimit(await post('/events', event({ [field]: [`${name}c`] })), field, 200);
      }
    });

    it('organizer: 100 inline organizers pass, 101 do not', async () => {
      const inline = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ organizer: `Boundary ${i}` }));
      const res = await post('/events', event({ organizer: inline(100) }));
      expect(res.status).toBe(201);
      expect(res.body.organizer).toHaveLength(100);
      expectTooMany(await post('/events', event({ organizer: inline(101) })), 'organizer', 100);
    });

    it('fields of an inline venue or organizer name their limit', async () => {
      const venue = await post('/events', event({ venue: { venue: 'V', city: 'c'.repeat(256) } }));
      expect(venue.status).toBe(400);
      expect(venue.body.data.params.venue).toContain('venue.city');
      expect(venue.body.data.params.venue).toContain('255');
      const organizer = await post(
        '/events',
        event({ organizer: [{ organizer: 'O', email: 'e'.repeat(256) }] }),
      );
      expect(organizer.status).toBe(400);
      expect(organizer.body.data.params.organizer).toContain('organizer.email');
    });

    it('the password that opens an event: 255 characters', async () => {
      const created = await post('/events', event({ password: 'secret' }));
      const id = created.body.id as number;
      expect((await get(`/events/${id}?password=${'s'.repeat(255)}`)).status).toBe(403);
      expectLimit(await get(`/events/${id}?password=${'s'.repeat(256)}`), 'password', 255);
    });
  });

  describe('venue and organizer fields', () => {
    it.each([
      ['venue', 1000],
      ['description', 10_000],
      ['address', 255],
      ['city', 255],
      ['country', 255],
      ['province', 255],
      ['state', 255],
      ['zip', 255],
      ['phone', 255],
      ['stateprovince', 255],
      ['show_map', 255],
      ['password', 255],
    ])('venue %s: %i characters', async (field, max) => {
      const body = (n: number) => ({ venue: `Venue ${field} ${n}`, [field]: 'v'.repeat(n) });
      expect((await post('/venues', body(max))).status).toBe(201);
      expectLimit(await post('/venues', body(max + 1)), field, max);
    });

    it.each([
      ['organizer', 1000],
      ['description', 10_000],
      ['phone', 255],
      ['email', 255],
      ['password', 255],
    ])('organizer %s: %i characters', async (field, max) => {
      const body = (n: number) => ({ organizer: `Org ${field} ${n}`, [field]: 'o'.repeat(n) });
      expect((await post('/organizers', body(max))).status).toBe(201);
      expectLimit(await post('/organizers', body(max + 1)), field, max);
    });

    it.each(['website', 'image'])('venue and organizer %s: 2048 characters', async (field) => {
      expect((await post('/venues', { venue: `W ${field}`, [field]: url(2048) })).status).toBe(201);
      expectLimit(await post('/venues', { venue: 'W', [field]: url(2049) }), field, 2048);
      expect(
        (await post('/organizers', { organizer: `W ${field}`, [field]: url(2048) })).status,
      ).toBe(201);
      expectLimit(await post('/organizers', { organizer: 'W', [field]: url(2049) }), field, 2048);
    });
  });

  describe('categories and tags', () => {
    it.each([
      ['name', 200],
      ['slug', 200],
      ['description', 10_000],
    ])('%s: %i characters', async (field, max) => {
      for (const path of ['/categories', '/tags']) {
        const body = (n: number) => ({ name: `T ${field} ${n}`, [field]: 't'.repeat(n) });
        expect((await post(path, body(max))).status).toBe(201);
        expectLimit(await post(path, body(max + 1)), field, max);
      }
    });
  });

  describe('list parameters', () => {
    let category: number;
    let tag: number;
    let venue: number;
    let organizer: number;
    beforeAll(async () => {
      category = (await post('/categories', { name: 'Listed category' })).body.id;
      tag = (await post('/tags', { name: 'Listed tag' })).body.id;
      venue = (await post('/venues', { venue: 'Listed venue' })).body.id;
      organizer = (await post('/organizers', { organizer: 'Listed organizer' })).body.id;
    });

    it('events: 100 items per list filter', async () => {
      const filters: Record<string, number> = { categories: category, tags: tag, venue, organizer };
      filters.include = venue;
      for (const [name, id] of Object.entries(filters)) {
        expect((await get(`/events?${name}=${ids(100, id).join(',')}`)).status).toBe(200);
        expectTooMany(await get(`/events?${name}=${ids(101, id).join(',')}`), name, 100);
      }
      const statuses = (n: number) => ids(n, 0).map(() => 'publish');
      const asEditor = (path: string) => get(path).set('Authorization', users.editor.header);
      expect((await asEditor(`/events?status=${statuses(100).join(',')}`)).status).toBe(200);
      expectTooMany(await asEditor(`/events?status=${statuses(101).join(',')}`), 'status', 100);
    });

    it('terms: 100 items in include and exclude', async () => {
      for (const name of ['include', 'exclude']) {
        expect((await get(`/categories?${name}=${ids(100, category).join(',')}`)).status).toBe(200);
        expectTooMany(await get(`/categories?${name}=${ids(101, category).join(',')}`), name, 100);
        expectTooMany(await get(`/tags?${name}[]=${ids(101, tag).join(`&${name}[]=`)}`), name, 100);
      }
    });

    it('search: 255 characters on every list', async () => {
      for (const path of ['/events', '/venues', '/organizers', '/categories', '/tags']) {
        expect((await get(`${path}?search=${'s'.repeat(255)}`)).status).toBeLessThan(500);
        expectLimit(await get(`${path}?search=${'s'.repeat(256)}`), 'search', 255);
      }
    });

    it('other list strings', async () => {
      expectLimit(await get(`/events?strict_dates=${'1'.repeat(256)}`), 'strict_dates', 255);
      expectLimit(await get(`/categories?slug=${'s'.repeat(201)}`), 'slug', 200);
      expectLimit(await get(`/tags?orderby=${'o'.repeat(256)}`), 'orderby', 255);
      expectTooMany(
        await get(
          `/venues?status=${ids(101, 0)
            .map(() => 'publish')
            .join(',')}`,
        ),
        'status',
        100,
      );
      expectLimit(await get(`/organizers?status=${'p'.repeat(21)}`), 'status', 20, 'rest_too_long');
    });
  });

  describe('limits are counted in characters: 4-byte characters at the maximum fit', () => {
    it('stores and reads back a title, description, password and address of emoji', async () => {
      const created = await post(
        '/events',
        event({
          title: EMOJI.repeat(1000),
          description: EMOJI.repeat(10_000),
          password: EMOJI.repeat(255),
          venue: { venue: EMOJI.repeat(1000), address: EMOJI.repeat(255) },
          cost: EMOJI.repeat(253) + '10',
        }),
      );
      expect(created.status).toBe(201);
      const [row] = await ds.query(
        'SELECT title, description, password, currency_symbol FROM events WHERE id = ?',
        [created.body.id],
      );
      expect(row.title).toBe(EMOJI.repeat(1000));
      expect(row.description).toBe(EMOJI.repeat(10_000));
      expect(row.password).toBe(EMOJI.repeat(255));
      expect(row.currency_symbol).toBe(EMOJI.repeat(253));
      const [venue] = await ds.query('SELECT title, address FROM venues WHERE id = ?', [
        created.body.venue.id,
      ]);
      expect(venue).toMatchObject({ title: EMOJI.repeat(1000), address: EMOJI.repeat(255) });
      // One more 4-byte character is over the limit.
      expectLimit(await post('/events', event({ title: EMOJI.repeat(1001) })), 'title', 1000);

      const term = await post('/categories', { name: EMOJI.repeat(200) });
      expect(term.status).toBe(201);
      expect(term.body.name).toBe(EMOJI.repeat(200));
    });
  });

  describe('the reason is localized', () => {
    it.each([
      ['hu', 'legfeljebb 255 karakter'],
      ['ro', 'cel mult 255 de caractere'],
    ])('%s', async (lang, text) => {
      const res = await http()
        .post(`/${lang}${BASE}/events`)
        .set('Authorization', users.editor.header)
        .send(event({ password: 'p'.repeat(312) }));
      expect(res.status).toBe(400);
      expect(res.body.data.params.password).toContain(text);
    });
  });
});
