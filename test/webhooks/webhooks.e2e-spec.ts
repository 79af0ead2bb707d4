import { DataSource } from 'typeorm';
import { TrashPurger } from '../../src/posts/purge-trash.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { DeliveriesRepository } from '../../src/webhooks/deliveries.repository.js';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { systemResolver } from '../../src/webhooks/target-policy.js';
import { WebhooksService } from '../../src/webhooks/webhooks.service.js';
import { until } from '../helpers/until.js';
import { Receivers, type Received } from '../helpers/webhook-receiver.js';
import { useTestApp } from '../helpers/app-fixture.js';

const API = '/cal/events/v1';

/**
 * Webhooks by the Standard Webhooks specification (CONTRACT "Webhooks"), with real receivers on
 * loopback (allowed by WEBHOOK_ALLOWED_TARGETS) that verify every signature with the reference
 * library `standardwebhooks`.
 */
describe('webhooks (e2e)', () => {
  const receivers = new Receivers(
    () => app(),
    () => users.administrator.header,
  );
  // Registered first, so run last (hooks run as a stack): once the app is closed.
  afterAll(() => receivers.stop());
  const { app, http, users } = useTestApp({
    env: {
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '20ms,20ms,20ms,20ms',
      WEBHOOK_POLL: '50ms',
      WEBHOOK_TIMEOUT: '3s',
    },
  });
  const admin = () => ({ Authorization: users.administrator.header });
  /** Waits, with a deadline, until subscription `id` reads with `status`. */
  const untilStatus = (id: number, status: 'active' | 'failing', what: string) =>
    until(
      async () => (await http().get(`${API}/webhooks/${id}`).set(admin())).body.status === status,
      20_000,
      what,
    );
  /** A receiver answering `status` to a subscription to tag.created, failed by creating `tag`. */
  const failedSubscription = async (status: number, tag: string) => {
    const r = await receivers.start();
    r.answer = () => status;
    const sub = await receivers.subscribe(r, { events: ['tag.created'] });
    await http().post(`${API}/tags`).set(admin()).send({ name: tag }).expect(201);
    await untilStatus(sub.id, 'failing', `the subscription answered with ${status} to fail`);
    return { r, sub };
  };

  describe('subscriptions', () => {
    it('are for administrators only: 401 anonymous, 403 for other roles, after validation', async () => {
      const body = { url: 'https://hooks.example.org/in', events: ['*'] };
      await http()
        .post(`${API}/webhooks`)
        .send({ events: ['*'] })
        .expect(400);
      const anonymous = await http().post(`${API}/webhooks`).send(body).expect(401);
      expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
      for (const role of ['editor', 'author', 'contributor', 'subscriber'] as const) {
        await http().get(`${API}/webhooks`).set({ Authorization: users[role].header }).expect(403);
        await http()
          .post(`${API}/webhooks`)
          .set({ Authorization: users[role].header })
          .send(body)
          .expect(403);
      }
      await http().get(`${API}/webhooks`).expect(401);
    });

    it('validate the url, the event types and the language, with localized reasons', async () => {
      const post = (body: object, prefix = '') =>
        http().post(`${prefix}${API}/webhooks`).set(admin()).send(body);
      const missing = await post({ url: 'https://a.example.org/' }).expect(400);
      expect(missing.body).toMatchObject({
        code: 'rest_missing_callback_param',
        data: { params: { events: expect.any(String) } },
      });
      const types = await post({ url: 'https://a.example.org/', events: ['event.exploded'] });
      expect(types.status).toBe(400);
      expect(types.body.data.params.events).toMatch(/event types/);
      await post({ url: 'https://a.example.org/', events: [] }).expect(400);
      await post({ url: 'https://a.example.org/', events: ['*'], language: 'de' }).expect(400);
      await post({ url: 'x'.repeat(3000), events: ['*'] }).expect(400);
      const http1 = await post({ url: 'http://hooks.example.org/', events: ['*'] }).expect(400);
      expect(http1.body.data.params.url).toMatch(/https/);
      for (const url of [
        'https://10.0.0.7/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/hook',
        'https://127.0.0.2/hook',
      ]) {
        const res = await post({ url, events: ['*'] });
        expect([url, res.status]).toEqual([url, 400]);
        expect(res.body.data.params.url).toMatch(/local network|this machine/);
      }
      const hu = await post({ url: 'https://10.0.0.7/hook', events: ['*'] }, '/hu').expect(400);
      expect(hu.body.data.params.url).toMatch(/helyi hálózat/);
      const ro = await post({ url: 'ftp://a.example.org/', events: ['*'] }, '/ro').expect(400);
      expect(ro.body.data.params.url).toMatch(/adresă absolută/);
    });

    it('are created with a secret shown once, listed, read, changed, rotated and deleted', async () => {
      const r = await receivers.start();
      const created = await http()
        .post(`${API}/webhooks`)
        .set(admin())
        .send({ url: r.url, events: ['event.created', 'event.created'], language: 'hu' })
        .expect(201);
      expect(created.body).toMatchObject({
        url: r.url,
        events: ['event.created'],
        language: 'hu',
        include_private: false,
        active: true,
        status: 'active',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const id = created.body.id as number;
      const read = await http().get(`${API}/webhooks/${id}`).set(admin()).expect(200);
      expect(read.body.secret).toBeUndefined();
      const list = await http().get(`${API}/webhooks`).set(admin()).expect(200);
      expect(list.body.webhooks.map((w: { id: number }) => w.id)).toContain(id);
      expect(JSON.stringify(list.body)).not.toContain('whsec_');
      for (const method of ['post', 'put', 'patch'] as const) {
        const agent = http();
        const changed = await agent[method](`${API}/webhooks/${id}`)
          .set(admin())
          .send({ active: false, language: '' })
          .expect(200);
        expect(changed.body).toMatchObject({ active: false, status: 'paused', language: null });
      }
      const rotated = await http()
        .post(`${API}/webhooks/${id}/rotate-secret`)
        .set(admin())
        .expect(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(created.body.secret);
      expect(Date.parse(rotated.body.previous_secret_expires)).toBeGreaterThan(Date.now());
      await http().get(`${API}/webhooks/${id}/deliveries`).set(admin()).expect(200);
      await http().delete(`${API}/webhooks/${id}`).set(admin()).expect(200);
      const gone = await http().get(`${API}/webhooks/${id}`).set(admin()).expect(404);
      expect(gone.body.code).toBe('webhook-not-found');
      await http().delete(`${API}/webhooks/${id}`).set(admin()).expect(404);
      await http().get(`${API}/webhooks/abc`).set(admin()).expect(404);
    });

    it('are not served under the plugin namespace, nor documented there', async () => {
      const res = await http().get('/wp-json/tribe/events/v1/webhooks').set(admin()).expect(404);
      expect(res.body.code).toBe('rest_no_route');
      await http().get('/wp-json/cal/events/v1/webhooks').set(admin()).expect(200);
      const plugin = await http().get('/wp-json/tribe/events/v1/doc').expect(200);
      expect(Object.keys(plugin.body.paths).some((p) => p.startsWith('/webhooks'))).toBe(false);
      const ours = await http().get(`${API}/doc`).expect(200);
      expect(ours.body.paths['/webhooks/{id}/deliveries/{delivery}/replay']).toBeDefined();
    });
  });

  describe('deliveries', () => {
    const types = (list: Received[]) => list.map((r) => r.type);

    it('announce every kind × action once per change, in order per record, signed', async () => {
      const all = await receivers.start();
      const pub = await receivers.start();
      const everything = await receivers.subscribe(all, { events: ['*'], include_private: true });
      const publicSub = await receivers.subscribe(pub, { events: ['*'] });

      const ids: Record<string, number> = {};
      const write = async (method: 'post' | 'delete', path: string, body?: object) => {
        const res = await http()[method](`${API}${path}`).set(admin()).send(body);
        expect([path, res.status]).toEqual([
          path,
          method === 'post' && !path.match(/\/\d+$/) ? 201 : 200,
        ]);
        return res.body as { id: number };
      };
      const dates = { start_date: '2031-05-01 10:00', end_date: '2031-05-01 12:00' };
      const posts = [
        ['event', 'events', { title: 'Hook event', ...dates }],
        ['venue', 'venues', { venue: 'Hook hall' }],
        ['organizer', 'organizers', { organizer: 'Hook org' }],
      ] as const;
      // A message carries its record as the fan-out finds it, soon after the commit: the event's
      // draft and published payloads are looked at below, so each step waits for its message
      // before the next change (a loaded machine may otherwise fan out after the trash).
      const heard = (sub: typeof all, kind: string, n: number, what: string) =>
        kind === 'event'
          ? until(() => sub.of(kind, ids[kind]).length >= n, 20_000, what)
          : Promise.resolve();
      for (const [kind, path, body] of posts) {
        ids[kind] = (await write('post', `/${path}`, { ...body, status: 'draft' })).id;
        await heard(all, kind, 1, 'the draft event at the private subscription');
        await write('post', `/${path}/${ids[kind]}`, { status: 'publish' });
        await heard(pub, kind, 1, 'the published event at the public subscription');
        await write('post', `/${path}/${ids[kind]}`, { description: 'Changed' });
        await write('delete', `/${path}/${ids[kind]}`);
      }
      for (const [kind, path] of [
        ['category', 'categories'],
        ['tag', 'tags'],
      ] as const) {
        ids[kind] = (await write('post', `/${path}`, { name: `Hook ${kind}` })).id;
        await write('post', `/${path}/${ids[kind]}`, { description: 'Changed' });
        await write('delete', `/${path}/${ids[kind]}`);
      }
      await app().get(TrashPurger).purge(null);

      const expected: Record<string, string[]> = {};
      for (const [kind] of posts) {
        expected[kind] = ['created', 'published', 'updated', 'trashed', 'deleted'].map(
          (a) => `${kind}.${a}`,
        );
      }
      for (const kind of ['category', 'tag']) {
        expected[kind] = ['created', 'updated', 'deleted'].map((a) => `${kind}.${a}`);
      }
      const total = Object.values(expected).flat().length;
      await until(
        () => all.received.length >= total,
        20_000,
        'every change at the private subscription',
      );
      for (const [kind, sequence] of Object.entries(expected)) {
        expect([kind, types(all.of(kind, ids[kind]))]).toEqual([kind, sequence]);
      }
      expect(all.received).toHaveLength(total);
      expect(all.received.every((r) => r.verified)).toBe(true);
      expect(new Set(all.received.map((r) => r.id)).size).toBe(total);
      const first = all.received[0];
      expect(first.headers['user-agent']).toMatch(/cal-events-api-webhooks/);
      expect(first.headers['webhook-signature']).toMatch(/^v1,/);
      expect(first.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const draft = all.of('event', ids.event)[0];
      expect(draft.body.data).toMatchObject({ id: ids.event, kind: 'event', language: 'en' });
      expect(draft.body.data.record).toMatchObject({ id: ids.event, status: 'draft' });
      const deleted = all.of('event', ids.event)[4];
      expect(deleted.body.data.record).toBeUndefined();

      // The public subscription hears of posts once they are public, and of terms, with the
      // payload an anonymous reader gets; never of drafts or of the purge.
      const publicTypes: Record<string, string[]> = {
        event: ['event.published', 'event.updated', 'event.trashed'],
        venue: ['venue.published', 'venue.updated', 'venue.trashed'],
        organizer: ['organizer.published', 'organizer.updated', 'organizer.trashed'],
        category: expected.category,
        tag: expected.tag,
      };
      const publicTotal = Object.values(publicTypes).flat().length;
      await until(() => pub.received.length >= publicTotal, 20_000, 'the public changes');
      for (const [kind, sequence] of Object.entries(publicTypes)) {
        expect([kind, types(pub.of(kind, ids[kind]))]).toEqual([kind, sequence]);
      }
      const published = pub.of('event', ids.event)[0];
      expect(published.body.data.record).toMatchObject({ id: ids.event, status: 'publish' });
      expect(pub.of('event', ids.event)[2].body.data.record).toBeUndefined();
      expect(pub.received.every((r) => r.verified)).toBe(true);

      const log = await http()
        .get(`${API}/webhooks/${everything.id}/deliveries?per_page=100`)
        .set(admin())
        .expect(200);
      expect(log.body.total).toBe(total);
      expect(log.body.deliveries[0]).toMatchObject({
        webhook_id: everything.id,
        status: 'delivered',
        attempts: 1,
        response_status: 200,
        error: null,
        failure_reason: null,
      });
      for (const id of [everything.id, publicSub.id]) {
        await http().delete(`${API}/webhooks/${id}`).set(admin()).expect(200);
      }
    });

    it('announce a scheduled post going live by the clock once, and not one rescheduled or unpublished', async () => {
      const r = await receivers.start();
      const sub = await receivers.subscribe(r, { events: ['*'] });
      const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
      const dates = { start_date: '2031-06-01 10:00', end_date: '2031-06-01 12:00' };
      const schedule = async (path: string, body: object, at: number) => {
        const res = await http()
          .post(`${API}/${path}`)
          .set(admin())
          .send({ ...body, status: 'publish', date_utc: utc(at) })
          .expect(201);
        expect(res.body.status).toBe('future');
        return res.body.id as number;
      };
      // Far enough ahead for the writes below to be done before it, on a loaded machine too.
      const soon = Date.now() + 8000;
      const event = await schedule('events', { title: 'Goes live', ...dates }, soon);
      const venue = await schedule('venues', { venue: 'Opens soon' }, soon);
      const moved = await schedule('events', { title: 'Moved later', ...dates }, soon);
      const unpublished = await schedule('events', { title: 'Back to draft', ...dates }, soon);
      // Goes live last: once it is announced, the others' dates have passed too.
      const last = await schedule('events', { title: 'Goes live last', ...dates }, soon + 1000);
      await http()
        .post(`${API}/events/${moved}`)
        .set(admin())
        .send({ date_utc: utc(Date.now() + 3_600_000) })
        .expect(200);
      await http()
        .post(`${API}/events/${unpublished}`)
        .set(admin())
        .send({ status: 'draft' })
        .expect(200);
      // The premise: both changed while still scheduled (else the public saw them live).
      expect(Date.now()).toBeLessThan(soon);
      // Nothing public yet: a scheduled post is not announced to a public subscription.
      expect(r.received).toEqual([]);
      await until(() => r.of('event', last).length === 1, 20_000, 'the last publication');
      expect(types(r.of('event', event))).toEqual(['event.published']);
      expect(types(r.of('venue', venue))).toEqual(['venue.published']);
      expect(r.of('event', moved)).toEqual([]);
      expect(r.of('event', unpublished)).toEqual([]);
      const live = r.of('event', event)[0];
      expect(live.verified).toBe(true);
      expect(live.body.data.record).toMatchObject({ id: event, status: 'publish' });
      // The moment it went live, not when the message was prepared.
      expect(live.body.timestamp).toBe(`${utc(soon).replace(' ', 'T')}.000Z`);

      // Changed after going live: an update, not a second publication.
      await http()
        .post(`${API}/events/${event}`)
        .set(admin())
        .send({ description: 'Live now' })
        .expect(200);
      await until(() => r.of('event', event).length === 2, 20_000, 'the update');
      expect(types(r.of('event', event))).toEqual(['event.published', 'event.updated']);
      await http().delete(`${API}/webhooks/${sub.id}`).set(admin()).expect(200);
    });

    it('filters by language', async () => {
      const r = await receivers.start();
      const sub = await receivers.subscribe(r, { events: ['tag.created'], language: 'ro' });
      await http().post(`${API}/tags`).set(admin()).send({ name: 'English tag' }).expect(201);
      const ro = await http()
        .post(`/ro${API}/tags`)
        .set(admin())
        .send({ name: 'Etichetă' })
        .expect(201);
      await until(() => r.received.length >= 1, 20_000, 'the Romanian tag');
      expect(r.received.map((m) => m.body.data.id)).toEqual([ro.body.id]);
      expect(r.received[0].body.data).toMatchObject({
        language: 'ro',
        record: { name: 'Etichetă' },
      });
      await http().delete(`${API}/webhooks/${sub.id}`).set(admin()).expect(200);
    });

    it('retries a receiver that fails three times, then delivers; a rotated secret signs beside the new one', async () => {
      const r = await receivers.start();
      r.answer = (n) => (n <= 3 ? [500, 429, 503][n - 1] : 200);
      const sub = await receivers.subscribe(r, { events: ['category.created'] });
      const old = r.secret;
      const rotated = await http()
        .post(`${API}/webhooks/${sub.id}/rotate-secret`)
        .set(admin())
        .expect(200);
      const term = await http()
        .post(`${API}/categories`)
        .set(admin())
        .send({ name: 'Retry me' })
        .expect(201);
      await until(() => r.received.length >= 1, 20_000, 'the delivery after three failures');
      expect(r.requests).toHaveLength(4);
      expect(r.received[0].body.data.id).toBe(term.body.id);
      // Both secrets verify during the grace period (two signatures in the header).
      expect(r.received[0].verified).toBe(true);
      r.secret = rotated.body.secret;
      expect(r.received[0].headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
      const log = await http().get(`${API}/webhooks/${sub.id}/deliveries`).set(admin()).expect(200);
      expect(log.body.deliveries[0]).toMatchObject({
        status: 'delivered',
        attempts: 4,
        response_status: 200,
        type: 'category.created',
        record_id: term.body.id,
      });
      expect(old).not.toBe(rotated.body.secret);
      const counted = await app()
        .get(Metrics)
        .registry.getSingleMetric('cal_webhook_attempts_total')!
        .get();
      const outcome = (name: string) =>
        counted.values.find((v) => v.labels.outcome === name)?.value ?? 0;
      expect(outcome('retry')).toBeGreaterThanOrEqual(3);
      expect(outcome('delivered')).toBeGreaterThanOrEqual(1);
      await http().delete(`${API}/webhooks/${sub.id}`).set(admin()).expect(200);
    });

    it('marks a subscription failing after its retries, says why, and replays', async () => {
      const { r, sub } = await failedSubscription(500, 'Never arrives');
      const failing = await http().get(`${API}/webhooks/${sub.id}`).set(admin()).expect(200);
      expect(r.requests).toHaveLength(5);
      const log = await http().get(`${API}/webhooks/${sub.id}/deliveries`).set(admin()).expect(200);
      const [delivery] = log.body.deliveries;
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 5,
        response_status: 500,
        error: 'status:500',
        failure_reason: 'The receiver answered with HTTP status 500.',
      });
      // Stored as a code, put into words in the language of each request.
      expect(failing.body.failure_reason).toBe(
        `Delivery ${delivery.id} (tag.created) failed after 5 attempts: The receiver answered with HTTP status 500.`,
      );
      const hu = await http().get(`/hu${API}/webhooks/${sub.id}`).set(admin()).expect(200);
      expect(hu.body.failure_reason).toBe(
        `A(z) ${delivery.id} azonosítójú kézbesítés (tag.created) 5 próbálkozás után sem sikerült: A fogadó 500 HTTP-állapotkóddal válaszolt.`,
      );
      const ro = await http()
        .get(`${API}/webhooks/${sub.id}/deliveries?i18n_language=ro`)
        .set(admin())
        .expect(200);
      expect(ro.body.deliveries[0]).toMatchObject({
        error: 'status:500',
        failure_reason: 'Destinatarul a răspuns cu codul HTTP 500.',
      });

      r.answer = () => 200;
      const replay = await http()
        .post(`${API}/webhooks/${sub.id}/deliveries/${delivery.id}/replay`)
        .set(admin())
        .expect(202);
      expect(replay.body).toMatchObject({ status: 'pending', message_id: delivery.message_id });
      await until(() => r.received.length >= 1, 20_000, 'the replay');
      expect(r.received[0].id).toBe(delivery.message_id);
      await untilStatus(sub.id, 'active', 'the subscription to recover');
      await http()
        .post(`${API}/webhooks/${sub.id}/deliveries/999999/replay`)
        .set(admin())
        .expect(404);
      await http().delete(`${API}/webhooks/${sub.id}`).set(admin()).expect(200);
    });

    it('refuses at delivery an address the name resolves to later (no retry, no request)', async () => {
      const r = await receivers.start();
      const service = app().get(WebhooksService);
      const dispatcher = app().get(WebhookDispatcher);
      const url = `https://rebind.example.test:${r.port}/hook`;
      // The name resolves to a public address when subscribed, to loopback when delivered.
      service.resolver = () => Promise.resolve(['93.184.215.14']);
      dispatcher.resolver = () => Promise.resolve(['127.0.0.2']);
      try {
        const sub = await http()
          .post(`${API}/webhooks`)
          .set(admin())
          .send({ url, events: ['tag.created'] })
          .expect(201);
        await http().post(`${API}/tags`).set(admin()).send({ name: 'Rebound' }).expect(201);
        await untilStatus(sub.body.id, 'failing', 'the refusal');
        const log = await http()
          .get(`${API}/webhooks/${sub.body.id}/deliveries`)
          .set(admin())
          .expect(200);
        expect(log.body.deliveries[0]).toMatchObject({
          status: 'failed',
          attempts: 1,
          response_status: null,
          error: 'forbidden-address:127.0.0.2',
          failure_reason: expect.stringMatching(
            /^Not sent: 127\.0\.0\.2 is an address of this machine/,
          ),
        });
        expect(r.requests).toHaveLength(0);
        await http().delete(`${API}/webhooks/${sub.body.id}`).set(admin()).expect(200);
      } finally {
        service.resolver = systemResolver;
        dispatcher.resolver = systemResolver;
      }
    });

    it('does not follow redirects', async () => {
      const { r, sub } = await failedSubscription(302, 'Redirected');
      expect(r.requests).toHaveLength(1);
      const log = await http().get(`${API}/webhooks/${sub.id}/deliveries`).set(admin()).expect(200);
      expect(log.body.deliveries[0]).toMatchObject({
        error: 'redirect:302',
        failure_reason:
          'The receiver answered with a redirect (HTTP status 302), which is not followed.',
      });
      const hu = await http()
        .get(`/hu${API}/webhooks/${sub.id}/deliveries`)
        .set(admin())
        .expect(200);
      expect(hu.body.deliveries[0].failure_reason).toBe(
        'A fogadó átirányítással válaszolt (302 HTTP-állapotkód), ezt a kiszolgáló nem követi.',
      );
      await http().delete(`${API}/webhooks/${sub.id}`).set(admin()).expect(200);
    });
  });

  describe('message bodies', () => {
    it('are stored once per change and reader, named by its deliveries, and pruned once none names them', async () => {
      const db = app().get(DataSource);
      const [a, b, c] = [await receivers.start(), await receivers.start(), await receivers.start()];
      const subs = [
        await receivers.subscribe(a, { events: ['tag.created'] }),
        await receivers.subscribe(b, { events: ['tag.created'] }),
        await receivers.subscribe(c, { events: ['tag.created'], include_private: true }),
      ];
      const ids = subs.map((s) => s.id);
      const tag = await http()
        .post(`${API}/tags`)
        .set(admin())
        .send({ name: 'Shared' })
        .expect(201);
      await until(() => [a, b, c].every((r) => r.received.length >= 1), 20_000, 'the three');
      for (const r of [a, b, c]) {
        expect(r.received[0]).toMatchObject({ verified: true, type: 'tag.created' });
        expect(r.received[0].body.data).toMatchObject({ id: tag.body.id, kind: 'tag' });
      }
      expect(b.received[0].body).toEqual(a.received[0].body);
      const marks = ids.map(() => '?').join(', ');
      const rows = (await db.query(
        `SELECT outbox_id, reader, payload FROM webhook_deliveries WHERE subscription_id IN (${marks})`,
        ids,
      )) as Array<{ outbox_id: unknown; reader: string; payload: string }>;
      expect(rows.map((r) => r.reader).sort()).toEqual(['private', 'public', 'public']);
      expect(rows.map((r) => r.payload)).toEqual(['', '', '']);
      const outboxId = Number(rows[0].outbox_id);
      const bodies = (await db.query(
        'SELECT reader, body FROM webhook_bodies WHERE outbox_id = ? ORDER BY reader',
        [outboxId],
      )) as Array<{ reader: string; body: string }>;
      expect(bodies.map((r) => r.reader)).toEqual(['private', 'public']);
      expect(JSON.parse(bodies[1].body)).toEqual(a.received[0].body);

      // A delivery that carries its own body (as those fanned out before bodies were shared) is
      // sent with it.
      const own = JSON.stringify({ ...a.received[0].body, type: 'tag.updated' });
      const now = Date.now();
      await db.query(
        `INSERT INTO webhook_deliveries (subscription_id, outbox_id, message_id, record_key, type,
           payload, status, attempts, next_attempt_at, created_at)
         VALUES (?, ?, 'msg_own', ?, 'tag.updated', ?, 'pending', 0, ?, ?)`,
        [ids[0], outboxId, `tag:${tag.body.id}`, own, now, now],
      );
      app().get(WebhookDispatcher).wake();
      await until(() => a.received.length >= 2, 20_000, 'the delivery with its own body');
      expect(a.received[1]).toMatchObject({ id: 'msg_own', verified: true, type: 'tag.updated' });
      expect(a.received[1].body).toEqual(JSON.parse(own));

      const counted = async (sql: string, params: unknown[]) =>
        Number((await db.query<Array<{ n: unknown }>>(sql, params))[0].n);
      const delivered = () =>
        counted(
          `SELECT COUNT(*) AS n FROM webhook_deliveries
           WHERE subscription_id IN (${marks}) AND status = 'delivered'`,
          ids,
        );
      await until(async () => (await delivered()) === 4, 20_000, 'the outcomes stored');
      const count = () =>
        counted('SELECT COUNT(*) AS n FROM webhook_bodies WHERE outbox_id = ?', [outboxId]);
      // A replay names the same body: sent again as it was.
      const [first] = (await db.query(
        "SELECT id FROM webhook_deliveries WHERE subscription_id = ? AND message_id <> 'msg_own'",
        [ids[0]],
      )) as Array<{ id: unknown }>;
      const replay = () =>
        http()
          .post(`${API}/webhooks/${ids[0]}/deliveries/${Number(first.id)}/replay`)
          .set(admin())
          .expect(202);
      await replay();
      await until(() => a.received.length >= 3, 20_000, 'the replay');
      expect(a.received[2].id).toBe(a.received[0].id);
      expect(a.received[2].body).toEqual(a.received[0].body);
      await until(async () => (await delivered()) === 5, 20_000, 'the replay stored');

      // Pruned past every delivery's end: the bodies stay while a delivery (a pending replay of a
      // paused subscription) names them, and go once none does.
      await http().post(`${API}/webhooks/${ids[0]}`).set(admin()).send({ active: false });
      await replay();
      await app()
        .get(DeliveriesRepository)
        .prune(Date.now() + 1);
      expect(await delivered()).toBe(0);
      expect(await count()).toBe(2);
      await http().delete(`${API}/webhooks/${ids[0]}`).set(admin()).expect(200);
      await app()
        .get(DeliveriesRepository)
        .prune(Date.now() + 1);
      expect(await count()).toBe(0);
      for (const id of ids.slice(1)) {
        await http().delete(`${API}/webhooks/${id}`).set(admin()).expect(200);
      }
    });
  });
});
