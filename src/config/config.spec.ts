import { ConfigError, loadConfig, parseDatabaseUrl } from './config.js';

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
    });
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
      ADMIN_PASSWORD: 'pw',
      CORS_ORIGINS: 'https://a.org, https://b.org',
    });
    expect(c.admin).toEqual({ login: 'root', password: 'pw' });
    expect(c.corsOrigins).toEqual(['https://a.org', 'https://b.org']);
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
    [{ RESPONSE_CACHE_TTL_MS: '-1' }, 'RESPONSE_CACHE_TTL_MS'],
    [{ RESPONSE_CACHE_TTL_MS: '1s' }, 'RESPONSE_CACHE_TTL_MS'],
    [{ SITE_URL: 'ftp://x' }, 'SITE_URL'],
    [{ CORS_ORIGINS: 'notaurl' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example/, *' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example, *' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example/app' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example,,https://b.example' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'ftp://a.example' }, 'CORS_ORIGINS'],
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
      new ConfigError('ADMIN_LOGIN', 'is set but ADMIN_PASSWORD is not; set both or neither'),
    );
    expect(new ConfigError('ADMIN_LOGIN', 'x').message).toBe(
      'Invalid configuration: ADMIN_LOGIN x',
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
});
