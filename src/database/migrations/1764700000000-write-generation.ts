import type { QueryRunner, TableOptions } from 'typeorm';
import { tablesMigration } from './schema-steps.js';

const WRITE_GENERATION: TableOptions = {
  name: 'write_generation',
  columns: [
    { name: 'id', type: 'int', isPrimary: true },
    { name: 'value', type: 'bigint', default: 0 },
  ],
};

/**
 * One row counting committed writes, so that several server processes on one database learn of
 * each other's writes and drop their cached answers (database/shared-generation.ts).
 */
export class WriteGeneration1764700000000 extends tablesMigration(WRITE_GENERATION) {
  name = 'WriteGeneration1764700000000';

  override async up(q: QueryRunner): Promise<void> {
    await super.up(q);
    await q.query('INSERT INTO write_generation (id, value) VALUES (1, 0)');
  }
}
