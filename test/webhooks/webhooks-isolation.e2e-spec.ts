import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { testDatabaseUrl } from '../helpers/database.js';
import { until } from '../helpers/until.js';
import { Receivers } from '../helpers/webhook-receiver.js';
import { useTestApp } from '../helpers/app-fixture.js';

const API = '/cal/events/v1';
const TIMEOUT_MS = 6000;
/** What the subscriptions here are for: an event's changes. */
const EVENT_CHANGES = ['event.created', 'event.updated', 'event.published'];

/**
 * What one partner does to the others (issue 44): a receiver that never answers delays only its
 * own deliveries (per-target slots and timeouts, delivery-rounds.ts); a write never fails because
 * another connection on the SQLite file committed meanwhile (Writes retries every busy variant,
 * transactions take the write lock first); what a write announces follows the record as the whole
 * write left it (a draft split off a series is not announced to a public subscription). On
 * SQLite (a file, as deployed: the dispatcher's thread has its own connection) and MariaDB.
 */
describe('webhooks: one partner does not hold the others (e2e)', () => {
  const dir = testDatabaseUrl().startsWith('sqlite')
    ? mkdtempSync(join(tmpdir(), 'cal-busy-'))
    : undefined;
  const receivers = new Receivers(
    () => app(),
    () => users.administrator.header,
  );
  // Registered first, so run last (hooks run as a stack): once the app is closed.
  afterAll(async () => {
    await receivers.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const { app, http, users } = useTestApp({
    env: {
      ...(dir ? { DATABASE_URL: `sqlite:${join(dir, 'cal.sqlite')}` } : {}),
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '1h',
      WEBHOOK_POLL: '50ms',
      WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms`,
    },
  });
  const admin = () => ({ Authorization: users.administrator.header });

  const unsubscribe = (id: number) => http().delete(`${API}/webhooks/${id}`).set(admin());

  const createEvent = (title: string, extra: Record<string, unknown> = {}) =>
    http()
      .post(`${API}/events`)
      .set(admin())
      .send({
        title,
        start_date: '2031-05-01 10:00',
        end_date: '2031-05-01 12:00',
        status: 'publish',
        ...extra,
      });

  it('a receiver that never answers delays only its own deliveries', async () => {
    const hanging = await receivers.start();
    hanging.answer = () => 'hang';
    const healthy = await receivers.start();
    const subs = [
      await receivers.subscribe(hanging, { events: EVENT_CHANGES }),
      await receivers.subscribe(healthy, { events: EVENT_CHANGES }),
    ];
    try {
      const created = new Map<number, number>();
      for (let i = 0; i < 20; i++) {
        const res = await createEvent(`Isolated ${i}`).expect(201);
        created.set(res.body.id as number, Date.now());
      }
      await until(() => healthy.received.length >= 20, 30_000, 'the healthy deliveries');
      expect(hanging.requests.length).toBeGreaterThan(0);
      // Each healthy delivery arrived soon after its event was written, well within the hanging
      // receiver's timeout: none waited for it (before: a round waited WEBHOOK_TIMEOUT for its
      // slowest attempt, so deliveries written meanwhile waited up to as long).
      const latencies = healthy.received.map(
        (r, i) => healthy.requests[i] - created.get(r.body.data.id)!,
      );
      expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS / 2);
      expect(healthy.received.every((r) => r.verified)).toBe(true);
    } finally {
      for (const s of subs) await unsubscribe(s.id).expect(200);
    }
  });

  it('no write fails while another connection commits on the database (hundreds of writes)', async () => {
    const healthy = await receivers.start();
    const sub = await receivers.subscribe(healthy, { events: ['*'], include_private: true });
    const edited = (await createEvent('Busy edited').expect(201)).body.id as number;
    // On SQLite, a second connection commits on the file without pause, as the dispatcher's
    // thread does while deliveries run (its own connection): a request transaction that read
    // before such a commit met SQLITE_BUSY_SNAPSHOT at its first write (503, 2-5 of 240).
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const writer = dir
      ? new Worker(
          `const { workerData, parentPort } = require('node:worker_threads');
           const Database = require(workerData.module);
           const db = new Database(workerData.file, { timeout: 5000 });
           db.exec('CREATE TABLE IF NOT EXISTS test_other_writer (n INTEGER)');
           const add = db.prepare('INSERT INTO test_other_writer VALUES (?)');
           const flag = new Int32Array(workerData.stop);
           let n = 0;
           while (Atomics.load(flag, 0) === 0) {
             db.transaction(() => add.run(n++))();
             Atomics.wait(flag, 0, 0, 1);
           }
           db.close();
           parentPort.postMessage(n);`,
          {
            eval: true,
            workerData: {
              module: join(process.cwd(), 'node_modules/better-sqlite3'),
              file: join(dir, 'cal.sqlite'),
              stop: stop.buffer,
            },
          },
        )
      : undefined;
    const commits = writer
      ? new Promise<number>((resolve) => writer.once('message', resolve))
      : Promise.resolve(0);
    const statuses: number[] = [];
    const TOTAL = 300;
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (next < TOTAL) {
            const i = next++;
            const res =
              i % 3 === 2
                ? await http()
                    .post(`${API}/events/${edited}`)
                    .set(admin())
                    .send({ description: `Edit ${i}` })
                : await createEvent(`Busy ${i}`);
            statuses.push(res.status);
          }
        }),
      );
    } finally {
      Atomics.store(stop, 0, 1);
    }
    const otherCommits = await commits;
    await unsubscribe(sub.id).expect(200);
    expect(statuses).toHaveLength(TOTAL);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    if (dir) expect(otherCommits).toBeGreaterThan(100);
  });

  it('does not announce a draft split off a series to a public subscription', async () => {
    const pub = await receivers.start();
    const all = await receivers.start();
    const subs = [
      await receivers.subscribe(pub, { events: EVENT_CHANGES }),
      await receivers.subscribe(all, { events: EVENT_CHANGES, include_private: true }),
    ];
    try {
      const series = await createEvent('Split series', {
        start_date: '2031-06-02 18:00',
        end_date: '2031-06-02 20:00',
        recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'] },
      }).expect(201);
      const list = await http()
        .get(`${API}/events?search=Split%20series&start_date=2031-06-01&end_date=2031-07-31`)
        .expect(200);
      const occurrences = list.body.events as Array<{ id: number }>;
      const made: number[] = [];
      for (const [type, at] of [
        ['single', 1],
        ['upcoming', 3],
      ] as const) {
        const res = await http()
          .post(`${API}/events/${occurrences[at].id}`)
          .set(admin())
          .send({ _tec_update_type: type, status: 'draft', title: `Split ${type} draft` })
          .expect(200);
        expect(res.body.status).toBe('draft');
        made.push(res.body.id);
      }
      // The private subscription hears of each draft, as a draft; the public one of the series'
      // updates only (before: event.created of each new draft, announced while it was a copy of
      // the published series).
      await until(
        () => made.every((id) => all.of('event', id).length > 0),
        20_000,
        'the private announcements',
      );
      for (const id of made) {
        expect(all.of('event', id).map((r) => r.type)).toEqual(['event.created']);
        expect(all.of('event', id)[0].body.data.record).toMatchObject({ status: 'draft' });
      }
      await until(
        () => pub.of('event', series.body.id).length >= 2,
        20_000,
        'the series updates at the public subscription',
      );
      for (const id of made) expect(pub.of('event', id)).toEqual([]);
    } finally {
      for (const s of subs) await unsubscribe(s.id).expect(200);
    }
  });
});
