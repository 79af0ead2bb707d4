import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { migrations } from '../../src/database/migrations/index.js';
import { isMysql, resetDatabase, testDatabaseUrl } from './database.js';
import { closeApp, createTestApp, type TestAppOptions } from './create-test-app.js';

/**
 * A database as it was before migration `name` (its class name's start, e.g. `Images`), for
 * tests of a migration on existing data: `fill` writes the old rows with raw SQL, then the
 * test starts the app on `url` (createTestApp with keepDatabase), which runs the pending
 * migrations as a deployment does. SQLite uses a file, since the app opens its own connection;
 * `cleanup()` removes it.
 */
export async function schemaBefore(
  name: string,
  fill: (query: (sql: string, params?: unknown[]) => Promise<unknown>) => Promise<void>,
): Promise<{ url: string; cleanup: () => void }> {
  const file = join(tmpdir(), `cal-${name.toLowerCase()}-${process.pid}.sqlite`);
  const cleanup = () => {
    if (isMysql()) return;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  };
  const url = isMysql() ? testDatabaseUrl() : `sqlite:${file}`;
  cleanup();
  await resetDatabase(url);
  const before = new DataSource({
    ...dataSourceOptions({ ...loadConfig({ DATABASE_URL: url }), migrationsRun: false }),
    migrations: migrations.slice(
      0,
      migrations.findIndex((m) => m.name.startsWith(name)),
    ),
  });
  await before.initialize();
  try {
    await before.runMigrations();
    await fill((sql, params = []) => before.query(sql, params));
  } finally {
    await before.destroy();
  }
  return { url, cleanup };
}

/**
 * A describe block's app started on a database as it was before migration `name`, filled by
 * `fill` (see schemaBefore): starting the app runs the pending migration, as a deployment does.
 * The app is closed and the database file removed after the block.
 */
export function useAppAfterMigration(
  name: string,
  fill: Parameters<typeof schemaBefore>[1],
  options: TestAppOptions = {},
): { app: () => NestExpressApplication; http: () => ReturnType<typeof request> } {
  let current: NestExpressApplication | undefined;
  let cleanup = () => {};
  beforeAll(async () => {
    const before = await schemaBefore(name, fill);
    cleanup = before.cleanup;
    current = await createTestApp({
      ...options,
      env: { ...options.env, DATABASE_URL: before.url },
      keepDatabase: true,
    });
  });
  afterAll(async () => {
    await closeApp(current);
    cleanup();
  });
  const app = () => {
    if (!current)
      throw new Error('the app is not started (useAppAfterMigration runs in beforeAll)');
    return current;
  };
  return { app, http: () => request(app().getHttpServer()) };
}
