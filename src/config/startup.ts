import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cliMessages, message, type Message, type Translate } from './messages.js';
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

/**
 * The one line `npm start` prints once the server listens. `redis` is whether REDIS_URL answered
 * at start-up (`/health` says it later): a Redis that does not answer is not in use until it does.
 */
export function startupSummary(config: AppConfig, redis: 'up' | 'down' = 'up'): string {
  const everywhere = config.host === '0.0.0.0' || config.host === '::';
  const listener = hostPort(config);
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
    ...(config.metrics ? [`metrics http://${hostPort(config.metrics)}/metrics`] : []),
    !config.redisUrl
      ? 'redis off'
      : redis === 'up'
        ? `redis ${redisAddress(config.redisUrl)}`
        : `redis ${redisAddress(config.redisUrl)} not answering (each process works alone until it does; /health shows when)`,
  ].join(' | ');
}

function hostPort({ host, port }: { host: string; port: number }): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

interface ErrorLike {
  code?: unknown;
  port?: unknown;
  errno?: unknown;
  syscall?: unknown;
  message?: unknown;
}

/**
 * A start-up failure as one line that says what to do, in the language of `t` (the operator's,
 * from LC_ALL, LC_MESSAGES or LANG; English by default), or null when the error is not one we
 * know (the caller then prints its message). Shared by the server, the CLI and the migrations.
 */
export function describeStartupError(
  error: unknown,
  config: Pick<AppConfig, 'database' | 'host' | 'port'> & Partial<Pick<AppConfig, 'metrics'>>,
  t: Translate = cliMessages('en').t,
): string | null {
  const m = startupProblem(error, config);
  return m ? t(m.key, m.args) : null;
}

function startupProblem(
  error: unknown,
  config: Pick<AppConfig, 'database' | 'host' | 'port'> & Partial<Pick<AppConfig, 'metrics'>>,
): Message | null {
  const e = (error ?? {}) as ErrorLike;
  const db = config.database;
  const where = db.type === 'sqlite' ? '' : `${db.host}:${db.port}`;
  if (e.syscall === 'listen') {
    // The metrics listener (METRICS_PORT, METRICS_HOST) fails the start as the server's own does.
    const metrics = config.metrics;
    const [variable, hostVariable, host, port] =
      metrics && e.port === metrics.port && metrics.port !== config.port
        ? ['METRICS_PORT', 'METRICS_HOST', metrics.host, metrics.port]
        : ['PORT', 'HOST', config.host, config.port];
    const at = `${host}:${port}`;
    if (e.code === 'EADDRINUSE') return message('config.startup.port_in_use', { at, variable });
    if (e.code === 'EADDRNOTAVAIL') {
      return message('config.startup.address_not_here', { at, host, hostVariable });
    }
    if (e.code === 'EACCES') return message('config.startup.port_privileged', { at, variable });
  }
  if (e.code === 'ENOTFOUND' && e.syscall === 'getaddrinfo') {
    return db.type !== 'sqlite' && typeof e.message === 'string' && e.message.includes(db.host)
      ? message('config.startup.database_host_unknown', { host: db.host })
      : message('config.startup.host_unknown', { host: config.host });
  }
  if (db.type === 'sqlite') {
    if (e.code === 'SQLITE_NOTADB') return message('config.startup.not_sqlite', { path: db.path });
    if (e.code === 'SQLITE_CANTOPEN' || e.code === 'EACCES' || e.code === 'ENOTDIR') {
      return message('config.startup.sqlite_cannot_open', {
        path: db.path,
        reason: String(e.message),
      });
    }
    return null;
  }
  switch (e.code) {
    case 'ER_BAD_DB_ERROR':
      return message('config.startup.no_such_database', { database: db.database, where });
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return message('config.startup.database_refused_user', {
        where,
        user: db.username,
        reason: String(e.message),
      });
    case 'ECONNREFUSED':
      return message('config.startup.database_refused', { where });
    case 'ETIMEDOUT':
      return message('config.startup.database_timeout', { where });
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
        ? message('config.file_in_the_way')
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? message('config.permission_denied')
          : (code ?? String(error));
    throw new ConfigError(
      'DATABASE_URL',
      message('config.sqlite_directory', { path: db.path, dir, reason }),
    );
  }
}
