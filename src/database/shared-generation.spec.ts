import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: better-sqlite3 ships without types (TypeORM drives it)
import BetterSqlite from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.js';
import { SharedGeneration } from './shared-generation.js';
import { WriteVersion } from '../cache/write-version.js';

interface Connection {
  exec(sql: string): void;
  close(): void;
}
const Database = BetterSqlite as new (path: string) => Connection;

describe('SharedGeneration on a SQLite file', () => {
  let dir: string;
  let server: Connection;
  let other: Connection;
  let versions: WriteVersion;
  let generation: SharedGeneration;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cal-generation-'));
    const path = join(dir, 'cal.sqlite');
    server = new Database(path);
    server.exec('CREATE TABLE t (x INTEGER)');
    // Another process's connection to the same file (the CLI's, an import's).
    other = new Database(path);
    versions = new WriteVersion();
    const dataSource = { driver: { databaseConnection: server } } as unknown as DataSource;
    const config = { database: { type: 'sqlite', path } } as unknown as AppConfig;
    generation = new SharedGeneration(config, versions, dataSource);
  });

  afterEach(() => {
    server.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("notices another connection's commit on the very next request, however soon", () => {
    const now = 1_000_000;
    expect(generation.sync(now)).toBeUndefined();
    const before = versions.current();
    other.exec('INSERT INTO t VALUES (1)');
    // The same millisecond: no time has passed in which a periodic check could have run.
    expect(generation.sync(now)).toBeUndefined();
    expect(versions.current()).toBeGreaterThan(before);
  });

  it('keeps the caches while nobody else wrote, and not for its own writes', () => {
    expect(generation.sync(1)).toBeUndefined();
    const before = versions.current();
    server.exec('INSERT INTO t VALUES (2)');
    expect(generation.sync(2)).toBeUndefined();
    expect(generation.sync(3)).toBeUndefined();
    expect(versions.current()).toBe(before);
  });

  it('drops every cached answer when the file cannot be read', () => {
    expect(generation.sync(1)).toBeUndefined();
    const before = versions.current();
    server.close();
    expect(generation.sync(2)).toBeUndefined();
    expect(versions.current()).toBeGreaterThan(before);
    server = new Database(':memory:');
  });
});
