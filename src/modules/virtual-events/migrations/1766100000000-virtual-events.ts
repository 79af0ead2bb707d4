import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/**
 * The Virtual Events module's table (src/modules/virtual-events): one row per virtual event, its
 * link (`url`, "" when none) and where it streams (`video_source`). An event without a row is
 * not virtual; `is_virtual=false` deletes the row. Written with TypeORM's schema builder, so the
 * same migration makes the table on SQLite and MariaDB.
 */
export class VirtualEvents1766100000000 implements MigrationInterface {
  name = 'VirtualEvents1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'virtual_events',
        columns: [
          { name: 'event_id', type: 'integer', isPrimary: true },
          { name: 'url', type: 'varchar', length: '2048', default: "''" },
          { name: 'video_source', type: 'varchar', length: '16', default: "'video'" },
        ],
      }),
      true,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('virtual_events', true);
  }
}
