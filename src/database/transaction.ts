import { AsyncLocalStorage } from 'node:async_hooks';
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
  const rider = riders.getStore();
  const run =
    rider && !rider.done
      ? async (manager: EntityManager) => {
          const result = await work(manager);
          await rider.work(manager, result);
          return result;
        }
      : work;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = mysql
        ? await ds.transaction('READ COMMITTED', run)
        : await ds.transaction(run);
      if (rider) rider.done = true;
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

interface Rider {
  work: (manager: EntityManager, result: unknown) => Promise<void>;
  done: boolean;
}
const riders = new AsyncLocalStorage<Rider>();

/**
 * Runs `fn` (which calls a service that writes) so that the first writeTransaction it starts also
 * runs `work`, in the same transaction, after the service's own work, with what that work
 * returned (the new record's id for a create). The importer writes its source→local map this
 * way: a record and its map row are committed together or not at all.
 */
export function withinNextWrite<T>(
  work: (manager: EntityManager, result: unknown) => Promise<void>,
  fn: () => Promise<T>,
): Promise<T> {
  return riders.run({ work, done: false }, fn);
}
