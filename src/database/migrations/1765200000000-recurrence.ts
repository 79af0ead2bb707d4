import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { addColumnInPlace, dropColumnsInPlace, index } from './schema-steps.js';

/**
 * Recurring events (CONTRACT §9).
 * - `events.recurrence`: the series' rules, exclusion and added dates as stored (JSON
 *   `{rules, exdates, rdates}`, local dates of the event's zone); NULL for a single event. The
 *   event row is the series: its own dates are the first occurrence.
 * - `events.occurrences_until`: the local wall clock up to which the occurrences of an unbounded
 *   series are materialized (extended as time passes); `9999-12-31 23:59:59` once a series is
 *   complete; NULL for a single event. Indexed: the list finds the recurring events by it.
 * - `event_occurrences`: one row per occurrence, its local and UTC times; the id is the
 *   occurrence id of the provisional ids (10,000,000 + id), kept for the same event and start
 *   across edits. `day_index` numbers the occurrences of an event starting the same local day
 *   (the `{n}/` of their urls). Listed by start, as events are.
 */
export class Recurrence1765200000000 implements MigrationInterface {
  name = 'Recurrence1765200000000';

  async up(q: QueryRunner): Promise<void> {
    // ALTER TABLE ... ADD on both engines: no copy of the events table.
    await addColumnInPlace(q, 'events', 'recurrence', 'text', 'text NULL');
    await addColumnInPlace(q, 'events', 'occurrences_until', 'varchar(19)', 'varchar(19) NULL');
    await q.createIndex('events', index('IDX_events_recurring', ['occurrences_until']));
    const datetime = (name: string) => ({ name, type: 'varchar', length: '19' });
    await q.createTable(
      new Table({
        name: 'event_occurrences',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'event_id', type: 'integer' },
          datetime('start_date'),
          datetime('end_date'),
          datetime('start_utc'),
          datetime('end_utc'),
          { name: 'day_index', type: 'smallint', default: 1 },
        ],
        indices: [
          {
            name: 'IDX_occurrences_event',
            columnNames: ['event_id', 'start_date'],
            isUnique: true,
          },
          {
            name: 'IDX_occurrences_listing',
            columnNames: ['start_date', 'event_id', 'end_date', 'id'],
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('event_occurrences');
    await q.dropIndex('events', 'IDX_events_recurring');
    await dropColumnsInPlace(q, 'events', ['occurrences_until', 'recurrence']);
  }
}
