import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createConnection, type Connection } from 'mysql2/promise';
import { freePort } from './spawn.js';

const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = 'mariadb-install-db';

/** Whether this machine can start MariaDB servers of its own (the binaries are installed). */
export const canRunMariadb = () =>
  existsSync(MARIADBD) && spawnSync('which', [INSTALL_DB], { stdio: 'ignore' }).status === 0;

export interface MariadbServer {
  port: number;
  dir: string;
  child?: ChildProcess;
  start(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  connect(): Promise<Connection>;
}

/** `dir`'s own temporary folder, beside it (created when missing). */
function ownTmpdir(dir: string): string {
  const path = `${dir}-tmp`;
  mkdirSync(path, { recursive: true });
  return path;
}

/** A MariaDB server on its own port and data directory (no password for root over TCP). */
function server(dir: string, port: number, serverId: number, extra: string[]): MariadbServer {
  const self: MariadbServer = {
    port,
    dir,
    async start() {
      self.child = spawn(
        MARIADBD,
        [
          '--no-defaults',
          '--user=root',
          `--datadir=${dir}`,
          `--port=${port}`,
          '--bind-address=127.0.0.1',
          `--socket=${dir}.sock`,
          `--pid-file=${dir}.pid`,
          // A temporary folder of its own: a starting server deletes every `#sql*` file in its
          // tmpdir, and with the shared /tmp it deleted the on-disk temporary tables of the
          // machine's server on 3306 in the middle of their queries (which then crashed it:
          // signal 11 in ha_maria::drop_table).
          `--tmpdir=${ownTmpdir(dir)}`,
          `--server-id=${serverId}`,
          '--innodb-buffer-pool-size=32M',
          '--character-set-server=utf8mb4',
          '--collation-server=utf8mb4_unicode_ci',
          ...extra,
        ],
        { stdio: 'ignore', env: { ...process.env, TMPDIR: ownTmpdir(dir) } },
      );
      for (let i = 0; i < 100; i++) {
        try {
          await (await self.connect()).end();
          return;
        } catch {
          await sleep(100);
        }
      }
      throw new Error(`MariaDB on port ${port} did not start`);
    },
    stop(signal = 'SIGTERM') {
      const child = self.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
    connect: () =>
      createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 }),
  };
  return self;
}

/**
 * A primary and a replica, each on its own port and data directory under a temporary folder,
 * the replica following the primary (binary log, GTID). Nothing of the shared server on 3306.
 */
export async function startPrimaryAndReplica(): Promise<{
  primary: MariadbServer;
  replica: MariadbServer;
  cleanUp(): Promise<void>;
}> {
  const root = mkdtempSync(join(tmpdir(), 'cal-replication-'));
  const install = spawnSync(
    INSTALL_DB,
    [
      '--no-defaults',
      `--datadir=${join(root, 'primary')}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { stdio: 'ignore', env: { ...process.env, TMPDIR: ownTmpdir(join(root, 'primary')) } },
  );
  if (install.status !== 0) throw new Error('mariadb-install-db failed');
  // Both start from the same empty data directory; the binary log starts after the copy.
  cpSync(join(root, 'primary'), join(root, 'replica'), { recursive: true });
  const primary = server(join(root, 'primary'), await freePort(), 1, [
    `--log-bin=${join(root, 'primary-bin')}`,
  ]);
  const replica = server(join(root, 'replica'), await freePort(), 2, ['--read-only=1']);
  await Promise.all([primary.start(), replica.start()]);
  const conn = await replica.connect();
  await conn.query(
    `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, MASTER_USER='root',
     MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1`,
  );
  await conn.query('START SLAVE');
  await conn.end();
  return {
    primary,
    replica,
    async cleanUp() {
      await Promise.all([primary.stop(), replica.stop()]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
