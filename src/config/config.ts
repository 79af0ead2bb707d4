import type { Language } from './languages.js';
import { parseOperations, type OperationsConfig } from './operations.js';
import * as schema from './schema.js';
import type { DatabaseConfig, FailureLimit, TrustProxy } from './values.js';
import { Reader } from './variable.js';
import type { WebhookConfig } from './webhooks.js';

/** GEOFENCE_UNIT=mi: kilometres in a statute mile. */
const KM_PER_MILE = 1.609344;

export { isLanguage, LANGUAGES, type Language } from './languages.js';
export { ConfigError } from './config-error.js';
export { EXAMPLE_ADMIN_PASSWORD, parseDatabaseUrl, type DatabaseConfig } from './values.js';
export { withoutTrailingSlashes } from './variable.js';

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
  /** DEFAULT_VIEW: the calendar view of `/events/`. */
  defaultView: 'month' | 'week' | 'day' | 'list';
  /** EMBED_ORIGINS: who may frame `/embed/` (`*`, origins; empty: nobody but the site). */
  embedOrigins: '*' | string[];
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
  /**
   * BENCH_WITHOUT_EXTENSIONS: the application without its extension modules, for `npm run
   * bench:extensions` to compare the lists with and without them (never in a deployment).
   */
  benchWithoutExtensions: boolean;
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

/**
 * Reads and validates the environment once (the variables of schema.ts, in its order); every
 * problem names its variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const read = new Reader(env);
  for (const variable of schema.VARIABLES) read.get(variable);
  const port = read.get(schema.PORT);
  const login = read.get(schema.ADMIN_LOGIN);
  const password = read.get(schema.ADMIN_PASSWORD);
  const radius = read.get(schema.GEOFENCE_RADIUS);
  const unit = read.get(schema.GEOFENCE_UNIT);
  return {
    database: read.get(schema.DATABASE_URL).database,
    databaseUrl: read.get(schema.DATABASE_URL).url,
    port,
    host: read.get(schema.HOST),
    basePath: read.get(schema.BASE_PATH),
    siteUrl: read.get(schema.SITE_URL),
    siteTimezone: read.get(schema.SITE_TIMEZONE),
    defaultLanguage: read.get(schema.DEFAULT_LANGUAGE),
    admin: login && password ? { login, password } : null,
    migrationsRun: read.get(schema.MIGRATIONS_RUN),
    corsOrigins: read.get(schema.CORS_ORIGINS),
    defaultView: read.get(schema.DEFAULT_VIEW),
    embedOrigins: read.get(schema.EMBED_ORIGINS) ?? [],
    maxPerPage: read.get(schema.MAX_PER_PAGE),
    logRequests: read.get(schema.LOG_REQUESTS),
    responseCacheTtlMs: read.get(schema.RESPONSE_CACHE_TTL_MS),
    recordCacheMb: read.get(schema.RECORD_CACHE_MB),
    trustProxy: read.get(schema.TRUST_PROXY),
    loginThrottle: {
      perLoginAndAddress: read.get(schema.LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS),
      perAddress: read.get(schema.LOGIN_FAILURES_PER_ADDRESS),
      perLogin: read.get(schema.LOGIN_FAILURES_PER_LOGIN),
      trustedForMs: read.get(schema.LOGIN_TRUSTED_FOR),
    },
    benchRoutes: read.get(schema.BENCH_ROUTES),
    benchWithoutExtensions: read.get(schema.BENCH_WITHOUT_EXTENSIONS),
    publicUrlTemplate: read.get(schema.PUBLIC_URL_TEMPLATE),
    databaseRetries: read.get(schema.NODE_ENV) === 'test' ? 0 : 5,
    geofence: { radius, unit, radiusKm: unit === 'mi' ? radius * KM_PER_MILE : radius },
    pluginNamespaceAlias: read.get(schema.PLUGIN_NAMESPACE_ALIAS),
    replicas: read.get(schema.DATABASE_REPLICA_URLS) ?? [],
    redisUrl: read.get(schema.REDIS_URL) ?? null,
    workers: read.get(schema.WORKERS),
    ...parseOperations(read),
    webhooks: {
      allowedTargets: read.get(schema.WEBHOOK_ALLOWED_TARGETS),
      retrySchedule: read.get(schema.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: read.get(schema.WEBHOOK_TIMEOUT),
      secretGraceMs: read.get(schema.WEBHOOK_SECRET_GRACE),
      retentionMs: read.get(schema.WEBHOOK_LOG_RETENTION),
      pollMs: read.get(schema.WEBHOOK_POLL),
    },
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Where schema.REDIS_URL points, without its password: `127.0.0.1:6379`. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`;
  } catch {
    return 'an address that is not a URL';
  }
}
