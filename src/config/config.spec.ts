import { cliMessages, errorText, messagesFor } from './messages.js';
import { MIN_PASSWORD_LENGTH } from './passwords.js';
import { ConfigError, EXAMPLE_ADMIN_PASSWORD, loadConfig, parseDatabaseUrl } from './config.js';

describe('loadConfig', () => {
  it('has the CONTRACT §1 defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      database: { type: 'sqlite', path: './data/calendar.sqlite' },
      port: 3000,
      host: '0.0.0.0',
      basePath: '',
      siteUrl: 'http://localhost:3000',
      siteTimezone: 'UTC',
      defaultLanguage: 'en',
      admin: null,
      migrationsRun: true,
      corsOrigins: '*',
      maxPerPage: 50,
      responseCacheTtlMs: 1000,
      geofence: { radius: 25, unit: 'mi', radiusKm: 25 * 1.609344 },
    });
  });

  it('reads BENCH_ROUTES (off by default) and retries the database only outside tests', () => {
    expect(loadConfig({}).benchRoutes).toBe(false);
    expect(loadConfig({ BENCH_ROUTES: 'true' }).benchRoutes).toBe(true);
    expect(loadConfig({}).benchWithoutExtensions).toBe(false);
    expect(loadConfig({ BENCH_WITHOUT_EXTENSIONS: 'true' }).benchWithoutExtensions).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).databaseRetries).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production' }).databaseRetries).toBe(5);
  });

  it('reads GEOFENCE_RADIUS in GEOFENCE_UNIT', () => {
    expect(loadConfig({ GEOFENCE_RADIUS: '40.5', GEOFENCE_UNIT: 'KM' }).geofence).toEqual({
      radius: 40.5,
      unit: 'km',
      radiusKm: 40.5,
    });
    expect(loadConfig({ GEOFENCE_RADIUS: '10' }).geofence.radiusKm).toBeCloseTo(16.09344, 9);
  });

  it('reads RECORD_CACHE_MB, 64 by default, 0 turning the record cache off', () => {
    expect(loadConfig({}).recordCacheMb).toBe(64);
    expect(loadConfig({ RECORD_CACHE_MB: '0' }).recordCacheMb).toBe(0);
    // Off with the response cache, unless set.
    expect(loadConfig({ RESPONSE_CACHE_TTL_MS: '0' }).recordCacheMb).toBe(0);
    expect(loadConfig({ RESPONSE_CACHE_TTL_MS: '0', RECORD_CACHE_MB: '16' }).recordCacheMb).toBe(
      16,
    );
    expect(() => loadConfig({ RECORD_CACHE_MB: '1.5' })).toThrow('RECORD_CACHE_MB');
  });

  it('reads RESPONSE_CACHE_TTL_MS, 0 turning the response cache off', () => {
    expect(loadConfig({ RESPONSE_CACHE_TTL_MS: '0' }).responseCacheTtlMs).toBe(0);
    expect(loadConfig({ RESPONSE_CACHE_TTL_MS: '250' }).responseCacheTtlMs).toBe(250);
  });

  it('normalizes BASE_PATH and SITE_URL', () => {
    const c = loadConfig({ BASE_PATH: 'wp-json/', SITE_URL: 'https://example.org/', PORT: '8080' });
    expect(c.basePath).toBe('/wp-json');
    expect(c.siteUrl).toBe('https://example.org');
    expect(loadConfig({ PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
  });

  it('reads the admin bootstrap and CORS origins', () => {
    const c = loadConfig({
      ADMIN_LOGIN: 'root',
      ADMIN_PASSWORD: 'a long passphrase',
      CORS_ORIGINS: 'https://a.org, https://b.org',
    });
    expect(c.admin).toEqual({ login: 'root', password: 'a long passphrase' });
    expect(c.corsOrigins).toEqual(['https://a.org', 'https://b.org']);
  });

  it('reads the calendar view of /events/ and who may frame the embeds (none by default)', () => {
    expect(loadConfig({}).defaultView).toBe('month');
    expect(loadConfig({}).embedOrigins).toEqual([]);
    const c = loadConfig({ DEFAULT_VIEW: 'List', EMBED_ORIGINS: 'https://blog.example.org' });
    expect(c.defaultView).toBe('list');
    expect(c.embedOrigins).toEqual(['https://blog.example.org']);
    expect(loadConfig({ EMBED_ORIGINS: '*' }).embedOrigins).toBe('*');
  });

  it.each([
    [{ DATABASE_URL: 'postgres://x/y' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mysql://localhost' }, 'DATABASE_URL'],
    [{ PORT: '80a' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SITE_TIMEZONE: 'Europe/Nowhere' }, 'SITE_TIMEZONE'],
    [{ DEFAULT_LANGUAGE: 'fr' }, 'DEFAULT_LANGUAGE'],
    [{ MIGRATIONS_RUN: 'perhaps' }, 'MIGRATIONS_RUN'],
    [{ MAX_PER_PAGE: '0' }, 'MAX_PER_PAGE'],
    [{ GEOFENCE_RADIUS: '0' }, 'GEOFENCE_RADIUS'],
    [{ GEOFENCE_RADIUS: '-5' }, 'GEOFENCE_RADIUS'],
    [{ GEOFENCE_RADIUS: '25mi' }, 'GEOFENCE_RADIUS'],
    [{ GEOFENCE_UNIT: 'miles' }, 'GEOFENCE_UNIT'],
    [{ RESPONSE_CACHE_TTL_MS: '-1' }, 'RESPONSE_CACHE_TTL_MS'],
    [{ RESPONSE_CACHE_TTL_MS: '1s' }, 'RESPONSE_CACHE_TTL_MS'],
    [{ SITE_URL: 'ftp://x' }, 'SITE_URL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'loopback, 10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'fd00::/129' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/255.0.0' }, 'TRUST_PROXY'],
    [{ LOGIN_FAILURES_PER_LOGIN: '10' }, 'LOGIN_FAILURES_PER_LOGIN'],
    [{ LOGIN_FAILURES_PER_ADDRESS: '0/15m' }, 'LOGIN_FAILURES_PER_ADDRESS'],
    [{ LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS: '5/15min' }, 'LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS'],
    [{ LOGIN_TRUSTED_FOR: '0d' }, 'LOGIN_TRUSTED_FOR'],
    [{ CORS_ORIGINS: 'notaurl' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example/, *' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example, *' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example/app' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example,,https://b.example' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'ftp://a.example' }, 'CORS_ORIGINS'],
    [{ DEFAULT_VIEW: 'year' }, 'DEFAULT_VIEW'],
    [{ EMBED_ORIGINS: 'https://a.example/blog' }, 'EMBED_ORIGINS'],
    [{ EMBED_ORIGINS: 'https://a.example, *' }, 'EMBED_ORIGINS'],
    [{ ADMIN_LOGIN: 'root' }, 'ADMIN_PASSWORD is not'],
    [{ ADMIN_PASSWORD: 'a long enough secret' }, 'ADMIN_LOGIN is not'],
    [{ HOST: '999.1.1.1' }, 'HOST'],
    [{ HOST: '10.0.0' }, 'HOST'],
    [{ HOST: 'under_score.example' }, 'HOST'],
    [{ HOST: 'http://localhost' }, 'HOST'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });
});

describe('ADMIN_PASSWORD', () => {
  it('refuses a password shorter than 12 characters, spaces not counted, in one clear line', () => {
    expect(() => loadConfig({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'change-me' })).toThrow(
      'Invalid configuration: ADMIN_PASSWORD must be at least 12 characters long (spaces not counted), got 9',
    );
    expect(() => loadConfig({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'change me 123' })).toThrow(
      'got 11',
    );
    // Characters, not bytes or UTF-16 units.
    expect(() =>
      loadConfig({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: '🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑' }),
    ).toThrow('got 11');
    expect(loadConfig({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'correct horse' }).admin).toEqual({
      login: 'root',
      password: 'correct horse',
    });
    expect(MIN_PASSWORD_LENGTH).toBe(12);
  });

  it('refuses the placeholder of the README and compose examples', () => {
    expect(() =>
      loadConfig({ ADMIN_LOGIN: 'admin', ADMIN_PASSWORD: EXAMPLE_ADMIN_PASSWORD }),
    ).toThrow('ADMIN_PASSWORD is still the example placeholder');
  });
});

describe('TRUST_PROXY', () => {
  it('takes the values of Express "trust proxy"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      loadConfig({
        TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.1, fd00::/8,172.16.0.0/255.240.0.0',
      }).trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', '192.168.1.1', 'fd00::/8', '172.16.0.0/255.240.0.0']);
  });
});

describe('login throttle settings', () => {
  it('has documented defaults and reads COUNT/DURATION', () => {
    expect(loadConfig({}).loginThrottle).toEqual({
      perLoginAndAddress: { max: 10, windowMs: 15 * 60_000 },
      perAddress: { max: 50, windowMs: 15 * 60_000 },
      perLogin: { max: 30, windowMs: 15 * 60_000 },
      trustedForMs: 30 * 86_400_000,
    });
    const c = loadConfig({
      LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS: '3/90s',
      LOGIN_FAILURES_PER_ADDRESS: '100/1h',
      LOGIN_FAILURES_PER_LOGIN: '5/500ms',
      LOGIN_TRUSTED_FOR: '12h',
    }).loginThrottle;
    expect(c).toEqual({
      perLoginAndAddress: { max: 3, windowMs: 90_000 },
      perAddress: { max: 100, windowMs: 3_600_000 },
      perLogin: { max: 5, windowMs: 500 },
      trustedForMs: 12 * 3_600_000,
    });
  });
});

describe('configuration values that would start and silently misbehave', () => {
  it('tells how to write an origin that a browser can match', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/' })).toThrow(
      'CORS_ORIGINS has "https://a.example/", which never matches a browser\'s Origin; write "https://a.example"',
    );
  });

  it('accepts origins with ports and hosts given as names or addresses', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'http://localhost:8080,https://a.example' }).corsOrigins,
    ).toEqual(['http://localhost:8080', 'https://a.example']);
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).toBe('*');
    for (const host of ['127.0.0.1', '::', '::1', 'localhost', 'api.example.org', '[::1]']) {
      expect(loadConfig({ HOST: host }).host).toBe(host.replace(/^\[(.*)\]$/, '$1'));
    }
  });

  it('prints one line, without a stack, for each problem', () => {
    expect(() => loadConfig({ ADMIN_LOGIN: 'root' })).toThrow(
      'Invalid configuration: ADMIN_LOGIN is set but ADMIN_PASSWORD is not; set both or neither',
    );
    expect(new ConfigError('ADMIN_LOGIN', { key: 'config.admin_password_missing' }).message).toBe(
      'Invalid configuration: ADMIN_LOGIN is set but ADMIN_PASSWORD is not; set both or neither',
    );
  });
});

describe('parseDatabaseUrl', () => {
  it('reads mysql, mariadb and sqlite URLs', () => {
    expect(parseDatabaseUrl('mysql://u:p%40ss@db:3307/cal')).toEqual({
      type: 'mysql',
      host: 'db',
      port: 3307,
      username: 'u',
      password: 'p@ss',
      database: 'cal',
    });
    expect(parseDatabaseUrl('mariadb://root@127.0.0.1/test').type).toBe('mariadb');
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ type: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('sqlite:///var/lib/cal.sqlite')).toEqual({
      type: 'sqlite',
      path: '/var/lib/cal.sqlite',
    });
  });

  it('suggests sqlite: for a bare file path, not for a broken URL', () => {
    const problem = (url: string) => {
      try {
        parseDatabaseUrl(url);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${url} was accepted`);
    };
    expect(problem('./data/other.sqlite')).toContain(
      'is not a URL: "./data/other.sqlite" (an SQLite file is written sqlite:./data/other.sqlite;',
    );
    expect(problem('mysql://[bad')).toBe(
      'Invalid configuration: DATABASE_URL is not a URL: "mysql://[bad"',
    );
  });
});

describe('OpenTelemetry variables', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

  it('turn tracing on with an OTLP/HTTP endpoint only, and off by the standard switches', () => {
    expect(loadConfig({}).tracing).toBe(false);
    expect(loadConfig(endpoint).tracing).toBe(true);
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/v1/traces' }).tracing,
    ).toBe(true);
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).tracing).toBe(false);
    expect(loadConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).tracing).toBe(false);
    // Without an endpoint the other variables are not even read.
    expect(loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' }).tracing).toBe(false);
    expect(
      loadConfig({
        ...endpoint,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_SERVICE_NAME: 'calendar',
      }).tracing,
    ).toBe(true);
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://c:4317' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
    [{ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    [{ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [
      { ...endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
      'OTEL_TRACES_SAMPLER_ARG',
    ],
  ])('refuse %j in one line naming the variable', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });
});

describe('configuration errors in the operator language', () => {
  const shown = (env: Record<string, string>, lang: 'en' | 'hu' | 'ro') => {
    try {
      loadConfig(env);
    } catch (error) {
      return errorText(error, cliMessages(lang).t);
    }
    throw new Error('no ConfigError');
  };

  it.each([
    [
      { PORT: 'eighty' },
      'Invalid configuration: PORT must be a number from 0 to 65535, got "eighty"',
      'Érvénytelen beállítás (PORT): 0 és 65535 közötti számnak kell lennie, kapott érték: „eighty”',
      'Configurație nevalidă (PORT): trebuie să fie un număr între 0 și 65535, valoarea primită: „eighty”',
    ],
    [
      { ADMIN_LOGIN: 'root' },
      'Invalid configuration: ADMIN_LOGIN is set but ADMIN_PASSWORD is not; set both or neither',
      'Érvénytelen beállítás (ADMIN_LOGIN): meg van adva, de az ADMIN_PASSWORD nincs; add meg mindkettőt, vagy egyiket se',
      'Configurație nevalidă (ADMIN_LOGIN): este setat, dar ADMIN_PASSWORD nu este; setează-le pe amândouă sau pe niciuna',
    ],
    [
      { CORS_ORIGINS: 'https://a.example/' },
      'Invalid configuration: CORS_ORIGINS has "https://a.example/", which never matches a browser\'s Origin; write "https://a.example" (use * or origins such as https://example.org,https://app.example.org)',
      'Érvénytelen beállítás (CORS_ORIGINS): „https://a.example/” sosem egyezik a böngészők Origin fejlécével; ezt írd: „https://a.example” (használd a * jelet, vagy sorold fel az originöket, például https://example.org,https://app.example.org)',
      'Configurație nevalidă (CORS_ORIGINS): conține „https://a.example/”, care nu se potrivește niciodată cu antetul Origin trimis de un browser; scrie „https://a.example” (folosește * sau origini precum https://example.org,https://app.example.org)',
    ],
    [
      { ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'short' },
      'Invalid configuration: ADMIN_PASSWORD must be at least 12 characters long (spaces not counted), got 5',
      'Érvénytelen beállítás (ADMIN_PASSWORD): legalább 12 karakter hosszúnak kell lennie (a szóközök nem számítanak), ez 5',
      'Configurație nevalidă (ADMIN_PASSWORD): trebuie să aibă cel puțin 12 caractere (fără spații), are 5',
    ],
    [
      { DATABASE_REPLICA_URLS: 'mysql://h', DATABASE_URL: 'mysql://h/db' },
      'Invalid configuration: DATABASE_REPLICA_URLS names no database (mysql://host/db)',
      'Érvénytelen beállítás (DATABASE_REPLICA_URLS): nem nevez meg adatbázist (mysql://gép/adatbázis)',
      'Configurație nevalidă (DATABASE_REPLICA_URLS): nu numește nicio bază de date (mysql://gazdă/bd)',
    ],
    [
      { WEBHOOK_ALLOWED_TARGETS: '10.0.0.0/99' },
      'Invalid configuration: WEBHOOK_ALLOWED_TARGETS has "10.0.0.0/99", which is no CIDR range such as 10.0.0.0/8',
      'Érvénytelen beállítás (WEBHOOK_ALLOWED_TARGETS): „10.0.0.0/99” nem CIDR-tartomány (például 10.0.0.0/8)',
      'Configurație nevalidă (WEBHOOK_ALLOWED_TARGETS): conține „10.0.0.0/99”, care nu este un interval CIDR precum 10.0.0.0/8',
    ],
  ])('%j', (env, en, hu, ro) => {
    expect(shown(env, 'en')).toBe(en);
    expect(shown(env, 'hu')).toBe(hu);
    expect(shown(env, 'ro')).toBe(ro);
    // The error's own message stays English, for logs.
    expect(() => loadConfig(env)).toThrow(en);
  });

  it('speaks the language of LC_ALL, LC_MESSAGES or LANG', () => {
    const env = { GEOFENCE_UNIT: 'furlong' };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(errorText(error, messagesFor({ LANG: 'hu_HU.UTF-8' }).t)).toBe(
      'Érvénytelen beállítás (GEOFENCE_UNIT): mi vagy km lehet, kapott érték: „furlong”',
    );
    expect(errorText(error, messagesFor({ LC_ALL: 'ro_RO.UTF-8', LANG: 'hu_HU' }).t)).toBe(
      'Configurație nevalidă (GEOFENCE_UNIT): trebuie să fie mi sau km, valoarea primită: „furlong”',
    );
  });
});
