import { createConnection } from 'mysql2/promise';
import { parseDatabaseUrl } from '../../src/config/config.js';

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
export function assertTestDatabase(url = process.env.TEST_DATABASE_URL): void {
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

/** A connection of its own to the MySQL/MariaDB test database (not the app's pool). */
export async function connectTestDatabase(url = testDatabaseUrl()) {
  const db = parseDatabaseUrl(url);
  if (db.type === 'sqlite') throw new Error('MySQL/MariaDB only');
  return createConnection({
    host: db.host,
    port: db.port,
    user: db.username,
    password: db.password,
    database: db.database,
  });
}
