import { loadConfig } from './config.js';
import { cliMessages } from './messages.js';
import { describeStartupError, isPermanentDatabaseError, startupSummary } from './startup.js';

const mysql = loadConfig({ DATABASE_URL: 'mysql://cal:secret@db.internal:3307/calendar' });

describe('startupSummary', () => {
  it('says where it listens, on which database, in which languages and with what cache', () => {
    expect(startupSummary(loadConfig({}))).toBe(
      'cal/events/v1 listening on 0.0.0.0:3000 (all interfaces) | http://localhost:3000/cal/events/v1' +
        ' | database sqlite ./data/calendar.sqlite | languages en (default), hu, ro | response cache 1000 ms' +
        ' | redis off',
    );
  });

  it('never shows the database password, and names a turned-off cache', () => {
    const line = startupSummary({
      ...mysql,
      host: '::1',
      responseCacheTtlMs: 0,
      basePath: '/wp-json',
    });
    expect(line).toContain('listening on [::1]:3000 |');
    expect(line).toContain('/wp-json/cal/events/v1');
    expect(line).toContain('database mysql cal@db.internal:3307/calendar');
    expect(line).toContain('response cache off');
    expect(line).not.toContain('secret');
    expect(line).not.toContain('\n');
  });

  it('says where Redis is, without its password', () => {
    const line = startupSummary({ ...mysql, redisUrl: 'redis://:hunter2@cache.internal:6380/0' });
    expect(line.endsWith(' | redis cache.internal:6380')).toBe(true);
    expect(line).not.toContain('hunter2');
  });
});

describe('describeStartupError', () => {
  const err = (props: Record<string, unknown>) => Object.assign(new Error('boom'), props);

  it('names a missing MySQL database and the statement that creates it', () => {
    expect(describeStartupError(err({ code: 'ER_BAD_DB_ERROR', errno: 1049 }), mysql)).toBe(
      'Database "calendar" does not exist on db.internal:3307 (DATABASE_URL). Create it with: ' +
        'CREATE DATABASE `calendar` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
    );
  });

  it('explains listener failures by the variable to change', () => {
    const cfg = loadConfig({ PORT: '8080', HOST: '10.1.2.3' });
    expect(describeStartupError(err({ code: 'EADDRINUSE', syscall: 'listen' }), cfg)).toMatch(
      /^Cannot listen on 10\.1\.2\.3:8080: the port is in use .*PORT/,
    );
    expect(describeStartupError(err({ code: 'EADDRNOTAVAIL', syscall: 'listen' }), cfg)).toMatch(
      /HOST 10\.1\.2\.3 is not an address of this machine/,
    );
  });

  it('explains unreachable and refusing database servers', () => {
    expect(describeStartupError(err({ code: 'ECONNREFUSED' }), mysql)).toMatch(
      /^Cannot reach the database at db\.internal:3307 \(DATABASE_URL\)/,
    );
    expect(describeStartupError(err({ code: 'ER_ACCESS_DENIED_ERROR' }), mysql)).toMatch(
      /refused user "cal"/,
    );
  });

  it('leaves unknown errors to the caller', () => {
    expect(describeStartupError(new Error('something else'), mysql)).toBeNull();
    expect(describeStartupError(undefined, loadConfig({}))).toBeNull();
  });
});

describe('an SQLite file that is no database', () => {
  it('names the file and DATABASE_URL, and is not retried', () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite:./notes.txt' });
    const error = Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
    expect(describeStartupError(error, config)).toBe(
      'The file "./notes.txt" of DATABASE_URL is not an SQLite database (name a new file, or the server\'s own database file)',
    );
    expect(isPermanentDatabaseError(error)).toBe(true);
  });
});

describe('isPermanentDatabaseError', () => {
  it('does not retry what waiting cannot fix, and retries the rest', () => {
    expect(isPermanentDatabaseError({ code: 'ER_BAD_DB_ERROR' })).toBe(true);
    expect(isPermanentDatabaseError({ code: 'ER_ACCESS_DENIED_ERROR' })).toBe(true);
    expect(isPermanentDatabaseError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isPermanentDatabaseError(undefined)).toBe(false);
  });
});

describe('describeStartupError in the operator language', () => {
  const err = (props: Record<string, unknown>) => Object.assign(new Error('boom'), props);
  const cfg = loadConfig({ PORT: '8080', HOST: '10.1.2.3' });

  it('says each failure in en, hu and ro', () => {
    const inUse = err({ code: 'EADDRINUSE', syscall: 'listen' });
    expect(describeStartupError(inUse, cfg, cliMessages('hu').t)).toBe(
      'Nem lehet figyelni itt: 10.1.2.3:8080: a portot egy másik folyamat használja (állítsd le, vagy állítsd be a PORT értékét)',
    );
    expect(describeStartupError(inUse, cfg, cliMessages('ro').t)).toBe(
      'Nu se poate asculta pe 10.1.2.3:8080: portul este folosit de alt proces (oprește-l sau setează PORT)',
    );
    const refused = err({ code: 'ECONNREFUSED' });
    expect(describeStartupError(refused, mysql, cliMessages('en').t)).toBe(
      'Cannot reach the database at db.internal:3307 (DATABASE_URL): connection refused; is the server running?',
    );
    expect(describeStartupError(refused, mysql, cliMessages('hu').t)).toBe(
      'Az adatbázis nem érhető el itt: db.internal:3307 (DATABASE_URL): a kapcsolatot elutasította; fut az adatbázis-kiszolgáló?',
    );
    expect(describeStartupError(refused, mysql, cliMessages('ro').t)).toBe(
      'Baza de date de la db.internal:3307 nu poate fi contactată (DATABASE_URL): conexiune refuzată; rulează serverul?',
    );
    const missing = err({ code: 'ER_BAD_DB_ERROR' });
    expect(describeStartupError(missing, mysql, cliMessages('ro').t)).toBe(
      'Baza de date „calendar” nu există pe db.internal:3307 (DATABASE_URL). Creeaz-o cu: CREATE DATABASE `calendar` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
    );
  });
});
