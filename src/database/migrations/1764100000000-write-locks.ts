import type { TableOptions } from 'typeorm';
import { tablesMigration } from './schema-steps.js';

const WRITE_LOCKS: TableOptions = {
  name: 'write_locks',
  columns: [{ name: 'lock_key', type: 'varchar', length: '64', isPrimary: true }],
};

/**
 * Keys that writers lock to run one at a time where no unique index can decide, e.g. the
 * duplicate rule of venues and organizers (BEHAVIOR §7.4.2: a record with the same name is
 * reused), see database/write-lock.ts.
 */
export class WriteLocks1764100000000 extends tablesMigration(WRITE_LOCKS) {
  name = 'WriteLocks1764100000000';
}
