import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One row counting committed writes, so that several server processes on one database learn of
 * each other's writes and drop their cached answers (database/shared-generation.ts).
 */
export class WriteGeneration1764700000000 implements MigrationInterface {
  name = 'WriteGeneration1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'write_generation',
        columns: [
          { name: 'id', type: 'int', isPrimary: true },
          { name: 'value', type: 'bigint', default: 0 },
        ],
      }),
    );
    await q.query('INSERT INTO write_generation (id, value) VALUES (1, 0)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('write_generation');
  }
}
