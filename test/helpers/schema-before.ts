import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { migrations } from '../../src/database/migrations/index.js';
import { isMysql, resetDatabase, testDatabaseUrl } from './database.js';

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
