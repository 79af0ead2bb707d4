import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection } from 'mysql2/promise';
import { basic } from '../helpers/auth.js';
import { isMysql } from '../helpers/database.js';
import {
  canRunMariadb,
  startPrimaryAndReplica,
  type MariadbServer,
} from '../helpers/mariadb-pair.js';
import { assertBuilt, freePort, startServer, stop } from '../helpers/spawn.js';

const AUTH = basic('admin', 'replica-admin-passphrase');
const DB = 'cal_replication_test';

/**
 * DATABASE_REPLICA_URLS against a MariaDB primary and replica started here, on their own ports
 * and data directories: reads go to the replica once it has caught up, a client reads its own
 * write at once even when the replica lags, /health reports each connection, and a replica that
 * goes away is skipped and used again when it returns.
 */
// Runs once, in the MariaDB suite (it starts its own servers, whatever TEST_DATABASE_URL is);
// skipped on SQLite and where MariaDB's binaries are not installed.
const enabled = isMysql() && canRunMariadb();

/** What these tests read of the answers: /health and an event. */
interface Answer {
  id: number;
  title: string;
  replicas: { name: string; status: string; behind: number }[];
  database: { status: string };
}
(enabled ? describe : describe.skip)(
  'read replicas (MariaDB suite only, with mariadbd installed: starts its own primary and replica)',
  () => {
    let pair: Awaited<ReturnType<typeof startPrimaryAndReplica>>;
    let api: ChildProcess;
    let url: string;
    let onReplica: Connection;

    const get = async (path: string) => {
      const res = await fetch(`${url}${path}`);
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}/cal/events/v1${path}`, {
        method,
        headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const until = async (check: () => Promise<boolean>, what: string) => {
      for (let i = 0; i < 200; i++) {
        if (await check()) return;
        await sleep(50);
      }
      throw new Error(`not within 10 s: ${what}`);
    };
    const replicaHealth = async () => (await get('/health')).body.replicas[0];
    const mariadbUrl = (server: MariadbServer) => `mariadb://root@127.0.0.1:${server.port}/${DB}`;

    beforeAll(async () => {
      assertBuilt();
      pair = await startPrimaryAndReplica();
      const conn = await pair.primary.connect();
      await conn.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await conn.end();
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      ({ child: api } = await startServer(
        {
          DATABASE_URL: mariadbUrl(pair.primary),
          DATABASE_REPLICA_URLS: mariadbUrl(pair.replica),
          PORT: String(port),
          HOST: '127.0.0.1',
          ADMIN_LOGIN: 'admin',
          ADMIN_PASSWORD: 'replica-admin-passphrase',
          LOG_REQUESTS: 'false',
          // Every read reaches the database, so each one shows where it was routed.
          RESPONSE_CACHE_TTL_MS: '0',
        },
        60_000,
      ));
      onReplica = await pair.replica.connect();
    }, 120_000);

    afterAll(async () => {
      await onReplica?.end().catch(() => undefined);
      await stop(api);
      await pair?.cleanUp();
    });

    it('reports the replica in /health once it has caught up', async () => {
      await until(async () => (await replicaHealth())?.status === 'up', 'replica up');
      const health = await get('/health');
      expect(health.status).toBe(200);
      expect(health.body.replicas).toEqual([
        { name: `127.0.0.1:${pair.replica.port}`, status: 'up', behind: 0 },
      ]);
    });

    it('reads from the replica, and a writer reads its own write while the replica lags', async () => {
      const created = await send('POST', '/events', {
        title: 'Replicated',
        start_date: '2030-05-01 10:00',
        end_date: '2030-05-01 12:00',
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      await until(async () => (await replicaHealth()).behind === 0, 'replica caught up');

      // Replication paused, and a mark only the replica has: reads that show it came from it.
      await onReplica.query('STOP SLAVE');
      await onReplica.query(`UPDATE ${DB}.events SET title = 'Only on the replica' WHERE id = ?`, [
        id,
      ]);
      await until(
        async () => (await get(`/cal/events/v1/events/${id}`)).body.title === 'Only on the replica',
        'a read served by the replica',
      );

      // A write the replica does not have: the next read comes from the primary.
      const updated = await send('POST', `/events/${id}`, { title: 'Written to the primary' });
      expect(updated.status).toBe(200);
      for (let i = 0; i < 5; i++) {
        expect((await get(`/cal/events/v1/events/${id}`)).body.title).toBe(
          'Written to the primary',
        );
      }
      // Polled: once, under the load of the whole suite, /health answered 0 right after the
      // write (not reproduced alone, nor under other load); the lag must show within the bound.
      await until(async () => (await replicaHealth()).behind >= 1, 'the replica reported behind');

      await onReplica.query('START SLAVE');
      await until(async () => (await replicaHealth()).behind === 0, 'replica caught up again');
      expect((await get(`/cal/events/v1/events/${id}`)).body.title).toBe('Written to the primary');
    });

    it('skips a replica that goes away, and uses it again when it comes back', async () => {
      await onReplica.end();
      await pair.replica.stop('SIGKILL');
      // Reads keep being answered (from the primary) while the replica is gone.
      for (let i = 0; i < 10; i++) {
        const list = await get('/cal/events/v1/events?start_date=2000-01-01');
        expect(list.status).toBe(200);
      }
      await until(async () => (await replicaHealth()).status === 'down', 'replica reported down');
      const health = await get('/health');
      expect(health.status).toBe(200);
      expect(health.body.database.status).toBe('up');

      const created = await send('POST', '/events', {
        title: 'While the replica was away',
        start_date: '2030-06-01 10:00',
        end_date: '2030-06-01 12:00',
      });
      expect(created.status).toBe(201);
      expect((await get(`/cal/events/v1/events/${created.body.id}`)).status).toBe(200);

      await pair.replica.start(); // resumes replicating from where it stopped
      await until(async () => {
        const replica = await replicaHealth();
        return replica.status === 'up' && replica.behind === 0;
      }, 'replica back and caught up');
      onReplica = await pair.replica.connect();
      await onReplica.query('STOP SLAVE');
      await onReplica.query(`UPDATE ${DB}.events SET title = 'Back on the replica' WHERE id = ?`, [
        created.body.id,
      ]);
      await until(
        async () =>
          (await get(`/cal/events/v1/events/${created.body.id}`)).body.title ===
          'Back on the replica',
        'reads served by the replica again',
      );
    });
  },
);
