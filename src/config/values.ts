import { isIP, isIPv4 } from 'node:net';
import { IANAZone } from 'luxon';
import { ConfigError } from './config-error.js';
import { message, type Message } from './messages.js';
import { duration, milliseconds, withoutTrailingSlashes, type Context } from './variable.js';

/*
 * The value types of the environment variables (schema.ts): how each is read and checked, with
 * the message of a bad value.
 */

// The types of single variables.

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
    // A bare path (`./data/other.sqlite`) is most likely an SQLite file named without its scheme.
    const key = url.includes('://') ? 'config.not_url' : 'config.not_url_file';
    throw new ConfigError('DATABASE_URL', message(key, { value: url }));
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

export function timeZone(text: string, c: Context): string {
  return text === 'UTC' || IANAZone.isValidZone(text)
    ? text
    : c.fail('config.time_zone', { value: text });
}

/** A hostname (RFC 1123 labels) or an IP address; all-digit dotted names must be real IPv4. */
export function host(text: string, c: Context): string {
  const unbracketed = text.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed)) return unbracketed;
  const label = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  const numeric = /^[\d.]+$/.test(text);
  if (numeric || text.length > 253 || !text.split('.').every((l) => label.test(l))) {
    c.fail('config.host', { value: text });
  }
  return text;
}

/** The REST root: `''`, or a path with a leading slash and none at the end. */
export function basePath(text: string, c: Context): string {
  const path = withoutTrailingSlashes(text);
  if (!path) return '';
  if (!/^[A-Za-z0-9._~\-/]+$/.test(path)) c.fail('config.base_path', { value: c.shown });
  return path.startsWith('/') ? path : `/${path}`;
}

/** The placeholder that README and docker/compose.yaml show; it must be replaced. */
export const EXAMPLE_ADMIN_PASSWORD = 'change-me-to-a-long-passphrase';

/**
 * `*`, or origins as browsers send them in `Origin`: scheme://host[:port], nothing after. An
 * entry with a path or a trailing slash would never match, so it is refused rather than ignored.
 */
export function origins(key: string) {
  return (value: string, c: Context): '*' | string[] => originList(key, value, c);
}

function originList(key: string, value: string, c: Context): '*' | string[] {
  if (value === '*') return '*';
  const fail = (why: Message): never => c.fail(key, { why });
  const entries = value.split(',').map((o) => o.trim());
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

/** `false` (ignore X-Forwarded-For), `true` (trust every hop), a hop count, or trusted addresses. */
export type TrustProxy = boolean | number | string[];

export function trustProxy(value: string, c: Context): TrustProxy {
  if (value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,3}$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isProxyEntry(e));
  if (bad !== undefined) c.fail('config.trust_proxy', { value: bad });
  return entries;
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

/** At most `max` failed logins within a fixed window of `windowMs` from the first one. */
export interface FailureLimit {
  max: number;
  windowMs: number;
}

/** `COUNT/DURATION`, each part read without its spaces; messages quote the part as set. */
export function failureLimit(_text: string, c: Context): FailureLimit {
  const slash = c.raw.indexOf('/');
  const count = c.raw.slice(0, slash).trim();
  const max = Number(count);
  if (slash < 0 || !/^\d{1,9}$/.test(count) || max < 1) c.fail('config.rate', { value: c.raw });
  const window = c.raw.slice(slash + 1);
  if (window.trim() === '') return { max, windowMs: 0 };
  return {
    max,
    windowMs: duration({ min: 1, message: 'config.duration' })(window, { ...c, shown: window }),
  };
}

/** An http(s) URL naming the record by `{slug}` or `{id}`. */
export function publicUrlTemplate(value: string, c: Context): string {
  let valid = false;
  try {
    const url = new URL(value.split('{').join('x').split('}').join('x'));
    valid = url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    valid = false;
  }
  if (!valid || (!value.includes('{slug}') && !value.includes('{id}'))) {
    c.fail('config.public_url_template', { value });
  }
  return value;
}

export type ServerDatabase = Exclude<DatabaseConfig, { type: 'sqlite' }>;

/** `redis://[user:pass@]host[:port][/db]` or `rediss://` (TLS). */
export function redisUrl(value: string, c: Context): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return c.fail('config.not_url', { value });
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    c.fail('config.redis_url', { value });
  }
  return value;
}

/** Most workers accepted: far beyond any machine's cores, low enough to catch a typo. */
export const MAX_WORKERS = 64;

export function metricsHost(text: string, c: Context): string {
  const unbracketed = text.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed)) return unbracketed;
  return /^[A-Za-z0-9.-]{1,253}$/.test(text)
    ? text
    : c.fail('config.metrics_host', { value: text });
}

const MAX_WAITS = 30;

export function retrySchedule(text: string, c: Context): number[] {
  const waits = text.split(',');
  if (waits.length > MAX_WAITS) c.fail('config.too_many_waits', { count: MAX_WAITS });
  return waits.map((wait) => {
    if (wait.trim() === '') return 0;
    const ms = milliseconds(wait);
    return ms >= 1 ? ms : c.fail('config.webhook_duration', { min: 1, value: wait });
  });
}
