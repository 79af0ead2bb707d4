import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Events split off a series (CONTRACT §9, `_tec_update_type`): `events.series_id` is the series an
 * event came from (an occurrence made standalone by `single`, or the new series that `upcoming`
 * starts), `events.series_start` the local start of the occurrence it replaces, so that a feed can
 * name it (RECURRENCE-ID). Both NULL for every other event. Indexed: a series finds its parts.
 */
export class SeriesLinks1765300000000 implements MigrationInterface {
  name = 'SeriesLinks1765300000000';

  async up(q: QueryRunner): Promise<void> {
    const sqlite = q.connection.options.type === 'better-sqlite3';
    // ALTER TABLE ... ADD on both engines: no copy of the events table.
    await q.query(
      sqlite
        ? 'ALTER TABLE events ADD COLUMN "series_id" integer'
        : 'ALTER TABLE events ADD series_id int NULL',
    );
    await q.query(
      sqlite
        ? 'ALTER TABLE events ADD COLUMN "series_start" varchar(19)'
        : 'ALTER TABLE events ADD series_start varchar(19) NULL',
    );
    await q.createIndex(
      'events',
      new TableIndex({ name: 'IDX_events_series', columnNames: ['series_id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('events', 'IDX_events_series');
    await q.query('ALTER TABLE events DROP COLUMN series_start');
    await q.query('ALTER TABLE events DROP COLUMN series_id');
  }
}
