import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/config.js';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { isMysql, resetDatabase, testDatabaseUrl } from '../helpers/database.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { captureExpectedLogs, type ExpectedLogs } from '../helpers/expected-logs.js';
import { DatabaseMonitor } from '../../src/database/database-monitor.js';
import { wpError } from '../helpers/wp-error.js';

/**
 * Database outage: requests answer 503 rest_db_unavailable quickly instead of
 * hanging, /health says 503, and the service recovers by itself. On MySQL/MariaDB a TCP proxy
 * between the service and the server is cut (connections dropped, new ones black-holed) and
 * restored; on SQLite, which cannot go away, the database's answers are made to hang instead.
 */
describe('database outage (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let proxy: TcpProxy | undefined;
  let hang: import('vitest').MockInstance | undefined;
  let pingHang: import('vitest').MockInstance | undefined;
  let logs: ExpectedLogs | undefined;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    let url = testDatabaseUrl();
    if (isMysql()) {
      await resetDatabase(url);
      const db = parseDatabaseUrl(url) as { host: string; port: number };
      proxy = new TcpProxy(db.host, db.port);
      const port = await proxy.start();
      url = url.replace(/@([^/:]+)(:\d+)?\//, `@127.0.0.1:${port}/`);
    }
    app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    users = await createRoleUsers(app);
  });
  afterAll(async () => {
    logs?.restore();
    hang?.mockRestore();
    pingHang?.mockRestore();
    proxy?.restore();
    await closeApp(app);
    await proxy?.stop();
  });

  const cut = () => {
    if (proxy) proxy.cutOff();
    else {
      // Every query of the driver (the monitor's ping and the request's own) never answers.
      const runner = app.get(DataSource).driver.createQueryRunner('master');
      const prototype = Object.getPrototypeOf(runner) as { query: () => Promise<unknown> };
      hang = vi.spyOn(prototype, 'query').mockImplementation(() => new Promise(() => undefined));
      // The monitor pings SQLite on the driver itself: make that hang too.
      const monitor = DatabaseMonitor.prototype as unknown as { selectOne: () => Promise<void> };
      pingHang = vi
        .spyOn(monitor, 'selectOne')
        .mockImplementation(() => new Promise(() => undefined));
    }
  };
  const restore = () => {
    if (proxy) proxy.restore();
    else {
      hang?.mockRestore();
      pingHang?.mockRestore();
    }
  };

  it('answers 503 in the WordPress shape while the database is away, then recovers', async () => {
    /** The same write before and while the database is away. */
    const write = (title: string) =>
      http()
        .post('/cal/events/v1/events')
        .set('Authorization', users.editor.header)
        .send({ title, start_date: 'tomorrow 10am', end_date: 'tomorrow 11am' });
    await http().get('/cal/events/v1/events').expect(200);
    await write('Before').expect(201);

    // The monitor and the error filter log the outage, as they should: captured, not printed.
    logs = captureExpectedLogs();
    cut();
    const started = Date.now();
    const res = await http().get('/cal/events/v1/events');
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.body).toEqual(
      wpError(
        503,
        'rest_db_unavailable',
        'The database is not available at the moment. Please try again shortly.',
      ),
    );
    // Bounded, not hanging (the monitor notices a database that answers nothing within ~2 s,
    // one that refuses at once; generous margin for slow CI).
    expect(elapsed).toBeLessThan(5000);
    const hu = await http().get('/hu/cal/events/v1/events').expect(503);
    expect(hu.body.message).toBe('Az adatbázis jelenleg nem érhető el. Próbáld újra hamarosan.');
    await http().get('/health').expect(503);
    await write('During').expect(503);

    restore();
    let healthy = false;
    for (let i = 0; i < 60 && !healthy; i++) {
      healthy = (await http().get('/health')).status === 200;
      if (!healthy) await new Promise((r) => setTimeout(r, 250));
    }
    expect(healthy).toBe(true);
    for (let i = 0; i < 20; i++) {
      if ((await http().get('/cal/events/v1/events')).status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const after = await http().get('/cal/events/v1/events').expect(200);
    expect(after.body.events.map((e: { title: string }) => e.title)).toEqual(['Before']);
    logs.restore();
    expect(logs.lines).toContainEqual(
      expect.stringMatching(/^ERROR DatabaseMonitor: database unavailable: /),
    );
  });
});
