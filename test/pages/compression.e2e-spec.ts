import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import zlib, { gunzipSync } from 'node:zlib';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { listenLocally } from '../helpers/local-app.js';
import { eventPublisher } from '../helpers/public-pages.js';
import { countQueries } from '../helpers/query-counter.js';

/**
 * Pages sent compressed (CONTRACT §7): gzip to a client whose Accept-Encoding takes it, the same
 * bytes once decompressed, `Vary: Accept-Encoding`, an ETag and a 304 per variant; HEAD, small
 * and non-HTML answers as they were. Read as raw bytes (node:http does not decompress), on a
 * server that keeps pages (the response cache) and on one that computes each.
 */

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The strong ETag Express gives these bytes (the `etag` package's form). */
const etagOf = (bytes: Buffer) =>
  `"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').slice(0, 27)}"`;

describe.each([
  ['kept by the response cache', '60000'],
  ['computed for each request', '0'],
])('compressed pages, %s (e2e)', (_label, ttl) => {
  const served = ttl !== '0';
  let app: NestExpressApplication;
  let users: RoleUsers;
  let origin: string;
  const { made, post } = eventPublisher(
    () => app,
    () => users.editor.header,
  );

  /** A request as sent, its answer's bytes as received. */
  const raw = (
    path: string,
    headers: Record<string, string> = {},
    method = 'GET',
    form?: string,
  ): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${origin}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(form);
    });
  const gzip = { 'accept-encoding': 'gzip, deflate, br' };
  const identity = { 'accept-encoding': 'identity' };

  const month = '/events/month/2030-03/';
  const pages = () => [
    new URL(made.concert.url as string).pathname,
    month,
    '/events/week/2030-03-10/',
    '/hu/events/list/?tribe-bar-date=2030-03-01',
    new URL(made.concert.venue.url as string).pathname,
    '/',
  ];

  beforeAll(async () => {
    app = await createTestApp({ env: { RESPONSE_CACHE_TTL_MS: ttl } });
    users = await createRoleUsers(app);
    for (let day = 10; day < 20; day++) {
      await post(day === 10 ? 'concert' : `concert${day}`, {
        title: `Spring concert ${day}`,
        description: `<p>${'An evening of chamber music by the river. '.repeat(8)}</p>`,
        start_date: `2030-03-${day} 19:00:00`,
        end_date: `2030-03-${day} 21:00:00`,
        venue: day === 10 ? { venue: 'River Hall', city: 'Cluj' } : made.concert.venue.id,
        categories: ['Music'],
      });
    }
    await post('concert_hu', {
      title: 'Tavaszi koncert',
      start_date: '2030-03-10 19:00:00',
      end_date: '2030-03-10 21:00:00',
      slug: 'tavaszi-koncert',
      translation_of: made.concert.id,
      i18n_language: 'hu',
    });
    await post('protected', {
      title: 'Members evening',
      password: 'pw',
      start_date: '2030-03-20 10:00:00',
      end_date: '2030-03-20 11:00:00',
      description: `<p>${'Members only. '.repeat(40)}</p>`,
    });
    origin = await listenLocally(app);
  });
  afterAll(() => closeApp(app));

  it('sends each page gzip-compressed to a client that takes gzip: the plain bytes once decompressed', async () => {
    for (const path of pages()) {
      const plain = await raw(path, identity);
      const packed = await raw(path, gzip);
      expect([path, plain.status, packed.status]).toEqual([path, 200, 200]);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(packed.headers['content-encoding']).toBe('gzip');
      expect(packed.headers['content-type']).toBe('text/html; charset=utf-8');
      for (const res of [plain, packed]) {
        expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/);
        expect(res.headers['cache-control']).toBe('public, no-cache');
        expect(Number(res.headers['content-length'])).toBe(res.body.length);
      }
      expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
      expect(packed.body.length).toBeLessThan(plain.body.length / 2);
      // Each variant's strong ETag: the plain bytes', and the same with `-gzip` for the other.
      expect(plain.headers.etag).toBe(etagOf(plain.body));
      expect(packed.headers.etag).toBe(etagOf(plain.body).replace(/"$/, '-gzip"'));
    }
    // The month's 10 events, their JSON-LD and the grid: most of it repeats.
    const [plain, packed] = [await raw(month, identity), await raw(month, gzip)];
    expect(packed.body.length).toBeLessThan(plain.body.length / 4);
  });

  it('follows Accept-Encoding: q=0, identity and `*` as RFC 9110 reads them', async () => {
    const cases: Array<[string | undefined, boolean]> = [
      [undefined, false],
      ['', false],
      ['identity', false],
      ['gzip;q=0', false],
      ['gzip;q=0, identity', false],
      ['gzip;q=0.5, identity', false],
      ['br', false],
      ['deflate, *;q=0', false],
      ['identity;q=0', false],
      ['gzip', true],
      ['GZIP', true],
      ['*', true],
      ['deflate, gzip;q=0.8', true],
      ['identity;q=0.5, gzip', true],
    ];
    const plain = await raw(month, identity);
    for (const [accept, compressed] of cases) {
      const res = await raw(month, accept === undefined ? {} : { 'accept-encoding': accept });
      expect([accept, res.status, res.headers['content-encoding']]).toEqual([
        accept,
        200,
        compressed ? 'gzip' : undefined,
      ]);
      expect((compressed ? gunzipSync(res.body) : res.body).equals(plain.body)).toBe(true);
      expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/);
    }
  });

  it('answers 304 to each variant for its own ETag only', async () => {
    const path = new URL(made.concert.url as string).pathname;
    const plain = await raw(path, identity);
    const packed = await raw(path, gzip);
    const plainTag = plain.headers.etag!;
    const packedTag = packed.headers.etag!;
    expect(packedTag).not.toBe(plainTag);

    const fresh = await raw(path, { ...gzip, 'if-none-match': packedTag });
    expect([fresh.status, fresh.body.length, fresh.headers.etag]).toEqual([304, 0, packedTag]);
    // No representation metadata on a 304 (RFC 9110 §15.4.5), Vary kept.
    expect(fresh.headers['content-encoding']).toBeUndefined();
    expect(fresh.headers['content-type']).toBeUndefined();
    expect(fresh.headers.vary).toMatch(/\bAccept-Encoding\b/);
    const freshPlain = await raw(path, { ...identity, 'if-none-match': plainTag });
    expect([freshPlain.status, freshPlain.body.length, freshPlain.headers.etag]).toEqual([
      304,
      0,
      plainTag,
    ]);
    // Either tag in a list names the copy the client holds.
    const listed = await raw(path, { ...gzip, 'if-none-match': `${plainTag}, ${packedTag}` });
    expect(listed.status).toBe(304);

    // The other variant's tag is not this one's: the whole answer, in this encoding.
    const crossed = await raw(path, { ...gzip, 'if-none-match': plainTag });
    expect([crossed.status, crossed.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gunzipSync(crossed.body).equals(plain.body)).toBe(true);
    const crossedPlain = await raw(path, { ...identity, 'if-none-match': packedTag });
    expect([crossedPlain.status, crossedPlain.headers['content-encoding']]).toEqual([
      200,
      undefined,
    ]);
    expect(crossedPlain.body.equals(plain.body)).toBe(true);
  });

  it('answers HEAD with the plain answer’s headers, and leaves small and non-HTML answers as they are', async () => {
    const plain = await raw(month, identity);
    const head = await raw(month, gzip, 'HEAD');
    expect([head.status, head.body.length, head.headers['content-encoding']]).toEqual([
      200,
      0,
      undefined,
    ]);
    expect(head.headers['content-length']).toBe(String(plain.body.length));
    expect(head.headers.etag).toBe(plain.headers.etag);

    for (const path of ['/feed/', '/cal/events/v1/events', '/assets/cal.css', '/embed.js']) {
      const res = await raw(path, gzip);
      expect([path, res.status, res.headers['content-encoding']]).toEqual([path, 200, undefined]);
    }
    // A redirect (a slug of another language's event, to its page) has no body to compress.
    const redirect = await raw('/event/tavaszi-koncert/', gzip);
    expect([redirect.status, redirect.headers['content-encoding']]).toEqual([302, undefined]);
  });

  it('compresses the pages that are never kept: a 404 page, a page a password opened', async () => {
    const missing = await raw('/event/no-such-event/', gzip);
    const missingPlain = await raw('/event/no-such-event/', identity);
    expect([missing.status, missing.headers['content-encoding']]).toEqual([404, 'gzip']);
    expect(gunzipSync(missing.body).equals(missingPlain.body)).toBe(true);

    const path = new URL(made.protected.url as string).pathname;
    const form = 'post_password=pw';
    const type = { 'content-type': 'application/x-www-form-urlencoded' };
    const opened = await raw(path, { ...gzip, ...type }, 'POST', form);
    const openedPlain = await raw(path, { ...identity, ...type }, 'POST', form);
    expect([opened.status, opened.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(opened.headers['cache-control']).toBe('private, no-store');
    expect(opened.headers.vary).toMatch(/\bAccept-Encoding\b/);
    expect(openedPlain.headers.vary).toMatch(/\bAccept-Encoding\b/);
    const text = gunzipSync(opened.body).toString();
    expect(text).toContain('Members only.');
    expect(text).toBe(openedPlain.body.toString());
  });

  it(
    served
      ? 'compresses a kept page once, keeps that copy alone, and serves both variants from it'
      : 'compresses a computed page for each request that takes gzip',
    async () => {
      const path = `/events/month/2030-03/?venue=${String(made.concert.venue.id)}`;
      const spy = vi.spyOn(zlib, 'gzipSync');
      // The server's import of gzipSync is the ESM binding of node:zlib: synced, it is the spy.
      syncBuiltinESMExports();
      try {
        const first = await raw(path, identity);
        // A kept page is compressed when it is stored, whichever encoding its request took.
        expect(spy).toHaveBeenCalledTimes(served ? 1 : 0);
        let later: Raw[] = [];
        const queries = await countQueries(app, async () => {
          later = [await raw(path, gzip), await raw(path, identity), await raw(path, gzip)];
        });
        if (served) expect(queries).toBe(0);
        else expect(queries).toBeGreaterThan(0);
        expect(spy).toHaveBeenCalledTimes(served ? 1 : 2);
        // Kept: compressed once, at zlib's default level; sent once: at the quick level.
        const levels = spy.mock.calls.map(([, options]) => (options as { level?: number }).level);
        expect(levels).toEqual(served ? [6] : [1, 1]);
        expect(later.map((res) => res.headers['content-encoding'])).toEqual([
          'gzip',
          undefined,
          'gzip',
        ]);
        expect(gunzipSync(later[0].body).equals(first.body)).toBe(true);
        expect(later[1].body.equals(first.body)).toBe(true);
        expect(later[2].body.equals(later[0].body)).toBe(true);
      } finally {
        spy.mockRestore();
        syncBuiltinESMExports();
      }
    },
  );
});
