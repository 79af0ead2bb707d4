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
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
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
