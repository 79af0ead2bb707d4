import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { GENERATION_CHANNEL, GENERATION_CHECK_MS } from '../../src/database/shared-generation.js';
import { basic } from '../helpers/auth.js';
import {
  connectTestDatabase,
  isMysql,
  resetDatabase,
  testDatabaseUrl,
} from '../helpers/database.js';
import { redisAnswers } from '../helpers/redis.js';
import { needs } from '../helpers/services.js';
import {
  adminServerEnv,
  assertBuilt,
  CLI,
  PROCESS_DEADLINE_MS,
  run,
  serveOnFreePort,
  stop,
} from '../helpers/spawn.js';

const BASE = '/cal/events/v1';
const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01&per_page=50';
const ADMIN = { login: 'admin', password: 'scale-out-admin-passphrase' };
const AUTH = basic(ADMIN.login, ADMIN.password);
/**
 * What every process must hold to, from the moment a write was answered (or its generation
 * increment committed): no request started later than this is answered stale. The mechanism
 * promises GENERATION_CHECK_MS; the margin absorbs timer granularity only (every other delay,
 * such as a slow request, makes the server's view later, not earlier).
 */
const BOUND_MS = GENERATION_CHECK_MS + 10;

interface Server {
  url: string;
  child: ChildProcess;
}

async function serve(env: Record<string, string>): Promise<Server> {
  const { child, origin } = await serveOnFreePort(
    {
      DATABASE_URL: testDatabaseUrl(),
      ...adminServerEnv(ADMIN),
      LOG_REQUESTS: 'false',
      // A long cache lifetime: only the invalidation can make another process's write show.
      RESPONSE_CACHE_TTL_MS: '600000',
      ...env,
    },
    60_000,
  ); // the first start runs every migration: slow on a loaded machine
  return { url: origin, child };
}

/** What these tests read of the answers: an event or a list (null for an empty answer). */
interface Answer {
  id: number;
  title: string;
  slug: string;
  events?: { id: number }[];
  categories?: { name: string; count: number }[];
}

async function call(
  server: Server,
  path: string,
  init: { method?: string; body?: unknown; auth?: boolean } = {},
): Promise<{ status: number; body: Answer; total: string | null }> {
  const res = await fetch(`${server.url}${BASE}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.auth ? { Authorization: AUTH } : {}),
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    total: res.headers.get('x-tec-total'),
  };
}

/**
 * Asks `read` over and over until it answers fresh, and returns when the first request that
 * answered fresh started, in ms after `since`. The guarantee: no request started BOUND_MS or
 * more after `since` answers stale.
 */
async function pollUntilFresh(read: () => Promise<boolean>, since: number): Promise<number> {
  for (;;) {
    const started = performance.now() - since;
    if (await read()) return Math.round(started * 10) / 10;
    expect(started).toBeLessThan(BOUND_MS); // a stale answer to a request started after the bound
    await sleep(1);
  }
}

/** Keeps `reader` busy, as a loaded server is (its last check is then always recent). */
function traffic(reader: Server): () => Promise<void> {
  const state = { busy: true };
  const loop = (async () => {
    while (state.busy) await call(reader, '/events?per_page=1');
  })();
  return () => {
    state.busy = false;
    return loop;
  };
}

/**
 * Runs `write` on `writer` while `reader` (whose cache holds the old answer) is busy; returns
 * when the first request to `reader` that showed the write started, in ms after the write's answer.
 */
async function staleness(
  reader: Server,
  write: () => Promise<unknown>,
  read: () => Promise<boolean>,
): Promise<number> {
  const quiet = traffic(reader);
  try {
    await sleep(GENERATION_CHECK_MS);
    await write();
    return await pollUntilFresh(read, performance.now());
  } finally {
    await quiet();
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The kinds of writes, each measured from `writer` to `reader`. */
async function measureWrites(writer: Server, reader: Server): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  const listed = async () => (await call(reader, `/events?${WINDOW}`)).body?.events ?? [];
  const total = async () => Number((await call(reader, `/events?${WINDOW}`)).total ?? 0);

  // Warm the reader's cache, then create: the list, its X-TEC-Total and the term counts move.
  const before = await total();
  await call(reader, '/categories?hide_empty=false');
  let id = 0;
  seen.create = await staleness(
    reader,
    async () => {
      const created = await call(writer, '/events', {
        method: 'POST',
        auth: true,
        body: {
          title: 'Scaled concert',
          start_date: '2030-05-01 10:00',
          end_date: '2030-05-01 12:00',
          categories: ['Scaled'],
        },
      });
      expect(created.status).toBe(201);
      id = created.body.id;
    },
    async () => (await total()) === before + 1,
  );
  seen.termCount = await staleness(
    reader,
    () => Promise.resolve(),
    async () => {
      const cats = (await call(reader, '/categories?hide_empty=false')).body?.categories ?? [];
      return cats.some(
        (c: { name: string; count: number }) => c.name === 'Scaled' && c.count === 1,
      );
    },
  );

  await call(reader, `/events/${id}`);
  seen.update = await staleness(
    reader,
    () =>
      call(writer, `/events/${id}`, {
        method: 'POST',
        auth: true,
        body: { title: 'Renamed concert' },
      }),
    async () => (await call(reader, `/events/${id}`)).body?.title === 'Renamed concert',
  );

  // Privacy: a draft, then a trashed and a deleted record, are never served after the bound.
  for (const [kind, change] of [
    [
      'draft',
      () =>
        call(writer, `/events/${id}`, { method: 'POST', auth: true, body: { status: 'draft' } }),
    ],
    [
      'publish',
      () =>
        call(writer, `/events/${id}`, { method: 'POST', auth: true, body: { status: 'publish' } }),
    ],
    ['trash', () => call(writer, `/events/${id}`, { method: 'DELETE', auth: true })],
  ] as const) {
    await call(reader, `/events/${id}`);
    await listed();
    const visible = kind === 'publish';
    seen[kind] = await staleness(reader, change, async () => {
      const single = (await call(reader, `/events/${id}`)).status === 200;
      const inList = (await listed()).some((e: { id: number }) => e.id === id);
      return single === visible && inList === visible;
    });
  }
  // A second event, deleted for good.
  const other = await call(writer, '/events', {
    method: 'POST',
    auth: true,
    body: { title: 'Short-lived', start_date: '2030-06-01 10:00', end_date: '2030-06-01 12:00' },
  });
  // `?force=true` deletes a record in the trash (CONTRACT §3): it is trashed first. An
  // administrator's read of it then answers as the trash does, and once it is deleted, as an id
  // that never was (404).
  await call(writer, `/events/${other.body.id}`, { method: 'DELETE', auth: true });
  await sleep(BOUND_MS);
  expect((await call(reader, `/events/${other.body.id}`, { auth: true })).status).not.toBe(404);
  seen.delete = await staleness(
    reader,
    () => call(writer, `/events/${other.body.id}?force=true`, { method: 'DELETE', auth: true }),
    async () => (await call(reader, `/events/${other.body.id}`, { auth: true })).status === 404,
  );
  return seen;
}

/**
 * The mechanism alone, from the commit: another writer changes a title and increments the
 * generation straight in the database (and publishes it with `redis`), while `reader` is kept
 * busy; returns the milliseconds until `reader` answers the new title, `rounds` times.
 */
async function measureFromCommit(reader: Server, rounds: number, redis?: Redis): Promise<number[]> {
  const conn = await connectTestDatabase();
  const created = await call(reader, '/events', {
    method: 'POST',
    auth: true,
    body: { title: 'Round 0', start_date: '2032-01-01 10:00', end_date: '2032-01-01 11:00' },
  });
  const id = created.body.id;
  const title = async () => (await call(reader, `/events/${id}`)).body?.title;
  const quiet = traffic(reader);
  const delays: number[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      await title(); // cached
      await sleep(5 + ((round * 17) % GENERATION_CHECK_MS)); // anywhere in the check period
      await conn.query('UPDATE events SET title = ? WHERE id = ?', [`Round ${round}`, id]);
      const [result] = await conn.query(
        'UPDATE write_generation SET value = LAST_INSERT_ID(value + 1) WHERE id = 1',
      );
      const committed = performance.now();
      if (redis) {
        const generation = (result as { insertId: number }).insertId;
        await redis.publish(GENERATION_CHANNEL, `test ${generation}`);
      }
      delays.push(
        await pollUntilFresh(async () => (await title()) === `Round ${round}`, committed),
      );
    }
  } finally {
    await quiet();
    await conn.end();
  }
  return delays;
}

const onMysql = isMysql() ? describe : describe.skip;

// SQLite serves from one process (WORKERS>1 is refused with SQLite): nothing to share.
onMysql(
  'several server processes on one MySQL/MariaDB database (skipped on SQLite: one process only)',
  () => {
    const servers: Server[] = [];
    let redis = false;

    beforeAll(async () => {
      assertBuilt();
      await resetDatabase();
      redis = await redisAnswers();
      servers.push(await serve({})); // runs the migrations alone
      servers.push(await serve({}));
      // Two servers start one after the other: each may take its whole deadline when loaded.
    }, 2 * PROCESS_DEADLINE_MS);
    afterAll(async () => {
      await Promise.all(servers.map((s) => stop(s.child)));
    });

    it(`shows every kind of write of one process in the other within ${BOUND_MS} ms (no Redis)`, async () => {
      const [a, b] = servers;
      const measured = await measureWrites(a, b);
      process.stdout.write(
        `staleness without Redis (ms, first fresh answer): ${JSON.stringify(measured)}\n`,
      );
    });

    it(`learns of a write committed elsewhere within ${GENERATION_CHECK_MS} ms and a query (no Redis)`, async () => {
      const delays = await measureFromCommit(servers[1], 20);
      process.stdout.write(`from commit without Redis (ms): ${JSON.stringify(delays)}\n`);
    });

    it('refuses a replaced application password and a deleted user in every process at once', async () => {
      const env = { DATABASE_URL: testDatabaseUrl() };
      const created = await run(CLI, ['user:create', 'roamer', '--role', 'editor'], env);
      expect(created.code).toBe(0);
      const old = created.stdout.trim().split('\n').pop()!;
      const as = (server: Server, password: string) =>
        fetch(`${server.url}${BASE}/events?status=draft`, {
          headers: { Authorization: basic('roamer', password) },
        }).then((r) => r.status);
      // Both processes have verified (and cached) the password.
      expect([await as(servers[0], old), await as(servers[1], old)]).toEqual([200, 200]);
      const replaced = await run(CLI, ['user:password', 'roamer'], env);
      expect(replaced.code).toBe(0);
      const fresh = replaced.stdout.trim().split('\n').pop()!;
      expect([await as(servers[0], old), await as(servers[1], old)]).toEqual([401, 401]);
      expect([await as(servers[0], fresh), await as(servers[1], fresh)]).toEqual([200, 200]);
      expect((await run(CLI, ['user:delete', 'roamer'], env)).code).toBe(0);
      expect([await as(servers[0], fresh), await as(servers[1], fresh)]).toEqual([401, 401]);
    });

    it('keeps slugs unique under parallel creates split across processes', async () => {
      const [a, b] = servers;
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call(i % 2 ? a : b, '/events', {
            method: 'POST',
            auth: true,
            body: { title: 'Twin', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' },
          }),
        ),
      );
      expect(created.map((r) => r.status)).toEqual(Array(12).fill(201));
      const slugs = created.map((r) => r.body.slug);
      expect(new Set(slugs).size).toBe(12);
    });

    describe('with REDIS_URL', () => {
      needs('Redis on 127.0.0.1:6379', () => redis);
      const pair: Server[] = [];
      beforeAll(async () => {
        if (!redis) return;
        pair.push(await serve({ REDIS_URL: 'redis://127.0.0.1:6379' }));
        pair.push(await serve({ REDIS_URL: 'redis://127.0.0.1:6379' }));
      });
      afterAll(async () => {
        await Promise.all(pair.map((s) => stop(s.child)));
      });

      it("hears of another process's writes within a few milliseconds", async () => {
        const [a, b] = pair;
        const measured = await measureWrites(a, b);
        process.stdout.write(
          `staleness with Redis (ms, first fresh answer): ${JSON.stringify(measured)}\n`,
        );
      });

      it('learns of a write committed elsewhere through pub/sub, well before the next check', async () => {
        const publisher = new Redis('redis://127.0.0.1:6379');
        try {
          const delays = await measureFromCommit(pair[1], 20, publisher);
          process.stdout.write(`from commit with Redis (ms): ${JSON.stringify(delays)}\n`);
          // Without the message about half of them would wait for the next check.
          expect(median(delays)).toBeLessThan(GENERATION_CHECK_MS / 2);
        } finally {
          publisher.disconnect();
        }
      });
    });
  },
);
