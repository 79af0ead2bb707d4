import * as fc from 'fast-check';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SaxesParser } from 'saxes';
import request from 'supertest';
import { createRoleUsers } from '../helpers/auth.js';
import { leastThreadCpuMs } from '../helpers/cpu.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';

/**
 * The public pages and RSS feeds under generated hostile addresses: slugs and category paths of
 * every shape (percent-encodings, long repetitive text, markup, control bytes, thousands of
 * segments), page numbers and passwords of every kind, in every language. Each answer:
 *  - is never a 5xx;
 *  - is HTML, RSS (well-formed XML) or CSS, or, when refused before a page route answers (the
 *    request limits, an address no route takes), the service's error body;
 *  - takes at most MAX_SERVER_MS of this thread's CPU (the app runs in it, requests go one at a
 *    time), as the API's fuzz campaign bounds its routes; not the process's, which also counts
 *    the collector's helpers and the webhook dispatcher's thread. Every probe is a read (or a
 *    password form), so one over the bound is sent twice more and the least counts.
 * FUZZ_RUNS and FUZZ_SEED work as for test/fuzz.e2e-spec.ts.
 */
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS) || 150);
const SEED = Number(process.env.FUZZ_SEED) || Date.now() % 2 ** 31;
const MAX_SERVER_MS = 200;

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .tuple(
      fc.constantFrom('-', '%', '%2F', '%00', '<div', '&#', '..', 'é', '%E9', '\u0000'),
      fc.integer({ min: 1, max: 4000 }),
    )
    .map(([piece, n]) => piece.repeat(n)),
  fc.constantFrom('', '.', '..', 'feed', 'page', 'category', '%', '%zz', '🙂', 'a'.repeat(3000)),
);
/** One path segment as a client could send it: encoded, or raw where the URL allows it. */
const segment = hostileText.map((text) => encodeURIComponent(text).slice(0, 8000));
const pageNumber = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000_000 }).map(String),
  fc.constantFrom('0', '1e9', 'NaN', '-1', '2abc', '9'.repeat(400), ''),
);
const language = fc.constantFrom('', '/hu', '/ro', '/en');

type Probe = { method: 'GET' | 'POST'; path: string; body?: string };
const probe: fc.Arbitrary<Probe> = fc.oneof(
  fc
    .tuple(language, segment)
    .map(([l, s]) => ({ method: 'GET' as const, path: `${l}/event/${s}/` })),
  fc
    .tuple(language, segment, pageNumber)
    .map(([l, s, p]) => ({ method: 'GET' as const, path: `${l}/venue/${s}/?page=${p}` })),
  fc
    .tuple(language, segment)
    .map(([l, s]) => ({ method: 'GET' as const, path: `${l}/organizer/${s}/` })),
  fc
    .tuple(language, segment)
    .map(([l, s]) => ({ method: 'GET' as const, path: `${l}/tag/${s}/feed/` })),
  fc
    .tuple(language, segment, pageNumber)
    .map(([l, s, p]) => ({ method: 'GET' as const, path: `${l}/tag/${s}/?paged=${p}` })),
  fc
    .tuple(language, fc.array(segment, { minLength: 1, maxLength: 12 }), fc.boolean())
    .map(([l, segs, feed]) => ({
      method: 'GET' as const,
      path: `${l}/events/category/${segs.join('/')}/${feed ? 'feed/' : ''}`,
    })),
  fc.tuple(language, fc.integer({ min: 1, max: 40 })).map(([l, n]) => ({
    method: 'GET' as const,
    path: `${l}/events/category/${'a/'.repeat(n * 100)}`,
  })),
  // The calendar views (issue 50): views' tails, nesting, embeds and filters of every shape.
  fc
    .tuple(
      language,
      fc.constantFrom('', '/embed'),
      fc.array(
        fc.oneof(
          segment,
          fc.constantFrom(
            'month',
            'week',
            'today',
            'list',
            'tag',
            'category',
            '2030-03',
            '2030-03-14',
            '0000-00-00',
            '9999-12-31',
          ),
        ),
        { maxLength: 6 },
      ),
      fc.record(
        {
          venue: hostileText,
          organizer: hostileText,
          search: hostileText,
          'tribe-bar-date': hostileText,
          page: pageNumber,
        },
        { requiredKeys: [] },
      ),
    )
    .map(([l, embed, segs, query]) => ({
      method: 'GET' as const,
      path: `${l}${embed}/events/${segs.join('/')}${segs.length ? '/' : ''}?${new URLSearchParams(query as Record<string, string>).toString().slice(0, 8000)}`,
    })),
  fc
    .tuple(language, pageNumber)
    .map(([l, p]) => ({ method: 'GET' as const, path: `${l}/?paged=${p}` })),
  fc
    .tuple(language, pageNumber)
    .map(([l, p]) => ({ method: 'GET' as const, path: `${l}/?post_type=cal_events&p=${p}` })),
  fc.tuple(language).map(([l]) => ({ method: 'GET' as const, path: `${l}/feed/` })),
  fc
    .tuple(language, fc.constantFrom('protected', 'open'), hostileText)
    .map(([l, slug, password]) => ({
      method: 'POST' as const,
      path: `${l}/event/${slug}/`,
      body: `post_password=${encodeURIComponent(password)}`,
    })),
);

/** The WordPress error body (`{code, message, data: {status}}`) with the answer's status. */
function isErrorBody(text: string, status: number): boolean {
  try {
    const body = JSON.parse(text) as {
      code?: unknown;
      message?: unknown;
      data?: { status?: unknown };
    };
    return (
      typeof body.code === 'string' &&
      typeof body.message === 'string' &&
      body.data?.status === status
    );
  } catch {
    return false;
  }
}

describe('fuzz: public pages and RSS feeds (e2e)', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createTestApp();
    const users = await createRoleUsers(app);
    const long = '<p>' + 'Lorem ipsum &amp; <em>dolor</em> '.repeat(300) + '</p>';
    const events = [
      { title: 'Open', slug: 'open', description: long, venue: { venue: 'Hall', city: 'Pécs' } },
      { title: 'Protected', slug: 'protected', password: 'sesame', description: long },
    ];
    for (const event of events) {
      await request(app.getHttpServer())
        .post('/cal/events/v1/events')
        .set('Authorization', users.administrator.header)
        .send({
          ...event,
          start_date: '2099-06-01 10:00:00',
          end_date: '2099-06-01 12:00:00',
          categories: ['Music'],
          tags: ['jazz'],
        })
        .expect(201);
    }
  });
  afterAll(() => closeApp(app));

  it(`answers ${RUNS} generated hostile page and feed requests without a 5xx, in their formats, within ${MAX_SERVER_MS} ms of CPU`, async () => {
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(probe, async ({ method, path, body }) => {
        const send = () => {
          const req =
            method === 'GET'
              ? request(app.getHttpServer()).get(path)
              : request(app.getHttpServer())
                  .post(path)
                  .set('Content-Type', 'application/x-www-form-urlencoded')
                  .send(body);
          return req.buffer(true).parse((r, done) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
          });
        };
        const { value: res, ms } = await leastThreadCpuMs(send, MAX_SERVER_MS);
        const type = res.headers['content-type'] ?? '';
        const shown = `${method} ${path.slice(0, 160)}${path.length > 160 ? '…' : ''}`;
        if (res.status >= 500) problems.push(`${shown}: ${res.status}`);
        if (ms > MAX_SERVER_MS) problems.push(`${shown}: ${ms.toFixed(0)} ms of CPU`);
        const page = /^(text\/html|application\/rss\+xml|text\/css)/.test(type);
        if (res.status < 300 && !page) problems.push(`${shown}: ${res.status} answered ${type}`);
        // Refused before a page route answers (the request limits, an address no route takes):
        // the service's error body, as on every other address.
        if (res.status >= 400 && !page && !isErrorBody(res.body as string, res.status))
          problems.push(`${shown}: ${res.status} answered ${type || 'no content type'}`);
        if (res.status === 200 && type.startsWith('application/rss+xml')) {
          try {
            new SaxesParser().write(res.body as string).close();
          } catch (error) {
            problems.push(`${shown}: RSS not well-formed: ${String(error)}`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    if (problems.length) console.log(`fuzz-pages: seed ${SEED}`);
    expect(problems).toEqual([]);
  });
});
