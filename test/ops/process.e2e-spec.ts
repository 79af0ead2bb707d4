import { request as httpRequest } from 'node:http';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { basic } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import {
  assertBuilt,
  CLI,
  MAIN,
  probe,
  PROCESS_DEADLINE_MS,
  run,
  serveOnFreePort,
  stop,
  tempSqliteUrl,
  useSharedDatabase,
} from '../helpers/spawn.js';
import { until } from '../helpers/until.js';

/**
 * The program as users run it (compiled by the suite's global setup): configuration errors, the user
 * CLI, and ADMIN_LOGIN bootstrap. The CLI and the app share one database here.
 */

describe('the built program', () => {
  beforeAll(assertBuilt);

  describe('configuration errors stop the process with one line naming the variable', () => {
    it.each([
      [{ DATABASE_URL: 'postgres://localhost/x' }, 'DATABASE_URL'],
      [{ PORT: 'eighty' }, 'PORT'],
      [{ SITE_TIMEZONE: 'Mars/Olympus_Mons' }, 'SITE_TIMEZONE'],
      [{ DEFAULT_LANGUAGE: 'de' }, 'DEFAULT_LANGUAGE'],
      [{ MIGRATIONS_RUN: 'maybe' }, 'MIGRATIONS_RUN'],
      [{ ADMIN_LOGIN: 'admin', ADMIN_PASSWORD: 'change-me' }, 'ADMIN_PASSWORD'],
      [
        { ADMIN_LOGIN: 'admin', ADMIN_PASSWORD: 'change-me-to-a-long-passphrase' },
        'ADMIN_PASSWORD',
      ],
      [{ TRUST_PROXY: 'sometimes' }, 'TRUST_PROXY'],
    ])('%j', async (env, variable) => {
      const { code, stderr, stdout } = await run(MAIN, [], env);
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(variable);
      expect(stderr).not.toMatch(/\bat .*\.js:\d+/); // no stack trace
      expect(stdout).toBe('');
    });
  });

  describe('user CLI', () => {
    let app: NestExpressApplication | undefined;
    const db = useSharedDatabase();
    afterAll(() => closeApp(app));

    it(
      'creates a user whose printed password authenticates against the API',
      async () => {
        const created = await run(
          CLI,
          ['user:create', 'carol', '--role', 'author', '--email', 'c@example.org'],
          {
            DATABASE_URL: db.url,
          },
        );
        expect(created.stderr).toBe('');
        expect(created.code).toBe(0);
        const password = created.stdout.trim().split('\n').pop()!;
        expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);

        const chosen = await run(
          CLI,
          [
            'user:create',
            'dave',
            '--role',
            'subscriber',
            '--password',
            'pw-of-dave-the-subscriber',
          ],
          {
            DATABASE_URL: db.url,
          },
        );
        expect(chosen.stdout.trim().split('\n').pop()).toBe('pw-of-dave-the-subscriber');

        app = await createTestApp({ env: { DATABASE_URL: db.url }, keepDatabase: true });
        const http = () => request(app!.getHttpServer());
        await http()
          .get('/cal/events/v1')
          .set('Authorization', basic('carol', password))
          .expect(200);
        // WordPress accepts application passwords with or without their spaces.
        await http()
          .get('/cal/events/v1')
          .set('Authorization', basic('carol', password.replace(/ /g, '')))
          .expect(200);
        await http()
          .get('/cal/events/v1')
          .set('Authorization', basic('dave', 'pw-of-dave-the-subscriber'))
          .expect(200);
        await http().get('/cal/events/v1').set('Authorization', basic('carol', 'nope')).expect(401);

        const list = await run(CLI, ['user:list', '--json'], { DATABASE_URL: db.url });
        expect(JSON.parse(list.stdout)).toEqual([
          {
            id: expect.any(Number),
            login: 'carol',
            email: 'c@example.org',
            display_name: 'carol',
            role: 'author',
          },
          {
            id: expect.any(Number),
            login: 'dave',
            email: '',
            display_name: 'dave',
            role: 'subscriber',
          },
        ]);

        // Deleting the user while the server runs locks it out at once, cached verification or not.
        const deleted = await run(CLI, ['user:delete', 'carol'], { DATABASE_URL: db.url });
        expect(deleted.code).toBe(0);
        await http()
          .get('/cal/events/v1')
          .set('Authorization', basic('carol', password))
          .expect(401);
        // Two CLI processes, then an app: each may take its whole deadline on a loaded machine.
      },
      3 * PROCESS_DEADLINE_MS,
    );

    it('refuses bad input with a message and a non-zero exit', async () => {
      const role = await run(CLI, ['user:create', 'eve', '--role', 'boss'], {
        DATABASE_URL: db.url,
      });
      expect(role.code).not.toBe(0);
      expect(role.stderr).toContain('unknown role "boss"');
      const dup = await run(CLI, ['user:create', 'dave', '--role', 'editor'], {
        DATABASE_URL: db.url,
      });
      expect(dup.code).not.toBe(0);
      expect(dup.stderr).toContain('exists already');
      const missing = await run(CLI, ['user:delete', 'nobody'], { DATABASE_URL: db.url });
      expect(missing.code).not.toBe(0);
      const unknown = await run(CLI, ['frobnicate'], { DATABASE_URL: db.url });
      expect(unknown.code).toBe(2);
    });
  });

  describe('ADMIN_LOGIN / ADMIN_PASSWORD', () => {
    let app: NestExpressApplication | undefined;
    afterAll(() => closeApp(app));

    it('creates the administrator at start-up', async () => {
      app = await createTestApp({
        env: { ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'first long secret' },
      });
      await request(app.getHttpServer())
        .get('/cal/events/v1')
        .set('Authorization', basic('root', 'first long secret'))
        .expect(200);
    });
  });
});

describe('probes and stopping (SIGTERM)', () => {
  beforeAll(assertBuilt);

  it('answers /health/live and /health/ready outside BASE_PATH, like /health', async () => {
    const { child, port } = await serveOnFreePort({
      DATABASE_URL: tempSqliteUrl(),
      HOST: '127.0.0.1',
      BASE_PATH: '/wp-json',
      LOG_REQUESTS: 'false',
    });
    try {
      const live = await fetch(`http://127.0.0.1:${port}/health/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ok',
        draining: false,
        database: { status: 'up' },
        migrations: 'current',
      });
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      await stop(child);
    }
  });

  it(
    'fails readiness first, keeps accepting for SHUTDOWN_DELAY_MS, then refuses new connections while it answers the request in flight, and exits',
    async () => {
      const { child, port } = await serveOnFreePort({
        DATABASE_URL: tempSqliteUrl(),
        HOST: '127.0.0.1',
        LOG_REQUESTS: 'false',
        SHUTDOWN_DELAY_MS: '3000',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        // A request in flight: its body arrives in two parts, the second after the signal.
        const body = JSON.stringify({ title: 'in flight', start_date: '2030-01-01 10:00:00' });
        const inFlight = sendInTwoParts(port, '/cal/events/v1/events', body);
        await inFlight.headersSent;
        child.kill('SIGTERM');
        // Readiness fails while the server still accepts new connections (liveness answers).
        await until(async () => (await probe(port, '/health/ready')) === 503, 10_000);
        expect(await probe(port, '/health/live')).toBe(200);
        // After SHUTDOWN_DELAY_MS the port refuses new connections while the request in flight,
        // whose body has not all arrived, is still held open.
        let answered = false;
        void inFlight.status.then(() => (answered = true));
        await until(
          async () => (await probe(port, '/health/live')) === 'refused',
          30_000,
          'the port refusing new connections',
        );
        expect(answered).toBe(false);
        expect(child.exitCode).toBeNull();
        inFlight.finish();
        // Answered by the application (anonymous: refused), not cut off.
        const status = await inFlight.status;
        expect(status).toBeGreaterThanOrEqual(400);
        expect(status).toBeLessThan(500);
        // Then it exits by itself.
        expect(await exited).toBe(0);
        expect(await probe(port, '/health/live')).toBe('refused');
      } finally {
        child.kill('SIGKILL');
      }
    },
    3 * PROCESS_DEADLINE_MS,
  );

  it(
    'cuts off a request still in flight SHUTDOWN_DRAIN_MS after the delay, says so, and exits',
    async () => {
      const { child, output, port } = await serveOnFreePort({
        DATABASE_URL: tempSqliteUrl(),
        HOST: '127.0.0.1',
        LOG_REQUESTS: 'false',
        SHUTDOWN_DELAY_MS: '0',
        SHUTDOWN_DRAIN_MS: '500',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        // Half a body that is never finished: the request stays in flight for good.
        const body = JSON.stringify({ title: 'never done', start_date: '2030-01-01 10:00:00' });
        const inFlight = sendInTwoParts(port, '/cal/events/v1/events', body);
        await inFlight.headersSent;
        const outcome = inFlight.status.then(
          (status) => `answered ${status}`,
          () => 'cut off',
        );
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(await outcome).toBe('cut off');
        expect(output().stdout).toContain('SHUTDOWN_DRAIN_MS');
      } finally {
        child.kill('SIGKILL');
      }
    },
    3 * PROCESS_DEADLINE_MS,
  );
});

/** A POST whose headers and first half of the body go now, the rest on `finish()`. */
function sendInTwoParts(port: number, path: string, body: string) {
  const half = Math.floor(body.length / 2);
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    agent: false,
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  const headersSent = new Promise<void>((resolve) =>
    req.write(body.slice(0, half), () => resolve()),
  );
  return { status, headersSent, finish: () => req.end(body.slice(half)) };
}
