import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Keys that writers lock to run one at a time where no unique index can decide, e.g. the
 * duplicate rule of venues and organizers (BEHAVIOR §7.4.2: a record with the same name is
 * reused), see database/write-lock.ts.
 */
export class WriteLocks1764100000000 implements MigrationInterface {
  name = 'WriteLocks1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'write_locks',
        columns: [{ name: 'lock_key', type: 'varchar', length: '64', isPrimary: true }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('write_locks');
  }
}
