import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumnInPlace, dropColumnsInPlace, index } from './schema-steps.js';

/**
 * Events split off a series (CONTRACT §9, `_tec_update_type`): `events.series_id` is the series an
 * event came from (an occurrence made standalone by `single`, or the new series that `upcoming`
 * starts), `events.series_start` the local start of the occurrence it replaces, so that a feed can
 * name it (RECURRENCE-ID). Both NULL for every other event. Indexed: a series finds its parts.
 */
export class SeriesLinks1765300000000 implements MigrationInterface {
  name = 'SeriesLinks1765300000000';

  async up(q: QueryRunner): Promise<void> {
    // ALTER TABLE ... ADD on both engines: no copy of the events table.
    await addColumnInPlace(q, 'events', 'series_id', 'integer', 'int NULL');
    await addColumnInPlace(q, 'events', 'series_start', 'varchar(19)', 'varchar(19) NULL');
    await q.createIndex('events', index('IDX_events_series', ['series_id']));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('events', 'IDX_events_series');
    await dropColumnsInPlace(q, 'events', ['series_start', 'series_id']);
  }
}
