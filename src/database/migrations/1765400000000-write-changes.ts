import type { TableOptions } from 'typeorm';
import { tablesMigration } from './schema-steps.js';

const WRITE_CHANGES: TableOptions = {
  name: 'write_changes',
  columns: [
    { name: 'generation', type: 'bigint', isPrimary: true },
    { name: 'source', type: 'varchar', length: '32' },
    { name: 'tags', type: 'text' },
  ],
};

/**
 * What each write generation may have altered (its tags), so that the other server processes on
 * the database drop only the cached answers that depend on it (database/shared-generation.ts). The
 * process that stored a row (`source`) skips it; old rows are pruned.
 */
export class WriteChanges1765400000000 extends tablesMigration(WRITE_CHANGES) {
  name = 'WriteChanges1765400000000';
}
