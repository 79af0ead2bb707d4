import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { basic } from '../helpers/auth.js';
import { isMysql, resetDatabase, testDatabaseUrl } from '../helpers/database.js';
import { redisAnswers } from '../helpers/redis.js';
import { needs } from '../helpers/services.js';
import {
  adminServerEnv,
  assertBuilt,
  PROCESS_DEADLINE_MS,
  serveOnFreePort,
  sharedDatabaseUrl,
  stop,
} from '../helpers/spawn.js';

const ADMIN = { login: 'admin', password: 'shared-throttle-passphrase' };

/**
 * The login throttle with REDIS_URL: failures counted in one process count in every other
 * (src/auth/redis-throttle-store.ts). Two server processes; on MySQL/MariaDB they share one
 * database, on SQLite each has its own (the counters are shared through Redis alone).
 */
describe('login throttle shared through Redis', () => {
  const servers: Array<{ url: string; child: ChildProcess }> = [];
  let redis = false;

  async function serve(env: Record<string, string>) {
    const { child, origin } = await serveOnFreePort({
      DATABASE_URL: sharedDatabaseUrl(),
      ...adminServerEnv(ADMIN),
      LOG_REQUESTS: 'false',
      // The client address comes from X-Forwarded-For: a fresh one each run (Redis outlives runs).
      TRUST_PROXY: 'loopback',
      LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS: '3/15m',
      LOGIN_FAILURES_PER_ADDRESS: '6/15m',
      ...env,
    });
    servers.push({ url: origin, child });
  }

  needs('Redis on 127.0.0.1:6379', () => redis);
  beforeAll(async () => {
    assertBuilt();
    redis = await redisAnswers();
    if (!redis) return;
    await resetDatabase();
    await serve({ REDIS_URL: 'redis://127.0.0.1:6379' });
    await serve({ REDIS_URL: 'redis://127.0.0.1:6379' });
    await serve({}); // no Redis: counts alone
    // Three servers start one after the other: each may take its whole deadline when loaded.
  }, 3 * PROCESS_DEADLINE_MS);
  afterAll(() => Promise.all(servers.map((s) => stop(s.child))));

  const address = () => `198.51.${randomInt(0, 255)}.${randomInt(1, 255)}`;
  const login = (server: number, from: string, user: string, password: string) =>
    fetch(`${servers[server].url}/cal/events/v1/events`, {
      headers: { Authorization: basic(user, password), 'X-Forwarded-For': from },
    }).then((res) => res.status);

  it('counts failures of one login and address across processes', async () => {
    const from = address();
    const statuses = [];
    for (const server of [0, 1, 0]) statuses.push(await login(server, from, ADMIN.login, 'wrong'));
    expect(statuses).toEqual([401, 401, 401]);
    // The fourth try, in the other process, is over the limit of 3: refused before the password is checked.
    expect(await login(1, from, ADMIN.login, ADMIN.password)).toBe(429);
    expect(await login(0, from, ADMIN.login, ADMIN.password)).toBe(429);
    // Another address is not locked out, in either process; a process without Redis counted nothing.
    expect(await login(1, address(), ADMIN.login, ADMIN.password)).toBe(200);
    expect(await login(2, from, ADMIN.login, ADMIN.password)).toBe(200);
  });

  it('counts password spraying from one address across processes (per address, any login)', async () => {
    const from = address();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(await login(i % 2, from, `nobody-${randomBytes(4).toString('hex')}`, 'guess'));
    }
    expect(statuses).toEqual(Array(6).fill(401));
    expect(await login(0, from, `nobody-${randomBytes(4).toString('hex')}`, 'guess')).toBe(429);
    expect(await login(1, from, `nobody-${randomBytes(4).toString('hex')}`, 'guess')).toBe(429);
  });
});

/**
 * Without Redis, the workers of one server (WORKERS > 1) count login failures together, through
 * the primary process (src/auth/cluster-throttle-store.ts): the limits are the server's, not
 * WORKERS times them. Each attempt opens its own connection, so that the primary hands them to
 * the workers in turn. Several workers need MySQL/MariaDB: skipped on SQLite.
 */
const onMysql = isMysql() ? describe : describe.skip;
onMysql('login throttle shared by the workers without Redis (MySQL/MariaDB only)', () => {
  let child: ChildProcess | undefined;
  let port = 0;

  beforeAll(async () => {
    assertBuilt();
    await resetDatabase();
    ({ child, port } = await serveOnFreePort(
      {
        DATABASE_URL: testDatabaseUrl(),
        ...adminServerEnv(ADMIN),
        LOG_REQUESTS: 'false',
        TRUST_PROXY: 'loopback',
        WORKERS: '2',
      },
      60_000,
    ));
  });
  afterAll(() => (child ? stop(child) : undefined));

  /** One login attempt on a connection of its own; its status. */
  const login = (from: string, user: string, password: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/cal/events/v1/events',
          agent: false,
          headers: { Authorization: basic(user, password), 'X-Forwarded-For': from },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('checks exactly the configured 10 wrong passwords of one login and address before the first 429', async () => {
    const from = `198.51.${randomInt(0, 255)}.${randomInt(1, 255)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push(await login(from, ADMIN.login, `wrong-${i}`));
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(4).fill(429)]);
    // Refused before the password is looked at, in every worker; another address goes ahead.
    expect(await login(from, ADMIN.login, ADMIN.password)).toBe(429);
    expect(await login(from, ADMIN.login, ADMIN.password)).toBe(429);
    expect(await login(`203.0.113.${randomInt(1, 255)}`, ADMIN.login, ADMIN.password)).toBe(200);
  });
});
