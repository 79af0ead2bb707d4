import type { DataSource, EntityManager } from 'typeorm';
import { bumpWriteVersion } from './write-version.js';

const RETRYABLE = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY']);
const ATTEMPTS = 5;

/**
 * Every multi-table write runs here: one transaction, retried from the start when the database
 * chose it as a deadlock victim. MySQL/MariaDB run it in READ COMMITTED, so that each statement
 * sees what concurrent writers have committed (unique slugs, the duplicate-venue rule) and gap
 * locks do not turn parallel creates into deadlocks; SQLite serializes writers anyway.
 */
export async function writeTransaction<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const mysql = ds.options.type === 'mysql' || ds.options.type === 'mariadb';
  for (let attempt = 1; ; attempt++) {
    try {
      const result = mysql
        ? await ds.transaction('READ COMMITTED', work)
        : await ds.transaction(work);
      bumpWriteVersion();
      return result;
    } catch (error) {
      const code =
        (error as { code?: string; driverError?: { code?: string } }).driverError?.code ??
        (error as { code?: string }).code;
      if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
