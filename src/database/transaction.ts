import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

/** The transaction each DataSource's SQLite connection is given to next, after those before. */
const queues = new WeakMap<DataSource, Promise<unknown>>();
/** The DataSource whose transaction the current async context runs in. */
const inside = new AsyncLocalStorage<DataSource>();

/**
 * `ds.transaction(work)`, on SQLite one transaction at a time per DataSource. better-sqlite3
 * has one connection for the process, on which TypeORM opens a transaction begun while another
 * is open as a savepoint of the other: their statements would commit (or roll back) together,
 * an answer already given for one taken back by the other's rollback. So a transaction waits
 * for the ones begun before it to end. A transaction begun by the work of another (in its async
 * context) is nested in it, as before. MySQL/MariaDB run each on a pool connection of its own.
 */
export function transaction<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (ds.options.type !== 'better-sqlite3' || inside.getStore() === ds) {
    return ds.transaction(work);
  }
  const before = queues.get(ds) ?? Promise.resolve();
  const mine = before.then(() => inside.run(ds, () => ds.transaction(work)));
  queues.set(
    ds,
    mine.catch(() => undefined),
  );
  return mine;
}
