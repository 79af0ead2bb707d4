import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config.js';
import { migrations } from './migrations/index.js';
import { ensureMathFunctions, type SqliteConnection } from './sqlite-math.js';

/** How long a MySQL/MariaDB query may run before the driver gives up on it (and its connection). */
export const QUERY_TIMEOUT_MS = 10_000;

/**
 * The options shared by the app, the CLI, the migration script and the tests, without entities:
 * those that map rows add them (`entities` in src/entities.ts); migrations need none.
 */
export function dataSourceOptions(
  config: Pick<AppConfig, 'database' | 'migrationsRun'> & Partial<Pick<AppConfig, 'replicas'>>,
  /** Connections of a MySQL/MariaDB pool (the dispatcher thread needs fewer than requests). */
  poolSize = 10,
): DataSourceOptions {
  const common = {
    migrations,
    synchronize: false,
    migrationsRun: config.migrationsRun,
    // Failed queries surface as errors (logged by WpErrorFilter when unexpected); expected ones,
    // such as a unique-slug race lost and retried, must not flood the log.
    logging: false,
  };
  const db = config.database;
  if (db.type === 'sqlite') {
    const memory = db.path === ':memory:';
    if (!memory) {
      try {
        mkdirSync(dirname(resolve(db.path)), { recursive: true });
      } catch {
        // prepareSqliteDirectory() has reported this before start-up (an exception thrown here
        // would stall Nest's start-up without a word).
      }
    }
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.path,
      // WAL lets the CLI write while the server runs on the same file (CONTRACT §2).
      enableWAL: !memory,
      timeout: 5000,
      // The events list's geofence needs sin, cos and radians in SQL.
      prepareDatabase: (connection: SqliteConnection) => {
        ensureMathFunctions(connection);
      },
    };
  }
  return {
    ...common,
    // TypeORM applies MariaDB's dialect only for type 'mariadb'; mysql:// keeps MySQL 8's.
    type: db.type,
    ...connectionOf(db, config.replicas ?? []),
    charset: 'utf8mb4_unicode_ci',
    // A dead or black-holed server must fail fast (DatabaseMonitor answers 503 meanwhile):
    // handshakes give up after 2 s, queries after 10 s (mysql2 then drops the connection).
    connectTimeout: 2000,
    enableQueryTimeout: true,
    maxQueryExecutionTime: QUERY_TIMEOUT_MS,
    poolSize,
    // mysql2 captures a stack trace at every query for its errors' stacks: a few per cent of the
    // CPU of every request, for stacks our error answers and logs never show.
    trace: false,
    // Writes send statements whose answer they do not read together with the next one, in one
    // round trip (statement-batch.ts). Every value still goes as a parameter, escaped by the
    // driver; no statement is built from a request's text.
    multipleStatements: true,
    extra: { connectionLimit: poolSize, enableKeepAlive: true },
  };
}

type Credentials = {
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
};
const credentials = (db: Credentials): Credentials => ({
  host: db.host,
  port: db.port,
  username: db.username,
  password: db.password,
  database: db.database,
});

/**
 * The primary alone, or with DATABASE_REPLICA_URLS TypeORM's replication: writes and
 * transactions on the primary (`master`), and reads on the primary too unless ReplicaRouter
 * sends a request's reads to a replica that has caught up (`defaultMode: 'master'`). A replica
 * that fails is retried after a second.
 */
function connectionOf(primary: Credentials, replicas: Credentials[]) {
  if (replicas.length === 0) return credentials(primary);
  return {
    replication: {
      master: credentials(primary),
      slaves: replicas.map(credentials),
      defaultMode: 'master' as const,
      canRetry: true,
      removeNodeErrorCount: 1,
      restoreNodeTimeout: 1000,
    },
  };
}
