import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * What each write generation may have altered (its tags), so that the other server processes on
 * the database drop only the cached answers that depend on it (database/shared-generation.ts). The
 * process that stored a row (`source`) skips it; old rows are pruned.
 */
export class WriteChanges1765400000000 implements MigrationInterface {
  name = 'WriteChanges1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'write_changes',
        columns: [
          { name: 'generation', type: 'bigint', isPrimary: true },
          { name: 'source', type: 'varchar', length: '32' },
          { name: 'tags', type: 'text' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('write_changes');
  }
}
