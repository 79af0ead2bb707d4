import { isIP, isIPv4 } from 'node:net';
import { availableParallelism } from 'node:os';
import { IANAZone } from 'luxon';
import { ConfigError } from './config-error.js';
import { isLanguage, LANGUAGES, type Language } from './languages.js';
import { MIN_PASSWORD_LENGTH, passwordLength } from './passwords.js';
import { parseOperations, type OperationsConfig } from './operations.js';
import { parseWebhookConfig, type WebhookConfig } from './webhooks.js';
import { message, type Message } from './messages.js';

/** GEOFENCE_UNIT=mi: kilometres in a statute mile. */
const KM_PER_MILE = 1.609344;

export { isLanguage, LANGUAGES, type Language };

export type DatabaseConfig =
  | { type: 'sqlite'; path: string }
  | {
      type: 'mysql' | 'mariadb';
      host: string;
      port: number;
      username: string;
      password: string;
      database: string;
    };

export interface AppConfig extends OperationsConfig {
  database: DatabaseConfig;
  databaseUrl: string;
  port: number;
  host: string;
  /** REST root, `''` or `/wp-json` (leading slash, no trailing slash). */
  basePath: string;
  /** Public origin without a trailing slash. */
  siteUrl: string;
  siteTimezone: string;
  defaultLanguage: Language;
  admin: { login: string; password: string } | null;
  migrationsRun: boolean;
  corsOrigins: '*' | string[];
  maxPerPage: number;
  /** JSON request log lines on standard output. */
  logRequests: boolean;
  /** Lifetime of a cached anonymous GET answer (writes invalidate it at once); 0 turns it off. */
  responseCacheTtlMs: number;
  /**
   * RECORD_CACHE_MB: memory for payloads of single records shared by every URL (RecordCache);
   * 0 turns it off; by default 64, or 0 when RESPONSE_CACHE_TTL_MS is 0.
   */
  recordCacheMb: number;
  /** Express `trust proxy`: whether and which proxies' `X-Forwarded-For` gives the client address. */
  trustProxy: TrustProxy;
  loginThrottle: LoginThrottleConfig;
  /** BENCH_ROUTES: the framework-ceiling route of `npm run bench` (never in a deployment). */
  benchRoutes: boolean;
  /** Connection attempts after the first failed one at start; none under test (NODE_ENV=test). */
  databaseRetries: number;
  /** The events list's geofence (`geoloc_lat` + `geoloc_lng`): its radius as set, and in km. */
  geofence: { radius: number; unit: 'mi' | 'km'; radiusKm: number };
  /**
   * PLUGIN_NAMESPACE_ALIAS: the interface also served as the plugin's `tribe/events/v1` at
   * WordPress's REST root (`/wp-json/tribe/events/v1`), with the plugin's names in the payloads.
   */
  pluginNamespaceAlias: boolean;
  /** DATABASE_REPLICA_URLS: read replicas of the MySQL/MariaDB primary (DATABASE_URL). */
  replicas: Array<Exclude<DatabaseConfig, { type: 'sqlite' }>>;
  /** REDIS_URL: shared invalidation messages and login throttle counters; null = none. */
  redisUrl: string | null;
  /** WORKERS: server processes sharing the port (node:cluster); 1 = this process serves alone. */
  workers: number;
  /**
   * PUBLIC_URL_TEMPLATE: where published records' `url`s point when the site has its own front
   * end (`{type}`, `{slug}`, `{id}`, `{lang}`); set, this service's record pages are off.
   */
  publicUrlTemplate?: string;
  /** The WEBHOOK_* settings (config/webhooks.ts). */
  webhooks: WebhookConfig;
}

/** `false` (ignore X-Forwarded-For), `true` (trust every hop), a hop count, or trusted addresses. */
type TrustProxy = boolean | number | string[];

/** At most `max` failed logins within a fixed window of `windowMs` from the first one. */
interface FailureLimit {
  max: number;
  windowMs: number;
}

export interface LoginThrottleConfig {
  /** Failures of one login from one address (always applies). */
  perLoginAndAddress: FailureLimit;
  /** Failures from one address, any login (password spraying). */
  perAddress: FailureLimit;
  /** Failures of one login, any address (distributed guessing). */
  perLogin: FailureLimit;
  /**
   * How long an address that authenticated as a login stays trusted for that login: the
   * per-address and per-login limits do not apply to it.
   */
  trustedForMs: number;
}

/** The placeholder that README and docker/compose.yaml show; it must be replaced. */
export const EXAMPLE_ADMIN_PASSWORD = 'change-me-to-a-long-passphrase';

export { ConfigError };

type Env = Record<string, string | undefined>;

export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new ConfigError('DATABASE_URL', message('config.sqlite_no_path'));
    return { type: 'sqlite', path };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL', message('config.not_url', { value: url }));
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (scheme !== 'mysql' && scheme !== 'mariadb') {
    throw new ConfigError('DATABASE_URL', message('config.database_scheme', { scheme }));
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database) throw new ConfigError('DATABASE_URL', message('config.no_database'));
  return {
    type: scheme,
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    username: decodeURIComponent(parsed.username || 'root'),
    password: decodeURIComponent(parsed.password),
    database,
  };
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError('PORT', message('config.port', { value: raw }));
  }
  return Number(raw);
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, message('config.boolean', { value: raw }));
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(name, message('config.positive_integer', { value: raw }));
  }
  return Number(raw);
}

/**
 * GEOFENCE_RADIUS (a positive decimal, default 25) in GEOFENCE_UNIT (`mi` or `km`, default `mi`):
 * the premium extension's "map view search distance limit" and its unit.
 */
function parseGeofence(env: Env): AppConfig['geofence'] {
  const rawUnit = env.GEOFENCE_UNIT?.trim().toLowerCase() || 'mi';
  if (rawUnit !== 'mi' && rawUnit !== 'km') {
    throw new ConfigError(
      'GEOFENCE_UNIT',
      message('config.geofence_unit', { value: String(env.GEOFENCE_UNIT) }),
    );
  }
  const raw = env.GEOFENCE_RADIUS?.trim() ?? '';
  const radius = raw === '' ? 25 : /^\d{1,9}(?:\.\d{1,9})?$/.test(raw) ? Number(raw) : NaN;
  if (!(radius > 0)) {
    throw new ConfigError(
      'GEOFENCE_RADIUS',
      message(`config.geofence_radius_${rawUnit === 'mi' ? 'mi' : 'km'}`, {
        value: String(env.GEOFENCE_RADIUS),
      }),
    );
  }
  return { radius, unit: rawUnit, radiusKm: rawUnit === 'mi' ? radius * KM_PER_MILE : radius };
}

function parseNonNegativeInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    throw new ConfigError(name, message('config.whole_number', { value: raw }));
  }
  return Number(raw);
}

/**
 * `value` without its trailing `/`s, by a scan from the end (the pattern `/\/+$/` retried every
 * run of slashes from each of its positions: quadratic, found by the ReDoS audit).
 */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === '/') end--;
  return value.slice(0, end);
}

function parseBasePath(raw: string | undefined): string {
  const trimmed = withoutTrailingSlashes((raw ?? '').trim());
  if (!trimmed) return '';
  if (!/^[A-Za-z0-9._~\-/]+$/.test(trimmed)) {
    throw new ConfigError('BASE_PATH', message('config.base_path', { value: String(raw) }));
  }
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** A hostname (RFC 1123 labels) or an IP address; all-digit dotted names must be real IPv4. */
function parseHost(raw: string | undefined): string {
  const host = raw?.trim() || '0.0.0.0';
  const unbracketed = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed)) return unbracketed;
  const label = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  const labels = host.split('.');
  const numeric = /^[\d.]+$/.test(host);
  if (numeric || host.length > 253 || !labels.every((l) => label.test(l))) {
    throw new ConfigError('HOST', message('config.host', { value: host }));
  }
  return host;
}

/**
 * `*`, or origins as browsers send them in `Origin`: scheme://host[:port], nothing after. An
 * entry with a path or a trailing slash would never match, so it is refused rather than ignored.
 */
function parseCorsOrigins(raw: string | undefined): '*' | string[] {
  const value = raw?.trim() || '*';
  if (value === '*') return '*';
  const entries = value.split(',').map((o) => o.trim());
  const fail = (why: Message): never => {
    throw new ConfigError('CORS_ORIGINS', message('config.cors', { why }));
  };
  return entries.map((entry) => {
    if (!entry) return fail(message('config.cors_empty', { value }));
    if (entry === '*') return fail(message('config.cors_star'));
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return fail(message('config.cors_not_origin', { value: entry }));
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) {
      return fail(message('config.cors_not_http', { value: entry }));
    }
    if (entry !== url.origin) {
      return fail(message('config.cors_never_matches', { value: entry, origin: url.origin }));
    }
    return entry;
  });
}

/** Both or neither: one without the other would start and silently create nobody. */
function parseAdmin(env: Env): AppConfig['admin'] {
  const login = env.ADMIN_LOGIN?.trim();
  const password = env.ADMIN_PASSWORD;
  if (!login && !password) return null;
  if (!login) throw new ConfigError('ADMIN_PASSWORD', message('config.admin_login_missing'));
  if (!password) throw new ConfigError('ADMIN_LOGIN', message('config.admin_password_missing'));
  checkAdminPassword(password);
  return { login, password };
}

/** An http(s) URL naming the record by `{slug}` or `{id}`, or nothing. */
function parsePublicUrlTemplate(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let valid = false;
  try {
    const url = new URL(value.split('{').join('x').split('}').join('x'));
    valid = url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    valid = false;
  }
  if (!valid || (!value.includes('{slug}') && !value.includes('{id}'))) {
    throw new ConfigError('PUBLIC_URL_TEMPLATE', message('config.public_url_template', { value }));
  }
  return value;
}

function parseSiteUrl(raw: string | undefined, port: number): string {
  const value = raw && raw.trim() ? raw.trim() : `http://localhost:${port}`;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError('SITE_URL', message('config.http_url', { value }));
  }
  return withoutTrailingSlashes(value);
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

function parseDuration(name: string, raw: string | undefined, fallbackMs: number): number {
  if (raw === undefined || raw.trim() === '') return fallbackMs;
  const match = DURATION.exec(raw.trim());
  if (!match || Number(match[1]) < 1) {
    throw new ConfigError(name, message('config.duration', { value: raw }));
  }
  return Number(match[1]) * DURATION_UNITS[match[2]];
}

function parseFailureLimit(
  name: string,
  raw: string | undefined,
  fallback: FailureLimit,
): FailureLimit {
  if (raw === undefined || raw.trim() === '') return fallback;
  const slash = raw.indexOf('/');
  const count = raw.slice(0, slash).trim();
  const max = Number(count);
  if (slash < 0 || !/^\d{1,9}$/.test(count) || max < 1) {
    throw new ConfigError(name, message('config.rate', { value: raw }));
  }
  return { max, windowMs: parseDuration(name, raw.slice(slash + 1), 0) };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One `trust proxy` entry as Express (proxy-addr) reads it: a name, an address, address/prefix or address/netmask. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (!family) return false;
  if (slash < 0) return true;
  const range = entry.slice(slash + 1);
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIPv4(range);
}

function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || /^false$/i.test(value)) return false;
  if (/^true$/i.test(value)) return true;
  if (/^\d{1,3}$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value.split(',').map((e) => e.trim().toLowerCase());
  const bad = entries.find((e) => !isProxyEntry(e));
  if (bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', message('config.trust_proxy', { value: bad }));
  }
  return entries;
}

/** ADMIN_PASSWORD is chosen by a person: refuse a short one, and the documentation's placeholder. */
function checkAdminPassword(password: string): void {
  if (password.trim() === EXAMPLE_ADMIN_PASSWORD) {
    throw new ConfigError(
      'ADMIN_PASSWORD',
      message('config.admin_password_example', { count: MIN_PASSWORD_LENGTH }),
    );
  }
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) {
    throw new ConfigError(
      'ADMIN_PASSWORD',
      message('config.admin_password_short', {
        count: MIN_PASSWORD_LENGTH,
        length: passwordLength(password),
      }),
    );
  }
}

/** Reads and validates the environment once; every problem names its variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || 'sqlite:./data/calendar.sqlite';
  const port = parsePort(env.PORT);
  const siteTimezone = env.SITE_TIMEZONE?.trim() || 'UTC';
  if (siteTimezone !== 'UTC' && !IANAZone.isValidZone(siteTimezone)) {
    throw new ConfigError('SITE_TIMEZONE', message('config.time_zone', { value: siteTimezone }));
  }
  const defaultLanguage = env.DEFAULT_LANGUAGE?.trim() || 'en';
  if (!isLanguage(defaultLanguage)) {
    throw new ConfigError(
      'DEFAULT_LANGUAGE',
      message('config.one_of', { values: LANGUAGES.join(', '), value: defaultLanguage }),
    );
  }
  const responseCacheTtlMs = parseNonNegativeInt(
    'RESPONSE_CACHE_TTL_MS',
    env.RESPONSE_CACHE_TTL_MS,
    1000,
  );
  return {
    database: parseDatabaseUrl(databaseUrl),
    databaseUrl,
    port,
    host: parseHost(env.HOST),
    basePath: parseBasePath(env.BASE_PATH),
    siteUrl: parseSiteUrl(env.SITE_URL, port),
    siteTimezone,
    defaultLanguage,
    admin: parseAdmin(env),
    migrationsRun: parseBool('MIGRATIONS_RUN', env.MIGRATIONS_RUN, true),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    maxPerPage: parsePositiveInt('MAX_PER_PAGE', env.MAX_PER_PAGE, 50),
    logRequests: parseBool('LOG_REQUESTS', env.LOG_REQUESTS, true),
    responseCacheTtlMs,
    // Turning the response cache off (something else writes to the database) turns this one
    // off too, unless it is set.
    recordCacheMb: parseNonNegativeInt(
      'RECORD_CACHE_MB',
      env.RECORD_CACHE_MB,
      responseCacheTtlMs > 0 ? 64 : 0,
    ),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    loginThrottle: {
      perLoginAndAddress: parseFailureLimit(
        'LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS',
        env.LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS,
        { max: 10, windowMs: 15 * 60_000 },
      ),
      perAddress: parseFailureLimit('LOGIN_FAILURES_PER_ADDRESS', env.LOGIN_FAILURES_PER_ADDRESS, {
        max: 50,
        windowMs: 15 * 60_000,
      }),
      perLogin: parseFailureLimit('LOGIN_FAILURES_PER_LOGIN', env.LOGIN_FAILURES_PER_LOGIN, {
        max: 30,
        windowMs: 15 * 60_000,
      }),
      trustedForMs: parseDuration('LOGIN_TRUSTED_FOR', env.LOGIN_TRUSTED_FOR, 30 * 86_400_000),
    },
    benchRoutes: parseBool('BENCH_ROUTES', env.BENCH_ROUTES, false),
    publicUrlTemplate: parsePublicUrlTemplate(env.PUBLIC_URL_TEMPLATE),
    // Under test a bad connection must fail at once, not after minutes of retries.
    databaseRetries: env.NODE_ENV === 'test' ? 0 : 5,
    geofence: parseGeofence(env),
    pluginNamespaceAlias: parseBool('PLUGIN_NAMESPACE_ALIAS', env.PLUGIN_NAMESPACE_ALIAS, true),
    replicas: parseReplicaUrls(env.DATABASE_REPLICA_URLS, databaseUrl),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    workers: parseWorkers(env.WORKERS, databaseUrl),
    ...parseOperations(env),
    webhooks: parseWebhookConfig(env),
  };
}

/** DATABASE_REPLICA_URLS: comma-separated URLs of replicas, of the primary's kind (MySQL/MariaDB). */
function parseReplicaUrls(raw: string | undefined, databaseUrl: string): AppConfig['replicas'] {
  const urls = (raw ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 0) return [];
  const primary = parseDatabaseUrl(databaseUrl);
  return urls.map((url) => {
    let replica: DatabaseConfig;
    try {
      replica = parseDatabaseUrl(url);
    } catch (error) {
      if (error instanceof ConfigError)
        throw new ConfigError('DATABASE_REPLICA_URLS', error.reason);
      throw error;
    }
    if (replica.type === 'sqlite' || replica.type !== primary.type) {
      throw new ConfigError(
        'DATABASE_REPLICA_URLS',
        message('config.replica_kind', { type: primary.type, value: url }),
      );
    }
    return replica;
  });
}

/** REDIS_URL: `redis://[user:pass@]host[:port][/db]` or `rediss://` (TLS); empty = no Redis. */
function parseRedisUrl(raw: string | undefined): string | null {
  const value = raw?.trim() ?? '';
  if (value === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError('REDIS_URL', message('config.not_url', { value }));
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    throw new ConfigError('REDIS_URL', message('config.redis_url', { value }));
  }
  return value;
}

/** Most workers accepted: far beyond any machine's cores, low enough to catch a typo. */
const MAX_WORKERS = 64;

/**
 * WORKERS: a number or `auto` (the cores available). Default 1 on every database. SQLite
 * refuses more than one: its caches could not learn of another process's writes (CONTRACT §2).
 */
function parseWorkers(raw: string | undefined, databaseUrl: string): number {
  const value = raw?.trim().toLowerCase() ?? '';
  let workers = 1;
  if (value === 'auto') workers = Math.min(MAX_WORKERS, availableParallelism());
  else if (value !== '') {
    if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_WORKERS) {
      throw new ConfigError(
        'WORKERS',
        message('config.workers', { max: MAX_WORKERS, value: String(raw) }),
      );
    }
    workers = Number(value);
  }
  if (workers > 1 && databaseUrl.startsWith('sqlite:')) {
    throw new ConfigError('WORKERS', message('config.workers_sqlite', { value }));
  }
  return workers;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Where REDIS_URL points, without its password: `127.0.0.1:6379`. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`;
  } catch {
    return 'an address that is not a URL';
  }
}
