import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { later } from './statement-batch.js';

/**
 * Takes an exclusive lock on `key` until the caller's transaction ends, so that writers of the
 * same key run one after the other (the second then sees what the first committed, since write
 * transactions read committed data). MySQL/MariaDB lock the `write_locks` row that the upsert
 * touches (sent with the transaction's next statement: `later`); SQLite has a single writer at
 * a time, which already gives the same order.
 */
export async function lockKey(manager: EntityManager, key: string): Promise<void> {
  const type = manager.connection.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return;
  const hashed = createHash('sha256').update(key).digest('hex');
  await later(
    manager,
    'INSERT INTO write_locks (lock_key) VALUES (?) ON DUPLICATE KEY UPDATE lock_key = lock_key',
    [hashed],
  );
}
