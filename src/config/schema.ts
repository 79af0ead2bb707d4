import { availableParallelism } from 'node:os';
import { ConfigError } from './config-error.js';
import { LANGUAGES } from './languages.js';
import { MIN_PASSWORD_LENGTH, passwordLength } from './passwords.js';
import {
  boolean,
  duration,
  httpUrl,
  integer,
  oneOf,
  variable,
  withoutTrailingSlashes,
  type Context,
  type Reader,
  type Variable,
} from './variable.js';
import { parseAllowedTargets } from './webhooks.js';

import {
  parseDatabaseUrl,
  timeZone,
  host,
  basePath,
  origins,
  trustProxy,
  failureLimit,
  publicUrlTemplate,
  redisUrl,
  metricsHost,
  retrySchedule,
  EXAMPLE_ADMIN_PASSWORD,
  MAX_WORKERS,
  type DatabaseConfig,
  type ServerDatabase,
} from './values.js';
/*
 * Every environment variable the service reads, once each: its type, default, bounds and the
 * message of a bad value. They are read in this order and the first bad one stops the start, so
 * a variable that depends on another comes after it. CONTRACT.md §1 documents each of them
 * (checked by schema.spec.ts); config.ts arranges their values into the AppConfig.
 */

// The HTTP listener and the site.

export const PORT = variable('PORT', integer({ max: 65535, message: 'config.port' }), {
  default: '3000',
  trim: false,
});

export const SITE_TIMEZONE = variable('SITE_TIMEZONE', timeZone, { default: 'UTC' });

export const DEFAULT_LANGUAGE = variable('DEFAULT_LANGUAGE', oneOf(LANGUAGES), { default: 'en' });

export const RESPONSE_CACHE_TTL_MS = variable(
  'RESPONSE_CACHE_TTL_MS',
  integer({ message: 'config.whole_number' }),
  { default: '1000', trim: false },
);

export const DATABASE_URL = variable(
  'DATABASE_URL',
  (text) => ({ url: text, database: parseDatabaseUrl(text) }),
  { default: 'sqlite:./data/calendar.sqlite' },
);

export const HOST = variable('HOST', host, { default: '0.0.0.0' });

export const BASE_PATH = variable('BASE_PATH', basePath, { default: '', quote: 'raw' });

export const SITE_URL = variable(
  'SITE_URL',
  (text, c) => withoutTrailingSlashes(httpUrl('config.http_url')(text, c)),
  {
    default: {
      shown: 'http://localhost:$PORT',
      from: (read) => `http://localhost:${read.get(PORT)}`,
    },
  },
);

// Both or neither: one without the other would start and silently create nobody.
export const ADMIN_LOGIN = variable('ADMIN_LOGIN', (text, c) =>
  c.read.given(ADMIN_PASSWORD) ? text : c.fail('config.admin_password_missing'),
);

export const ADMIN_PASSWORD = variable('ADMIN_PASSWORD', adminPassword, { trim: false });

export const MIGRATIONS_RUN = variable('MIGRATIONS_RUN', boolean, { default: 'true', trim: false });

export const CORS_ORIGINS = variable('CORS_ORIGINS', origins('config.cors'), { default: '*' });

/** The calendar view of `/events/` (CONTRACT §7). */
export const DEFAULT_VIEW = variable('DEFAULT_VIEW', oneOf(['month', 'week', 'day', 'list']), {
  default: 'month',
  lowercase: true,
});

/** Origins whose pages may frame the embeds under `/embed/` (CSP frame-ancestors); unset: none. */
export const EMBED_ORIGINS = variable('EMBED_ORIGINS', origins('config.embed_origins'));

export const MAX_PER_PAGE = variable(
  'MAX_PER_PAGE',
  integer({ min: 1, message: 'config.positive_integer' }),
  { default: '50', trim: false },
);

export const LOG_REQUESTS = variable('LOG_REQUESTS', boolean, { default: 'true', trim: false });

/**
 * Turning the response cache off (something else writes to the database) turns this one off
 * too, unless it is set.
 */
export const RECORD_CACHE_MB = variable(
  'RECORD_CACHE_MB',
  integer({ message: 'config.whole_number' }),
  {
    default: {
      shown: '64 (0 when RESPONSE_CACHE_TTL_MS=0)',
      from: (read) => (read.get(RESPONSE_CACHE_TTL_MS) > 0 ? '64' : '0'),
    },
    trim: false,
  },
);

export const TRUST_PROXY = variable('TRUST_PROXY', trustProxy, {
  default: 'false',
  lowercase: true,
});

// The login throttle (CONTRACT §2): at most COUNT failures within a window from the first one.

export const LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS = variable(
  'LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS',
  failureLimit,
  { default: '10/15m', quote: 'raw' },
);

export const LOGIN_FAILURES_PER_ADDRESS = variable('LOGIN_FAILURES_PER_ADDRESS', failureLimit, {
  default: '50/15m',
  quote: 'raw',
});

export const LOGIN_FAILURES_PER_LOGIN = variable('LOGIN_FAILURES_PER_LOGIN', failureLimit, {
  default: '30/15m',
  quote: 'raw',
});

export const LOGIN_TRUSTED_FOR = variable(
  'LOGIN_TRUSTED_FOR',
  duration({ min: 1, message: 'config.duration' }),
  { default: '30d', quote: 'raw' },
);

export const BENCH_ROUTES = variable('BENCH_ROUTES', boolean, { default: 'false', trim: false });

export const BENCH_WITHOUT_EXTENSIONS = variable('BENCH_WITHOUT_EXTENSIONS', boolean, {
  default: 'false',
  trim: false,
});

export const PUBLIC_URL_TEMPLATE = variable('PUBLIC_URL_TEMPLATE', publicUrlTemplate);

/** The premium extension's "map view search distance limit" and its unit. */
export const GEOFENCE_UNIT = variable(
  'GEOFENCE_UNIT',
  oneOf(['mi', 'km'], 'config.geofence_unit'),
  { default: 'mi', lowercase: true, quote: 'raw' },
);

export const GEOFENCE_RADIUS = variable('GEOFENCE_RADIUS', geofenceRadius, {
  default: '25',
  quote: 'raw',
});

export const PLUGIN_NAMESPACE_ALIAS = variable('PLUGIN_NAMESPACE_ALIAS', boolean, {
  default: 'true',
  trim: false,
});

// Several processes and databases.

export const DATABASE_REPLICA_URLS = variable('DATABASE_REPLICA_URLS', replicaUrls);

export const REDIS_URL = variable('REDIS_URL', redisUrl);

export const WORKERS = variable('WORKERS', workers, {
  default: '1',
  lowercase: true,
  quote: 'raw',
});

// The operator's side (operations.ts): metrics, tracing, how a stop drains.

export const METRICS_PORT = variable(
  'METRICS_PORT',
  integer({ max: 65535, digits: 5, message: 'config.port' }),
);

const metricsOn = (read: Reader) => read.given(METRICS_PORT);

export const METRICS_HOST = variable('METRICS_HOST', metricsHost, {
  default: '127.0.0.1',
  when: metricsOn,
});

/** Required as `Authorization: Bearer <token>`; printable ASCII, as a header carries it. */
export const METRICS_TOKEN = variable(
  'METRICS_TOKEN',
  (text, c) =>
    text.length > 512 || !/^[\x21-\x7e]+$/.test(text)
      ? c.fail('config.metrics_token', { count: 512 })
      : text,
  { trim: false, when: metricsOn },
);

/*
 * The standard OpenTelemetry variables, as far as they decide whether traces are exported: an
 * OTLP/HTTP endpoint is set and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none turns
 * it off. The values the SDK would only warn about and ignore (a sampler it does not know, a
 * ratio out of range, a protocol it does not speak) stop the start instead, in one line.
 */

const OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = variable(
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  httpUrl('config.otel_endpoint'),
  { when: (read) => tracing(read) },
);

const OTEL_EXPORTER_OTLP_ENDPOINT = variable(
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  httpUrl('config.otel_endpoint'),
  { when: (read) => tracing(read) && !read.given(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) },
);

const endpointGiven = (read: Reader) =>
  read.given(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) || read.given(OTEL_EXPORTER_OTLP_ENDPOINT);

const OTEL_SDK_DISABLED = variable('OTEL_SDK_DISABLED', (text) => /^true$/i.test(text), {
  when: endpointGiven,
});

const OTEL_TRACES_EXPORTER = variable(
  'OTEL_TRACES_EXPORTER',
  oneOf(['otlp', 'none'], 'config.otel_exporter'),
  { lowercase: true, when: (read) => endpointGiven(read) && !read.get(OTEL_SDK_DISABLED) },
);

/** Whether traces are exported. */
export function tracing(read: Reader): boolean {
  return (
    endpointGiven(read) && !read.get(OTEL_SDK_DISABLED) && read.get(OTEL_TRACES_EXPORTER) !== 'none'
  );
}

const otlpProtocol = oneOf(['http/json', 'http/protobuf'], 'config.otel_protocol');

const OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = variable(
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  otlpProtocol,
  { when: tracing },
);

const OTEL_EXPORTER_OTLP_PROTOCOL = variable('OTEL_EXPORTER_OTLP_PROTOCOL', otlpProtocol, {
  when: tracing,
});

/** The samplers of the OpenTelemetry SDK, those that need no other service. */
const OTEL_TRACES_SAMPLER = variable(
  'OTEL_TRACES_SAMPLER',
  oneOf([
    'always_on',
    'always_off',
    'traceidratio',
    'parentbased_always_on',
    'parentbased_always_off',
    'parentbased_traceidratio',
  ]),
  { default: 'parentbased_always_on', when: tracing },
);

const OTEL_TRACES_SAMPLER_ARG = variable(
  'OTEL_TRACES_SAMPLER_ARG',
  (text, c) =>
    Number(text) >= 0 && Number(text) <= 1 ? Number(text) : c.fail('config.ratio', { value: text }),
  { when: (read) => tracing(read) && !!read.get(OTEL_TRACES_SAMPLER)?.endsWith('traceidratio') },
);

/**
 * After SIGTERM, how long the server keeps accepting while /health/ready answers 503, so that
 * load balancers stop sending before it stops listening.
 */
export const SHUTDOWN_DELAY_MS = variable(
  'SHUTDOWN_DELAY_MS',
  integer({ max: 600_000, digits: 6, message: 'config.milliseconds' }),
  { default: '0', quote: 'raw' },
);

/**
 * After SHUTDOWN_DELAY_MS, how long the requests in flight may take before the process goes
 * anyway: a stop must end, however slow a client or a query.
 */
export const SHUTDOWN_DRAIN_MS = variable(
  'SHUTDOWN_DRAIN_MS',
  integer({ max: 600_000, digits: 6, message: 'config.milliseconds' }),
  { default: '5000', quote: 'raw' },
);

// Webhooks (CONTRACT §8).

export const WEBHOOK_ALLOWED_TARGETS = variable('WEBHOOK_ALLOWED_TARGETS', parseAllowedTargets, {
  default: '',
});

/** The default spans more than a day (27 h 35 min); after the last wait the delivery has failed. */
export const WEBHOOK_RETRY_SCHEDULE = variable('WEBHOOK_RETRY_SCHEDULE', retrySchedule, {
  default: '5s,5m,30m,2h,5h,10h,10h',
});

export const WEBHOOK_TIMEOUT = variable(
  'WEBHOOK_TIMEOUT',
  duration({ min: 100, cap: 120_000, message: 'config.webhook_duration' }),
  { default: '10s', quote: 'raw' },
);

export const WEBHOOK_SECRET_GRACE = variable(
  'WEBHOOK_SECRET_GRACE',
  duration({ min: 1, message: 'config.webhook_duration' }),
  { default: '24h', quote: 'raw' },
);

export const WEBHOOK_LOG_RETENTION = variable(
  'WEBHOOK_LOG_RETENTION',
  duration({ min: 1, message: 'config.webhook_duration' }),
  { default: '30d', quote: 'raw' },
);

export const WEBHOOK_POLL = variable(
  'WEBHOOK_POLL',
  duration({ min: 10, message: 'config.webhook_duration' }),
  { default: '1s', quote: 'raw' },
);

/** Under test a bad connection must fail at once, not after minutes of retries. */
export const NODE_ENV = variable('NODE_ENV', (text) => text, { trim: false });

/** The variables of operations.ts, which the CLI reads alone to decide on tracing. */
export const OPERATIONS: readonly Variable<unknown>[] = [
  METRICS_PORT,
  METRICS_HOST,
  METRICS_TOKEN,
  OTEL_SDK_DISABLED,
  OTEL_TRACES_EXPORTER,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  OTEL_EXPORTER_OTLP_ENDPOINT,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
  OTEL_EXPORTER_OTLP_PROTOCOL,
  OTEL_TRACES_SAMPLER,
  OTEL_TRACES_SAMPLER_ARG,
  SHUTDOWN_DELAY_MS,
  SHUTDOWN_DRAIN_MS,
];

/** Every variable, in the order they are read. */
export const VARIABLES: readonly Variable<unknown>[] = [
  PORT,
  SITE_TIMEZONE,
  DEFAULT_LANGUAGE,
  RESPONSE_CACHE_TTL_MS,
  DATABASE_URL,
  HOST,
  BASE_PATH,
  SITE_URL,
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  MIGRATIONS_RUN,
  CORS_ORIGINS,
  DEFAULT_VIEW,
  EMBED_ORIGINS,
  MAX_PER_PAGE,
  LOG_REQUESTS,
  RECORD_CACHE_MB,
  TRUST_PROXY,
  LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_FAILURES_PER_LOGIN,
  LOGIN_TRUSTED_FOR,
  BENCH_ROUTES,
  BENCH_WITHOUT_EXTENSIONS,
  PUBLIC_URL_TEMPLATE,
  GEOFENCE_UNIT,
  GEOFENCE_RADIUS,
  PLUGIN_NAMESPACE_ALIAS,
  DATABASE_REPLICA_URLS,
  REDIS_URL,
  WORKERS,
  ...OPERATIONS,
  WEBHOOK_ALLOWED_TARGETS,
  WEBHOOK_RETRY_SCHEDULE,
  WEBHOOK_TIMEOUT,
  WEBHOOK_SECRET_GRACE,
  WEBHOOK_LOG_RETENTION,
  WEBHOOK_POLL,
  NODE_ENV,
];

// Values that read other variables (so they stay beside them).

/** ADMIN_PASSWORD is chosen by a person: refuse a short one, and the documentation's placeholder. */
function adminPassword(password: string, c: Context): string {
  if (!c.read.given(ADMIN_LOGIN)) c.fail('config.admin_login_missing');
  if (password.trim() === EXAMPLE_ADMIN_PASSWORD) {
    c.fail('config.admin_password_example', { count: MIN_PASSWORD_LENGTH });
  }
  const length = passwordLength(password);
  if (length < MIN_PASSWORD_LENGTH) {
    c.fail('config.admin_password_short', { count: MIN_PASSWORD_LENGTH, length });
  }
  return password;
}

/** GEOFENCE_UNIT chose: the message says miles or kilometres. */
function geofenceRadius(text: string, c: Context): number {
  const radius = /^\d{1,9}(?:\.\d{1,9})?$/.test(text) ? Number(text) : NaN;
  if (!(radius > 0)) {
    c.fail(`config.geofence_radius_${c.read.get(GEOFENCE_UNIT)}`, { value: c.shown });
  }
  return radius;
}

/** Comma-separated URLs of replicas, of the primary's kind (MySQL/MariaDB). */
function replicaUrls(text: string, c: Context): ServerDatabase[] {
  const primary = c.read.get(DATABASE_URL).database;
  const urls = text
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return urls.map((url) => {
    let replica: DatabaseConfig;
    try {
      replica = parseDatabaseUrl(url);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(c.name, error.reason);
      throw error;
    }
    if (replica.type === 'sqlite' || replica.type !== primary.type) {
      return c.fail('config.replica_kind', { type: primary.type, value: url });
    }
    return replica;
  });
}

/**
 * A number or `auto` (the cores available). SQLite refuses more than one: its caches could not
 * learn of another process's writes (CONTRACT §2).
 */
function workers(value: string, c: Context): number {
  const count =
    value === 'auto'
      ? Math.min(MAX_WORKERS, availableParallelism())
      : integer({ min: 1, max: MAX_WORKERS, digits: 3, message: 'config.workers' })(value, c);
  if (count > 1 && c.read.get(DATABASE_URL).database.type === 'sqlite') {
    c.fail('config.workers_sqlite', { value });
  }
  return count;
}
