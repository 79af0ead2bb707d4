import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isMysql, resetDatabase } from '../helpers/database.js';
import { cli } from '../helpers/programs.js';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import {
  adminServerEnv,
  assertBuilt,
  CLI,
  ownDatabaseUrl,
  PROCESS_DEADLINE_MS,
  run,
  serveOnFreePort,
  sharedDatabaseUrl,
  stop,
} from '../helpers/spawn.js';
import { until } from '../helpers/until.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * OpenTelemetry tracing (CONTRACT §1 "OTEL_*", docs/operations.md "Tracing"): the
 * server, started as users start it, exports its spans over OTLP/HTTP to a collector (a local
 * receiver here): a span per request named by its route template, continuing the caller's
 * `traceparent`, with its database statements as children and its log lines carrying the trace
 * id; webhook deliveries and the importer's requests pass `traceparent` on.
 */
const API = '/cal/events/v1';
const ADMIN = { login: 'tracer', password: 'a long tracing password' };
/**
 * How long spans and deliveries may take to arrive (a deadline, polled): the exporter batches
 * spans (OTEL_BSP_SCHEDULE_DELAY), and a delivery waits for the dispatcher. A machine running the
 * suite twice at once took over 30 s for a first delivery that takes 0.3 s alone (17 s beside six
 * busy loops): as long as a process may take there.
 */
const ARRIVAL_MS = PROCESS_DEADLINE_MS;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const basic = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

describe('tracing (e2e)', () => {
  let collector: OtlpReceiver;
  let webhooks: WebhookReceiver;
  let port: number;
  let databaseUrl: string;
  let server: Awaited<ReturnType<typeof serveOnFreePort>>;
  const otel = () => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_SERVICE_NAME: 'cal-under-test',
    // Batches leave every 100 ms instead of every 5 s: the test polls less.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });

  beforeAll(async () => {
    assertBuilt();
    collector = await new OtlpReceiver().start();
    webhooks = await new WebhookReceiver().start();
    await resetDatabase();
    databaseUrl = sharedDatabaseUrl();
    server = await serveOnFreePort({
      DATABASE_URL: databaseUrl,
      ...adminServerEnv(ADMIN),
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
      WEBHOOK_POLL: '50ms',
      ...otel(),
    });
    port = server.port;
  });
  afterAll(async () => {
    await stop(server?.child);
    await collector?.stop();
    await webhooks?.stop();
  });

  const spansOf = async (traceId: string, done: (spans: ReceivedSpan[]) => boolean) => {
    await until(() => done(collector.inTrace(traceId)), ARRIVAL_MS, `the spans of ${traceId}`);
    return collector.inTrace(traceId);
  };

  it("continues the caller's traceparent in a span per request, with its statements as children and its log lines tied to it", async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const res = await fetch(`http://127.0.0.1:${port}${API}/events?per_page=3&search=nothing`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const spans = await spansOf(traceId, (s) => s.some((span) => span.kind === SPAN_KIND.server));
    const request = spans.find((s) => s.kind === SPAN_KIND.server)!;
    expect(request).toMatchObject({
      name: `GET ${API}/events`,
      parentSpanId: callerSpan,
      attributes: {
        'http.request.method': 'GET',
        'http.route': `${API}/events`,
        'http.response.status_code': 200,
        'url.path': `${API}/events`,
        'url.query': 'per_page=3&search=nothing',
        'http.request.id': requestId,
      },
      resource: { 'service.name': 'cal-under-test' },
    });
    // The statements the request ran, as its children, with their text but no values.
    const statements = spans.filter((s) => s.parentSpanId === request.spanId);
    expect(statements.length).toBeGreaterThan(0);
    const select = statements.find((s) => s.name === 'SELECT');
    expect(select).toMatchObject({
      kind: SPAN_KIND.client,
      attributes: {
        'db.operation.name': 'SELECT',
        'db.system.name': expect.stringMatching(/^(sqlite|mysql|mariadb)$/),
      },
    });
    expect(select!.attributes['db.query.text']).toMatch(/^\(?\s*SELECT/i);
    expect(statements.map((s) => String(s.attributes['db.query.text'])).join('\n')).not.toContain(
      'nothing',
    );

    // The request's log line names its trace and span.
    await until(() => server.output().stdout.includes(`"reqId":"${requestId}"`), ARRIVAL_MS);
    const line = server
      .output()
      .stdout.split('\n')
      .find((l) => l.includes(`"reqId":"${requestId}"`))!;
    expect(JSON.parse(line)).toMatchObject({
      reqId: requestId,
      trace_id: traceId,
      span_id: request.spanId,
      status: 200,
    });
    expect(collector.rejected).toEqual([]);
  });

  it('starts a trace of its own without a traceparent, named by the method when no route answers, and redacts secrets from the URL', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/no/such/route?access_token=s3cr3t`);
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    await until(
      () => collector.spans.some((s) => s.attributes['http.request.id'] === requestId),
      ARRIVAL_MS,
      'the span of the unrouted request',
    );
    const span = collector.spans.find((s) => s.attributes['http.request.id'] === requestId)!;
    expect(span).toMatchObject({
      name: 'GET',
      parentSpanId: '',
      attributes: { 'http.response.status_code': 404, 'url.path': '/no/such/route' },
    });
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.attributes['url.query']).toBe('access_token=%5Bredacted%5D');
  });

  it("records nothing of a request whose caller's traceparent says not sampled, but keeps its trace id in the logs", async () => {
    const unsampled = hex(16);
    const skipped = await fetch(`http://127.0.0.1:${port}${API}/events?per_page=2`, {
      headers: { traceparent: `00-${unsampled}-${hex(8)}-00` },
    });
    expect(skipped.status).toBe(200);
    const skippedId = skipped.headers.get('x-request-id');
    // A sampled request after it: the exporter sends spans in the order they ended, so once this
    // one's span has arrived, any span of the first would have too.
    const sampled = hex(16);
    await fetch(`http://127.0.0.1:${port}${API}/events?per_page=2`, {
      headers: { traceparent: `00-${sampled}-${hex(8)}-01` },
    });
    await spansOf(sampled, (s) => s.some((span) => span.kind === SPAN_KIND.server));
    expect(collector.inTrace(unsampled)).toEqual([]);
    await until(() => server.output().stdout.includes(`"reqId":"${skippedId}"`), ARRIVAL_MS);
    const line = server
      .output()
      .stdout.split('\n')
      .find((l) => l.includes(`"reqId":"${skippedId}"`))!;
    expect(JSON.parse(line)).toMatchObject({ trace_id: unsampled });
  });

  it(
    'sends traceparent with webhook deliveries, each attempt a client span of that trace',
    async () => {
      const subscription = await fetch(`http://127.0.0.1:${port}${API}/webhooks`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({ url: webhooks.url, events: ['event.created'] }),
      });
      expect(subscription.status).toBe(201);
      webhooks.secret = ((await subscription.json()) as { secret: string }).secret;
      const created = await fetch(`http://127.0.0.1:${port}${API}/events`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Traced',
          start_date: '2030-01-01 10:00:00',
          end_date: '2030-01-01 12:00:00',
        }),
      });
      expect([created.status, await created.text()]).toEqual([201, expect.any(String)]);
      await until(() => webhooks.received.length > 0, ARRIVAL_MS, 'the delivery');
      const delivery = webhooks.received[0];
      expect(delivery.verified).toBe(true);
      const traceparent = String(delivery.headers.traceparent);
      const [, traceId, spanId] =
        /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent) ?? [];
      expect(traceId).toBeDefined();
      const spans = await spansOf(traceId, (s) => s.some((span) => span.spanId === spanId));
      // A child of the request whose write it announces when sent at once, a trace of its own
      // when a later poll sends it: either way the receiver can follow it.
      const attempt = spans.find((span) => span.spanId === spanId);
      expect(attempt).toMatchObject({
        name: 'POST',
        kind: SPAN_KIND.client,
        spanId,
        attributes: {
          'http.request.method': 'POST',
          // Scheme, host and port: an incoming-webhook URL carries its credential in the path.
          'url.full': webhooks.url.replace(/\/hook$/, '/REDACTED'),
          'http.response.status_code': 200,
        },
      });
      expect(JSON.stringify(spans)).not.toContain('/hook');
    },
    2 * PROCESS_DEADLINE_MS,
  );

  it(
    'links every attempt of a delivery to the trace of the write it announces, a retry after a restart too',
    async () => {
      // A server of its own on a database of its own: it is stopped between the two attempts.
      const url = ownDatabaseUrl('links');
      await resetDatabase(url);
      const receiver = await new WebhookReceiver().start();
      // The first attempt fails; its retry, due 15 s later, is sent by the next server. The delay
      // is the first server's time to stop: under double load a 5 s delay let it send the retry
      // itself before its SIGTERM ended the dispatcher (two requests where the test expects one).
      receiver.answer = (n) => (n === 1 ? 503 : 200);
      const env = {
        DATABASE_URL: url,
        ...adminServerEnv(ADMIN),
        WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
        WEBHOOK_POLL: '50ms',
        WEBHOOK_RETRY_SCHEDULE: '15s',
        SHUTDOWN_DELAY_MS: '0',
        ...otel(),
      };
      const first = await serveOnFreePort(env);
      let second: Awaited<ReturnType<typeof serveOnFreePort>> | undefined;
      try {
        const { origin } = first;
        const subscription = await fetch(`${origin}${API}/webhooks`, {
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/json' },
          body: JSON.stringify({ url: receiver.url, events: ['event.created'] }),
        });
        expect(subscription.status).toBe(201);
        receiver.secret = ((await subscription.json()) as { secret: string }).secret;
        const traceId = hex(16);
        const created = await fetch(`${origin}${API}/events`, {
          method: 'POST',
          headers: {
            authorization: basic,
            'content-type': 'application/json',
            traceparent: `00-${traceId}-${hex(8)}-01`,
          },
          body: JSON.stringify({
            title: 'Linked',
            start_date: '2030-01-01 10:00:00',
            end_date: '2030-01-01 12:00:00',
          }),
        });
        expect(created.status).toBe(201);
        await until(() => receiver.requests.length === 1, ARRIVAL_MS, 'the first attempt');
        // Stopped before the retry is due: the spans it holds are sent as it stops.
        await stop(first.child);
        expect(receiver.requests).toHaveLength(1);
        second = await serveOnFreePort(env);
        await until(() => receiver.received.length === 1, ARRIVAL_MS, 'the retry');

        const request = (
          await spansOf(traceId, (s) => s.some((span) => span.kind === SPAN_KIND.server))
        ).find((span) => span.kind === SPAN_KIND.server)!;
        expect(request).toMatchObject({ kind: SPAN_KIND.server, name: `POST ${API}/events` });
        const attempts = () =>
          collector.spans.filter(
            (s) =>
              s.kind === SPAN_KIND.client &&
              s.attributes['url.full'] === receiver.url.replace(/\/hook$/, '/REDACTED') &&
              s.links.some((l) => l.traceId === traceId && l.spanId === request.spanId),
          );
        await until(() => attempts().length === 2, ARRIVAL_MS, 'the spans of both attempts');
        const [failed, retried] = attempts().sort(
          (a, b) =>
            Number(a.attributes['cal.webhook.attempt']) -
            Number(b.attributes['cal.webhook.attempt']),
        );
        expect(failed.attributes).toMatchObject({
          'cal.webhook.attempt': 1,
          'http.response.status_code': 503,
        });
        expect(retried.attributes).toMatchObject({
          'cal.webhook.attempt': 2,
          'cal.webhook.delivery_id': failed.attributes['cal.webhook.delivery_id'],
          'http.response.status_code': 200,
        });
        // Each attempt is a trace of its own, which the receiver continues; the link leads back.
        for (const span of [failed, retried]) {
          expect(span.traceId).not.toBe(traceId);
          expect(span.parentSpanId).toBe('');
        }
        expect(String(receiver.received[0].headers.traceparent)).toContain(
          `-${retried.traceId}-${retried.spanId}-`,
        );
      } finally {
        await stop(first.child);
        await stop(second?.child);
        await receiver.stop();
      }
    },
    3 * PROCESS_DEADLINE_MS,
  );

  it(
    "traces an import command: one trace with the source's requests (traceparent passed on) and the statements",
    async () => {
      const calendar = readFileSync(join(__dirname, '..', 'fixtures/ics/google.ics'));
      const seen: IncomingHttpHeaders[] = [];
      const source = createServer((req, res) => {
        seen.push(req.headers);
        res.writeHead(200, { 'Content-Type': 'text/calendar' }).end(calendar);
      });
      await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
      // On SQLite a database of its own (a fresh file; on MySQL/MariaDB the server's): the
      // server's webhook dispatcher, polling every 50 ms, would keep the shared file locked
      // against a second process's writes.
      const importDatabase = sharedDatabaseUrl();
      if (!isMysql()) {
        const user = ['user:create', ADMIN.login, '--role', 'editor', '--password', ADMIN.password];
        expect((await cli(user, { DATABASE_URL: importDatabase })).code).toBe(0);
      }
      try {
        const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/cal.ics`;
        const imported = await run(
          CLI,
          [
            'import:ics',
            url,
            '--author',
            ADMIN.login,
            '--from',
            '2027-01-01',
            '--to',
            '2028-01-01',
            // Not announced: the server's subscription above is not what this test is about.
            '--quiet-webhooks',
          ],
          { DATABASE_URL: importDatabase, ...otel() },
          // A command starting Node, Nest and the SDK has taken 80 s on a loaded two-core machine.
          2 * PROCESS_DEADLINE_MS,
        );
        expect([imported.code, imported.stderr]).toEqual([0, expect.any(String)]);
        expect(seen).toHaveLength(1);
        const [, traceId, spanId] =
          /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(seen[0].traceparent)) ?? [];
        expect(traceId).toBeDefined();
        // The command flushes its spans before it exits: they are there already, or about to be.
        const spans = await spansOf(traceId, (s) => s.some((span) => span.parentSpanId === ''));
        const root = spans.find((s) => s.parentSpanId === '')!;
        expect(root).toMatchObject({ name: 'cli import:ics', kind: SPAN_KIND.internal });
        expect(spans.find((s) => s.spanId === spanId)).toMatchObject({
          kind: SPAN_KIND.client,
          parentSpanId: root.spanId,
          attributes: {
            'http.request.method': 'GET',
            'url.full': url.replace(/\/cal\.ics$/, '/REDACTED'),
          },
        });
        expect(JSON.stringify(spans)).not.toContain('cal.ics');
        expect(
          spans.some((s) => s.name === 'INSERT' && s.attributes['db.query.text'] !== undefined),
        ).toBe(true);
      } finally {
        await new Promise((resolve) => source.close(resolve));
      }
    },
    3 * PROCESS_DEADLINE_MS,
  );
});
