import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

/** The transaction each DataSource's SQLite connection is given to next, after those before. */
const queues = new WeakMap<DataSource, Promise<unknown>>();
/** The DataSource whose transaction the current async context runs in. */
const inside = new AsyncLocalStorage<DataSource>();

/**
 * The first statement of a SQLite transaction: a write that changes nothing, so that the
 * transaction holds the database's write lock from its start, as `BEGIN IMMEDIATE` would (TypeORM
 * begins them deferred). Another connection (the webhook dispatcher's thread, the CLI) that
 * commits in between then makes it wait (the busy timeout), where a transaction that had read
 * first would fail at its first write with SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out.
 * `migrations` is there in every database the server runs on.
 */
const WRITE_LOCK = 'UPDATE "migrations" SET "id" = "id" WHERE 0';

/**
 * `ds.transaction(work)`, on SQLite one transaction at a time per DataSource. better-sqlite3
 * has one connection for the process, on which TypeORM opens a transaction begun while another
 * is open as a savepoint of the other: their statements would commit (or roll back) together,
 * an answer already given for one taken back by the other's rollback. So a transaction waits
 * for the ones begun before it to end. A transaction begun by the work of another (in its async
 * context) is nested in it, as before. A SQLite transaction takes the write lock first (WRITE_LOCK).
 * MySQL/MariaDB run each on a pool connection of its own.
 */
export function transaction<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (ds.options.type !== 'better-sqlite3' || inside.getStore() === ds) {
    return ds.transaction(work);
  }
  const before = queues.get(ds) ?? Promise.resolve();
  const mine = before.then(() =>
    inside.run(ds, () =>
      ds.transaction(async (manager) => {
        await manager.query(WRITE_LOCK);
        return work(manager);
      }),
    ),
  );
  queues.set(
    ds,
    mine.catch(() => undefined),
  );
  return mine;
}
