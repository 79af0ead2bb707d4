import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { loadConfig, parseDatabaseUrl } from '../../src/config/config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';

/**
 * The database the e2e suite runs on: `TEST_DATABASE_URL` (MySQL/MariaDB, recreated empty for
 * each test file) or a fresh in-memory SQLite database.
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return 'sqlite::memory:';
  // Test files run in parallel workers: each worker (its pool slot, 1..maxWorkers) gets its own
  // MySQL database.
  const worker = process.env.VITEST_POOL_ID;
  return worker && /^(mysql|mariadb):/.test(url) ? withDatabaseSuffix(url, `_w${worker}`) : url;
}

/** `mysql://u@h:3306/cal_test?x` + `_w2` → `mysql://u@h:3306/cal_test_w2?x`. */
export function withDatabaseSuffix(url: string, suffix: string): string {
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}${suffix}`;
  return parsed.toString();
}

/** Refuses any database that does not look like a test database (it is dropped and recreated). */
function assertTestDatabase(url = process.env.TEST_DATABASE_URL): void {
  if (!url) return;
  const db = parseDatabaseUrl(url);
  if (db.type !== 'sqlite' && !/test/i.test(db.database))
    throw new Error(
      `TEST_DATABASE_URL must name a database whose name contains "test" (it is dropped and recreated), got "${db.database}"`,
    );
}

export const isMysql = () => /^(mysql|mariadb):/.test(testDatabaseUrl());

export async function resetDatabase(url = testDatabaseUrl()): Promise<void> {
  const db = parseDatabaseUrl(url);
  if (db.type === 'sqlite') return;
  assertTestDatabase(url);
  const conn = await createConnection({
    host: db.host,
    port: db.port,
    user: db.username,
    password: db.password,
  });
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${db.database}\``);
    await conn.query(
      `CREATE DATABASE \`${db.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await conn.end();
  }
}

/** The tables and rows every migration leaves in a new MySQL/MariaDB database. */
interface MigratedSchema {
  tables: string[];
  rows: Array<{ table: string; rows: Array<Record<string, unknown>> }>;
}
let migratedSchema: Promise<MigratedSchema> | undefined;

/**
 * Like resetDatabase, then the schema every migration builds, with the migrations recorded as
 * run. On MySQL/MariaDB the migrations run once per worker process (the files of a worker share
 * this module) and later databases are created from the tables and rows they left. Migrations
 * read INFORMATION_SCHEMA for each table they change, hundreds of queries per run; MariaDB 10.11
 * was seen to crash (signal 11 in an INFORMATION_SCHEMA temporary table) during a whole suite of
 * such runs.
 */
export async function resetMigratedDatabase(url = testDatabaseUrl()): Promise<void> {
  await resetDatabase(url);
  if (parseDatabaseUrl(url).type === 'sqlite') return;
  if (!migratedSchema) {
    const first = migrateAndRecord(url);
    migratedSchema = first;
    first.catch(() => {
      if (migratedSchema === first) migratedSchema = undefined;
    });
    await first;
    return;
  }
  const schema = await migratedSchema;
  const conn = await connectTestDatabase(url);
  try {
    await conn.query('SET SESSION foreign_key_checks = 0');
    for (const create of schema.tables) await conn.query(create);
    for (const { table, rows } of schema.rows) {
      const columns = Object.keys(rows[0]);
      await conn.query(
        `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`,
        [rows.map((row) => columns.map((c) => row[c]))],
      );
    }
  } finally {
    await conn.end();
  }
}

async function migrateAndRecord(url: string): Promise<MigratedSchema> {
  const ds = new DataSource(
    dataSourceOptions({ ...loadConfig({ DATABASE_URL: url }), migrationsRun: false }),
  );
  await ds.initialize();
  try {
    await ds.runMigrations();
  } finally {
    await ds.destroy();
  }
  // Dates as the text stored, so that they are written back as they were.
  const conn = await connectTestDatabase(url, { dateStrings: true });
  try {
    const [names] = await conn.query<RowDataPacket[]>('SHOW FULL TABLES');
    const schema: MigratedSchema = { tables: [], rows: [] };
    for (const row of names) {
      const [name, type] = Object.values(row) as string[];
      if (type !== 'BASE TABLE') throw new Error(`a migration made ${type} ${name}: not copied`);
      const [[created]] = await conn.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${name}\``);
      // A table's next AUTO_INCREMENT value is not part of its schema.
      schema.tables.push(String(created['Create Table']).replace(/ AUTO_INCREMENT=\d+/, ''));
      const [rows] = await conn.query<RowDataPacket[]>(`SELECT * FROM \`${name}\``);
      if (rows.length) schema.rows.push({ table: name, rows });
    }
    return schema;
  } finally {
    await conn.end();
  }
}

/** A connection of its own to the MySQL/MariaDB test database (not the app's pool). */
export async function connectTestDatabase(
  url = testDatabaseUrl(),
  options: { dateStrings?: boolean } = {},
) {
  const db = parseDatabaseUrl(url);
  if (db.type === 'sqlite') throw new Error('MySQL/MariaDB only');
  return createConnection({
    host: db.host,
    port: db.port,
    user: db.username,
    password: db.password,
    database: db.database,
    ...options,
  });
}

/** How many rows of `table` match `where` (every row without one), as a number on every engine. */
export async function countRows(
  ds: DataSource,
  table: string,
  where = '1 = 1',
  params: unknown[] = [],
): Promise<number> {
  return Number((await ds.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params))[0].n);
}
