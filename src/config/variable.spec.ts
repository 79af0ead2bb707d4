import { ConfigError, loadConfig } from './config.js';
import { integer, Reader, variable } from './variable.js';

const reason = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
  }
  throw new Error('no ConfigError');
};

describe('a declared variable', () => {
  it('reads the default when unset or empty, and through the type like a value set', () => {
    const port = variable('P', integer({ message: 'config.port' }), { default: '3000' });
    expect(new Reader({}).get(port)).toBe(3000);
    expect(new Reader({ P: '' }).get(port)).toBe(3000);
    expect(new Reader({ P: '  8080 ' }).get(port)).toBe(8080);
    expect(() => new Reader({ P: 'x' }).get(port)).toThrow(
      'Invalid configuration: P must be a number from 0 to 65535, got "x"',
    );
  });

  it('has no value without a default, and is not read at all when its group is off', () => {
    let reads = 0;
    const counted = variable('C', (text) => (reads++, text));
    const gated = variable('G', () => 'read', { when: (read) => read.given(counted) });
    expect(new Reader({}).get(counted)).toBeUndefined();
    expect(new Reader({ G: 'x' }).get(gated)).toBeUndefined();
    const read = new Reader({ C: 'on', G: 'x' });
    expect([read.get(gated), read.get(counted), read.get(counted)]).toEqual(['read', 'on', 'on']);
    expect(reads).toBe(1);
  });
});

describe('the environment as the schema reads it', () => {
  it('keeps the spaces numbers and switches have always refused, quoting them', () => {
    expect(reason({ PORT: ' 8080' })).toContain('got " 8080"');
    expect(reason({ MIGRATIONS_RUN: ' true' })).toContain('MIGRATIONS_RUN');
    expect(loadConfig({ METRICS_PORT: ' 9464 ' }).metrics?.port).toBe(9464);
  });

  it('trims durations but quotes them as set', () => {
    expect(loadConfig({ LOGIN_TRUSTED_FOR: ' 12h ' }).loginThrottle.trustedForMs).toBe(43_200_000);
    expect(reason({ LOGIN_TRUSTED_FOR: ' 5x ' })).toContain('got " 5x "');
    expect(reason({ LOGIN_FAILURES_PER_LOGIN: '5/ 9y' })).toContain('got " 9y"');
    expect(loadConfig({ LOGIN_FAILURES_PER_LOGIN: ' 5 / 2m ' }).loginThrottle.perLogin).toEqual({
      max: 5,
      windowMs: 120_000,
    });
  });

  it('reads the metrics settings only with METRICS_PORT, and the tracing ones only with an endpoint', () => {
    expect(loadConfig({ METRICS_HOST: 'not a host', METRICS_TOKEN: 'x y' }).metrics).toBeNull();
    expect(reason({ METRICS_PORT: '9464', METRICS_HOST: 'not a host' })).toContain('METRICS_HOST');
    expect(loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).tracing).toBe(false);
  });

  it('stops at the first bad variable in the order of the schema', () => {
    expect(reason({ DATABASE_URL: 'postgres://x/y', PORT: 'x' })).toContain('PORT');
    expect(reason({ WEBHOOK_POLL: '1ms', WORKERS: '0' })).toContain('WORKERS');
    // A password without a login is that problem, not the password's length.
    expect(reason({ ADMIN_PASSWORD: 'short' })).toContain('ADMIN_LOGIN is not');
  });

  it('lets a default follow another variable', () => {
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: 'mysql://h/db' }).workers).toBe(2);
    expect(reason({ WORKERS: ' 2 ' })).toBe(
      'Invalid configuration: WORKERS must be 1 with SQLite (got 2): several server processes need MySQL or MariaDB',
    );
    expect(loadConfig({ PORT: '81', SITE_URL: ' ' }).siteUrl).toBe('http://localhost:81');
  });
});
