import { createServer, type Server } from 'node:net';
import request from 'supertest';
import { isMysql, testDatabaseUrl } from '../helpers/database.js';
import {
  assertBuilt,
  freePort,
  MAIN,
  run,
  startServer,
  stop,
  tempSqliteUrl,
  type Finished,
} from '../helpers/spawn.js';
import { parseDatabaseUrl } from '../../src/config/config.js';

/** `npm start` as a newcomer meets it: one line when it works, one line when it cannot. */
function expectOneLineFailure(result: Finished, ...fragments: string[]) {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  for (const fragment of fragments) expect(lines[0]).toContain(fragment);
  expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/); // no stack trace
  expect(result.stdout).not.toContain('successfully started');
}

describe('starting the server', () => {
  beforeAll(assertBuilt);

  it.each([
    [{ CORS_ORIGINS: 'notaurl' }, 'CORS_ORIGINS has "notaurl"'],
    [{ CORS_ORIGINS: 'https://a.example/, *' }, 'write "https://a.example"'],
    [{ ADMIN_LOGIN: 'admin' }, 'ADMIN_LOGIN is set but ADMIN_PASSWORD is not'],
    [{ HOST: '999.1.1.1' }, 'HOST'],
    [{ DATABASE_URL: 'sqlite:/etc/hostname/cal.sqlite' }, 'a file is in the way'],
  ])('refuses %j in one line: %s', async (env, fragment) => {
    expectOneLineFailure(await run(MAIN, [], { DATABASE_URL: tempSqliteUrl(), ...env }), fragment);
  });

  it('prints one summary line instead of the route table, and serves', async () => {
    const port = await freePort();
    const url = tempSqliteUrl();
    const server = await startServer({ DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1' });
    try {
      expect(server.firstLine).toBe(
        `cal/events/v1 listening on 127.0.0.1:${port} | http://localhost:${port}/cal/events/v1` +
          ` | database sqlite ${url.slice('sqlite:'.length)} | languages en (default), hu, ro` +
          ` | response cache 1000 ms | redis off`,
      );
      await request(`http://127.0.0.1:${port}`).get('/health').expect(200);
      const { stdout, stderr } = server.output();
      expect(stderr).toBe('');
      // Only the summary and the request log (LOG_REQUESTS), no framework start-up lines.
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toBe(server.firstLine);
      expect(lines.slice(1).every((l) => l.startsWith('{'))).toBe(true);
      expect(stdout).not.toMatch(/Mapped|RoutesResolver|successfully started/);
    } finally {
      await stop(server.child);
    }
  });

  it('names the metrics listener, and a Redis that does not answer as not in use', async () => {
    const [port, metricsPort, redisPort] = [await freePort(), await freePort(), await freePort()];
    const server = await startServer({
      DATABASE_URL: tempSqliteUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    try {
      expect(server.firstLine).toContain(
        ` | response cache 1000 ms | metrics http://127.0.0.1:${metricsPort}/metrics` +
          ` | redis 127.0.0.1:${redisPort} not answering (each process works alone until it does;` +
          ` /health shows when)`,
      );
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      // A failed login with Redis down: one warning, in words, not one per counter store.
      const login = await fetch(`http://127.0.0.1:${port}/cal/events/v1/events`, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` },
      });
      expect(login.status).toBe(401);
      const warnings = server
        .output()
        .stdout.split('\n')
        .filter((l) => l.includes('login failures are counted in this process'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`Redis at 127.0.0.1:${redisPort} (REDIS_URL) does not answer`);
      expect(warnings[0]).not.toContain('maxRetriesPerRequest');
    } finally {
      await stop(server.child);
    }
  });

  describe('a port in use', () => {
    let blocker: Server;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    it('fails in one line naming the address, without claiming to have started', async () => {
      const result = await run(MAIN, [], {
        DATABASE_URL: tempSqliteUrl(),
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      expectOneLineFailure(result, `Cannot listen on 127.0.0.1:${port}`, 'in use', 'PORT');
      expect(result.stdout).toBe('');
    });

    it('names METRICS_PORT when it is the metrics listener that cannot listen', async () => {
      const free = await freePort();
      const result = await run(MAIN, [], {
        DATABASE_URL: tempSqliteUrl(),
        PORT: String(free),
        HOST: '127.0.0.1',
        METRICS_PORT: String(port),
        METRICS_HOST: '127.0.0.1',
      });
      expectOneLineFailure(
        result,
        `Cannot listen on 127.0.0.1:${port}`,
        'in use',
        'set METRICS_PORT)',
      );
      expect(result.stderr).not.toContain(String(free));
      expect(result.stdout).toBe('');
    });
  });

  const onMysql = isMysql() ? describe : describe.skip;
  onMysql('on MySQL', () => {
    it('names a missing MySQL database and the CREATE DATABASE that makes it, at once', async () => {
      const db = parseDatabaseUrl(testDatabaseUrl());
      if (db.type === 'sqlite') throw new Error('unreachable');
      const missing = `${db.database}_missing`;
      const url = testDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, `/${missing}`);
      const result = await run(MAIN, [], { DATABASE_URL: url, PORT: String(await freePort()) });
      expectOneLineFailure(
        result,
        `Database "${missing}" does not exist`,
        `CREATE DATABASE \`${missing}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
      );
      // At once: no retries for what waiting cannot fix (a retry announces itself first). Not
      // timed: a loaded machine takes seconds to start Node at all.
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/retrying/i);
    });
  });
});
