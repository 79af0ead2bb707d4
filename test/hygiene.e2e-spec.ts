import { connect, type AddressInfo } from 'node:net';
import { basic } from './helpers/auth.js';
import { useTestApp } from './helpers/app-fixture.js';
import { wpError } from './helpers/wp-error.js';

/** Abuse and hygiene: throttled logins, body limit, headers, CORS, request logs. */
describe('hygiene (e2e)', () => {
  const logs: string[] = [];
  const { app, http, users } = useTestApp({ logSink: (line) => logs.push(line) });

  it('sends security headers and keeps the Swagger UI usable', async () => {
    const res = await http().get('/cal/events/v1').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-powered-by']).toBeUndefined();
    const ui = await http().get('/cal/events/v1/doc/ui').expect(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('answers CORS as CONTRACT §1 says, exposing the total headers', async () => {
    const res = await http()
      .get('/cal/events/v1/events')
      .set('Origin', 'https://site.example')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toContain('X-TEC-Total');
    const preflight = await http()
      .options('/cal/events/v1/events')
      .set('Origin', 'https://site.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
  });

  it('answers a body over the size limit with 413 in the WordPress shape', async () => {
    const res = await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ title: 'x'.repeat(1_100_000) }))
      .expect(413);
    expect(res.body).toEqual(
      wpError(413, 'rest_payload_too_large', 'The request body is too large.'),
    );
  });

  // Regressions found by test/fuzz.e2e-spec.ts.
  it('answers body errors in the language of the prefix (the parsers run after it)', async () => {
    const json = await http()
      .post('/hu/cal/events/v1/events')
      .set('Content-Type', 'application/json')
      .send('{"title": ')
      .expect(400);
    expect(json.body.code).toBe('rest_invalid_json');
    expect(json.body.message).toBe('Érvénytelen JSON-törzs érkezett.');
    const large = await http()
      .post('/ro/cal/events/v1/events')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ title: 'x'.repeat(1_100_000) }))
      .expect(413);
    expect(large.body.message).toBe('Corpul cererii este prea mare.');
  });

  it('answers a declared field holding more than 5,000 values as invalid before reading it', async () => {
    // Found by the fuzzer: 45,000 numbers in a declared string field cost a third of a second.
    const values = (n: number) => JSON.stringify({ venue: Array.from({ length: n }, () => 1) });
    const wide = await http()
      .post('/cal/events/v1/venues/10')
      .set('Content-Type', 'application/json')
      .send(values(45_000))
      .expect(400);
    expect(wide.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { venue: 'Invalid parameter.' } },
    });
    // At the bound the field is read, and its own type check answers.
    const atBound = await http()
      .post('/cal/events/v1/venues')
      .set('Content-Type', 'application/json')
      .send(values(5_000))
      .expect(400);
    expect(atBound.body.data.params.venue).toMatch(/string/);
  });

  it('answers JSON nested deeper than json_decode() reads as rest_invalid_json, not a 500', async () => {
    const nested = (depth: number) => `{"title":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const deep = await http()
      .post('/cal/events/v1/events')
      .set('Content-Type', 'application/json')
      .send(nested(100_000))
      .expect(400);
    expect(deep.body).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' },
    });
    // PHP's limit: 512 levels, the body object included.
    const limit = await http()
      .post('/cal/events/v1/events')
      .set('Content-Type', 'application/json')
      .send(nested(511))
      .expect(400);
    expect(limit.body.code).toBe('rest_missing_callback_param');
    const over = await http()
      .post('/cal/events/v1/events')
      .set('Content-Type', 'application/json')
      .send(nested(512))
      .expect(400);
    expect(over.body.code).toBe('rest_invalid_json');
  });

  it('answers requests the HTTP parser refuses in the error shape, not with an empty body', async () => {
    const tooLong = await raw(
      `GET /hu/cal/events/v1/events?search=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: cal.test\r\n\r\n`,
    );
    expect(tooLong.status).toBe(431);
    expect(tooLong.headers).toContain('content-type: application/json; charset=utf-8');
    expect(JSON.parse(tooLong.body)).toEqual(
      wpError(431, 'rest_bad_request', 'A kérés nem értelmezhető.'),
    );
    // The language follows the app's rules: a repeated `i18n_language` is a list, not `en`.
    const listed = await raw(
      'GET /ro/cal/events/v1/events?i18n_language=en&i18n_language[]=hu&\x01 HTTP/1.1\r\nHost: cal.test\r\n\r\n',
    );
    expect(JSON.parse(listed.body).message).toBe('Cererea nu a putut fi înțeleasă.');
    const badCharacter = await raw(
      'GET /cal/events/v1/events/\x01 HTTP/1.1\r\nHost: cal.test\r\n\r\n',
    );
    expect(badCharacter.status).toBe(400);
    expect(JSON.parse(badCharacter.body)).toEqual(
      wpError(400, 'rest_bad_request', 'The request could not be understood.'),
    );
  });

  /** Sends bytes as they are (no HTTP client would) and reads the answer until the socket closes. */
  async function raw(text: string): Promise<{ status: number; headers: string; body: string }> {
    const server = app().getHttpServer();
    if (!server.listening) await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.from(text, 'latin1')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    const [head, body = ''] = answer.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body };
  }

  it('logs one JSON line per request with a request id and never a credential', async () => {
    logs.length = 0;
    await http()
      .get('/cal/events/v1/events/123456?password=hunter2')
      .set('Authorization', users.editor.header)
      .set('X-Request-Id', 'req-abc.1')
      .expect(404)
      .expect('X-Request-Id', 'req-abc.1');
    await http()
      .post('/cal/events/v1/events')
      .set('Authorization', basic('nobody', 'guess-me'))
      .send({})
      .expect(401);
    const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      reqId: 'req-abc.1',
      method: 'GET',
      status: 404,
      user: 'editor',
    });
    expect(lines[0].url).toBe('/cal/events/v1/events/123456?password=%5Bredacted%5D');
    expect(typeof lines[1].reqId).toBe('string');
    const all = logs.join('\n');
    expect(all).not.toContain('hunter2');
    expect(all).not.toContain('guess-me');
    expect(all).not.toMatch(/Basic [A-Za-z0-9+/=]+/);
    expect(all).not.toMatch(/authorization/i);
  });

  it('never logs a secret query value, whatever the brackets or encoding of its name', async () => {
    logs.length = 0;
    await http().get('/cal/events/v1/events/123456?password[]=hunter3').expect(400);
    await http().get('/cal/events/v1/events?pass%77ord%5B0%5D=hunter4&a[Password]=hunter5');
    expect(logs).toHaveLength(2);
    const all = logs.join('\n');
    expect(all).not.toMatch(/hunter\d/);
    expect(JSON.parse(logs[0]).url).toBe(
      '/cal/events/v1/events/123456?password%5B%5D=%5Bredacted%5D',
    );
  });

  // More in test/auth/login-throttle.e2e-spec.ts.
  it('throttles repeated failed logins of one login from one client with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await http()
            .get('/cal/events/v1')
            .set('Authorization', basic('editor', `wrong-${i}`))
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(8);
    expect(statuses.at(-1)).toBe(429);
    const blocked = await http()
      .get('/cal/events/v1')
      .set('Authorization', users.editor.header)
      .expect(429);
    expect(blocked.body).toEqual(
      wpError(
        429,
        'rest_too_many_requests',
        'Too many requests. Please wait a moment and try again.',
      ),
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Anonymous reads are not limited by the login throttle.
    await http().get('/cal/events/v1').expect(200);
  });
});
