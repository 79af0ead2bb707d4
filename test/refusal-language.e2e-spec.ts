import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { closeApp, createTestApp } from './helpers/create-test-app.js';
import { until } from './helpers/until.js';

type Lang = 'hu' | 'ro';
const errors = (lang: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', 'i18n', lang, 'errors.json'), 'utf8')) as Record<
    string,
    string
  >;
const catalog = { en: errors('en'), hu: errors('hu'), ro: errors('ro') };

/**
 * Every way a request can be refused before a route reads it answers in the language of its URL
 * (CONTRACT §4, §5): the body parsers, a malformed URI, and what Node's HTTP parser refuses, in
 * the request line, the headers or the body, also when the bytes it failed in begin with the end
 * of the previous request's body. Each path is tried under /hu and /ro (the English text of the
 * same code would fail it). Found by test/fuzz.e2e-spec.ts, seed 42: "The request could not be
 * understood." on a /ro URL.
 */
describe('refusals before routing answer in the language of the URL (e2e)', () => {
  let app: NestExpressApplication;
  let port: number;
  const http = () => request(app.getHttpServer());
  /** The requests the server has read the head of, by URL. */
  const heads: string[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    const server = app.getHttpServer();
    // Express has taken the prefix off `url` by the time this listener runs.
    server.on('request', (req: IncomingMessage & { originalUrl?: string }) =>
      heads.push(req.originalUrl ?? req.url ?? ''),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => closeApp(app));

  const expectRefusal = (
    answer: { status: number; body: unknown },
    lang: Lang,
    status: number,
    code: string,
  ) => {
    expect(answer.status).toBe(status);
    const body = answer.body as { code: string; message: string; data: { status: number } };
    expect(body).toMatchObject({ code, message: catalog[lang][code], data: { status } });
    expect(catalog[lang][code]).not.toBe(catalog.en[code]);
  };

  const post = (lang: Lang, type: string) =>
    http().post(`/${lang}/cal/events/v1/events`).set('Content-Type', type);

  describe.each<Lang>(['hu', 'ro'])('under /%s', (lang) => {
    it('a malformed percent-encoding in the path', async () => {
      expectRefusal(
        await http().get(`/${lang}/cal/events/v1/events/%E0%A4`),
        lang,
        400,
        'rest_bad_request',
      );
      expectRefusal(
        await http().get(`/${lang}/cal/events/v1/categories/%`),
        lang,
        400,
        'rest_bad_request',
      );
    });

    it('malformed JSON, also under an upper-case content type', async () => {
      expectRefusal(
        await post(lang, 'application/json').send('{"title":'),
        lang,
        400,
        'rest_invalid_json',
      );
      expectRefusal(
        await post(lang, 'application/JSON').send('{"a":\x01}'),
        lang,
        400,
        'rest_invalid_json',
      );
    });

    it('a body over 1 MB, and a form of too many parameters', async () => {
      const big = `{"title":"${'x'.repeat(1_100_000)}"}`;
      expectRefusal(
        await post(lang, 'application/json').send(big),
        lang,
        413,
        'rest_payload_too_large',
      );
      const form = Array.from({ length: 1100 }, (_, i) => `a${i}=1`).join('&');
      expectRefusal(
        await post(lang, 'application/x-www-form-urlencoded').send(form),
        lang,
        413,
        'rest_payload_too_large',
      );
    });

    it('a charset or content encoding the parsers do not read, and a broken gzip body', async () => {
      expectRefusal(
        await post(lang, 'application/json; charset=latin2').send('{}'),
        lang,
        415,
        'rest_bad_request',
      );
      expectRefusal(
        await post(lang, 'application/x-www-form-urlencoded; charset=koi8-r').send('a=b'),
        lang,
        415,
        'rest_bad_request',
      );
      expectRefusal(
        await post(lang, 'application/json').set('Content-Encoding', 'br2').send('{}'),
        lang,
        415,
        'rest_bad_request',
      );
      const gzip = gzipSync('{"title":"x"}').subarray(0, 12);
      expectRefusal(
        await post(lang, 'application/json').set('Content-Encoding', 'gzip').send(gzip),
        lang,
        400,
        'rest_bad_request',
      );
    });

    it('a character HTTP forbids in the request line, and headers over 16 KB', async () => {
      expectRefusal(
        await raw([`GET /${lang}/cal/events/v1/events/\x7f HTTP/1.1\r\nHost: cal.test\r\n\r\n`]),
        lang,
        400,
        'rest_bad_request',
      );
      expectRefusal(
        await raw([
          `GET /${lang}/cal/events/v1/events HTTP/1.1\r\nHost: cal.test\r\nX-Long: ${'y'.repeat(20_000)}\r\n\r\n`,
        ]),
        lang,
        431,
        'rest_bad_request',
      );
    });

    it('a broken chunk after the head was read', async () => {
      const path = `/${lang}/cal/events/v1/events?chunk`;
      const answer = await raw([
        `POST ${path} HTTP/1.1\r\nHost: cal.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        // Only once the server has read the head: the broken chunk comes in a read of its own.
        () => until(() => heads.includes(path), 10_000, 'the head was read'),
        'zz\r\n{}\r\n0\r\n\r\n',
      ]);
      expectRefusal(answer, lang, 400, 'rest_bad_request');
    });

    it('a connection closed before the body had its Content-Length', async () => {
      const path = `/${lang}/cal/events/v1/events?short`;
      const answer = await raw(
        [
          `POST ${path} HTTP/1.1\r\nHost: cal.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title"`,
          () => until(() => heads.includes(path), 10_000, 'the head was read'),
        ],
        { halfClose: true },
      );
      expectRefusal(answer, lang, 400, 'rest_bad_request');
    });

    it("the next request's head, read with the end of the previous request's body", async () => {
      // The previous request is in the other language: the answer must be the refused one's.
      const other = lang === 'hu' ? 'ro' : 'hu';
      const first = `/${other}/cal/events/v1/events?first-${lang}`;
      const answer = await raw([
        `POST ${first} HTTP/1.1\r\nHost: cal.test\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"title"`,
        () => until(() => heads.includes(first), 10_000, 'the first head was read'),
        // One write, so one read: the first body's last bytes, then a head with a bad header.
        `:"x"}GET /${lang}/cal/events/v1/events HTTP/1.1\r\nHost: cal.test\r\nX-Bad: \x01\r\n\r\n`,
      ]);
      expectRefusal(answer, lang, 400, 'rest_bad_request');
    });
  });

  /**
   * Sends bytes as they are (no HTTP client would), in the pieces given (a function between two
   * pieces is awaited before the next is written), and reads the last answer on the connection
   * until the server closes it.
   */
  async function raw(
    parts: Array<string | (() => Promise<unknown>)>,
    options: { halfClose?: boolean } = {},
  ): Promise<{ status: number; body: unknown }> {
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket: Socket = connect(port, '127.0.0.1', () => {
        void (async () => {
          for (const part of parts) {
            if (typeof part === 'string') socket.write(Buffer.from(part, 'latin1'));
            else await part();
          }
          if (options.halfClose) socket.end();
        })().catch(reject);
      });
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    const last = text.lastIndexOf('HTTP/1.1 ');
    const [head, body = ''] = text.slice(last).split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
  }
});
