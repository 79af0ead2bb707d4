import { createConnection } from 'mysql2/promise';
import { parseDatabaseUrl } from '../../src/config/config.js';

/**
 * The database the e2e suite runs on: `TEST_DATABASE_URL` (MySQL/MariaDB, recreated empty for
 * each test file) or a fresh in-memory SQLite database.
 */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL || 'sqlite::memory:';
}

export const isMysql = () => /^(mysql|mariadb):/.test(testDatabaseUrl());

export async function resetDatabase(url = testDatabaseUrl()): Promise<void> {
  const db = parseDatabaseUrl(url);
  if (db.type === 'sqlite') return;
  // Refuse to wipe anything that does not look like a test database.
  if (!/test/i.test(db.database)) {
    throw new Error(
      `TEST_DATABASE_URL must name a database containing "test", got "${db.database}"`,
    );
  }
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
