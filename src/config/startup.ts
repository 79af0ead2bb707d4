import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  ConfigError,
  LANGUAGES,
  redisAddress,
  type AppConfig,
  type DatabaseConfig,
} from './config.js';

/** Where the database is, without its password: `mariadb root@127.0.0.1:3306/cal`. */
export function describeDatabase(db: DatabaseConfig): string {
  if (db.type === 'sqlite') return `sqlite ${db.path}`;
  return `${db.type} ${db.username}@${db.host}:${db.port}/${db.database}`;
}

/** The one line `npm start` prints once the server listens. */
export function startupSummary(config: AppConfig): string {
  const everywhere = config.host === '0.0.0.0' || config.host === '::';
  const listener = `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const languages = LANGUAGES.map((l) => (l === config.defaultLanguage ? `${l} (default)` : l));
  const cache = config.responseCacheTtlMs
    ? `response cache ${config.responseCacheTtlMs} ms`
    : 'response cache off';
  return [
    `cal/events/v1 listening on ${listener}${everywhere ? ' (all interfaces)' : ''}`,
    `${config.siteUrl}${config.basePath}/cal/events/v1`,
    `database ${describeDatabase(config.database)}`,
    `languages ${languages.join(', ')}`,
    cache,
    config.redisUrl ? `redis ${redisAddress(config.redisUrl)}` : 'redis off',
  ].join(' | ');
}

interface ErrorLike {
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  message?: unknown;
}

/**
 * A start-up failure as one line that says what to do, or null when the error is not one we
 * know (the caller then prints its message). Shared by the server, the CLI and the migrations.
 */
export function describeStartupError(
  error: unknown,
  config: Pick<AppConfig, 'database' | 'host' | 'port'>,
): string | null {
  const e = (error ?? {}) as ErrorLike;
  const db = config.database;
  const where = db.type === 'sqlite' ? '' : `${db.host}:${db.port}`;
  if (e.syscall === 'listen') {
    const at = `${config.host}:${config.port}`;
    if (e.code === 'EADDRINUSE') {
      return `Cannot listen on ${at}: the port is in use by another process (stop it or set PORT)`;
    }
    if (e.code === 'EADDRNOTAVAIL') {
      return `Cannot listen on ${at}: HOST ${config.host} is not an address of this machine (0.0.0.0 listens on all interfaces)`;
    }
    if (e.code === 'EACCES') {
      return `Cannot listen on ${at}: permission denied (ports below 1024 need privileges; set PORT)`;
    }
  }
  if (e.code === 'ENOTFOUND' && e.syscall === 'getaddrinfo') {
    return db.type !== 'sqlite' && typeof e.message === 'string' && e.message.includes(db.host)
      ? `Cannot reach the database: host "${db.host}" of DATABASE_URL does not resolve`
      : `Cannot listen: HOST "${config.host}" does not resolve`;
  }
  if (db.type === 'sqlite') {
    if (e.code === 'SQLITE_NOTADB') {
      return `The file "${db.path}" of DATABASE_URL is not an SQLite database (name a new file, or the server's own database file)`;
    }
    if (e.code === 'SQLITE_CANTOPEN' || e.code === 'EACCES' || e.code === 'ENOTDIR') {
      return `Cannot open the SQLite database "${db.path}" (DATABASE_URL): ${String(e.message)}`;
    }
    return null;
  }
  switch (e.code) {
    case 'ER_BAD_DB_ERROR':
      return (
        `Database "${db.database}" does not exist on ${where} (DATABASE_URL). Create it with: ` +
        `CREATE DATABASE \`${db.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`
      );
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return `The database at ${where} refused user "${db.username}" (DATABASE_URL): ${String(e.message)}`;
    case 'ECONNREFUSED':
      return `Cannot reach the database at ${where} (DATABASE_URL): connection refused; is the server running?`;
    case 'ETIMEDOUT':
      return `Cannot reach the database at ${where} (DATABASE_URL): no answer within the connect timeout`;
  }
  return null;
}

/** Errors that waiting will not fix: retrying them only delays the one-line explanation. */
export function isPermanentDatabaseError(error: unknown): boolean {
  const code = (error as ErrorLike | undefined)?.code;
  return (
    code === 'ER_BAD_DB_ERROR' ||
    code === 'ER_ACCESS_DENIED_ERROR' ||
    code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR' ||
    code === 'ER_DBACCESS_DENIED_ERROR' ||
    code === 'SQLITE_CANTOPEN' ||
    code === 'SQLITE_NOTADB'
  );
}

/**
 * Creates the SQLite file's directory, or says in one line why it cannot: TypeORM's
 * better-sqlite3 driver never settles when the directory is missing, so this runs first.
 */
export function prepareSqliteDirectory(db: DatabaseConfig): void {
  if (db.type !== 'sqlite' || db.path === ':memory:') return;
  const dir = dirname(resolve(db.path));
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'a file is in the way'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'permission denied'
          : (code ?? String(error));
    throw new ConfigError(
      'DATABASE_URL',
      `names the SQLite file "${db.path}", but its directory ${dir} cannot be created or written (${reason})`,
    );
  }
}
