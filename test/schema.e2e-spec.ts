import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/config.js';
import { dataSourceOptions } from '../src/database/data-source.js';
import { entities } from '../src/entities.js';
import { resetDatabase, testDatabaseUrl } from './helpers/database.js';

/** Migrations alone build the schema the entities describe, on the test database's engine. */
describe('schema', () => {
  let ds: DataSource;
  beforeAll(async () => {
    await resetDatabase();
    const config = loadConfig({ DATABASE_URL: testDatabaseUrl() });
    ds = new DataSource({ ...dataSourceOptions({ ...config, migrationsRun: false }), entities });
    await ds.initialize();
  });
  afterAll(() => ds?.destroy());

  it('runs every migration and matches the entities (no drift)', async () => {
    await ds.runMigrations();
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    expect(pending).toEqual([]);
  });

  it('reverts and re-applies cleanly', async () => {
    for (let i = 0; i < ds.migrations.length; i++) await ds.undoLastMigration();
    await ds.runMigrations();
    expect(await ds.showMigrations()).toBe(false);
  });

  it('round-trips Hungarian and Romanian text', async () => {
    await ds.query(
      `INSERT INTO users (login, email, display_name, role, password_hash, created_at) VALUES ('u1', '', ?, 'subscriber', 'x', '2026-01-01 00:00:00')`,
      ['Árvíztűrő tükörfúrógép – Țară Știință'],
    );
    const [row] = await ds.query(`SELECT display_name FROM users WHERE login = 'u1'`);
    expect(row.display_name).toBe('Árvíztűrő tükörfúrógép – Țară Știință');
  });
});
