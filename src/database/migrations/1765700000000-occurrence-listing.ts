import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  addColumnInPlace,
  dropColumnsInPlace,
  EVENTS_LISTING_COLUMNS,
  index,
  isSqlite,
} from './schema-steps.js';

/**
 * The columns of its event that a list filters and orders on, copied onto each occurrence
 * (CONTRACT §9): `language`, `hide_from_listings`, `status`, `date`, `date_utc` and
 * `author_id`, under the events' own names, kept in step by every event write
 * (EventsRepository.save and trash). With `IDX_occurrences_listed`, in the order of
 * `IDX_events_listing`, a list of occurrences reads one index range in its own order and stops
 * at the page's end, and its total is counted from the index alone, as for single events (the
 * index holds every column a list item reads of an occurrence: a row read per entry made MariaDB
 * walk the language's whole range for a page, 22 ms against 0.9 ms covered). Before,
 * every occurrence was joined to its event to test its language and visibility, and the order's
 * second key (the publication date) came from the join, so a page sorted every occurrence of the
 * window (lists ~100 times slower with 100,000 occurrences).
 */
export class OccurrenceListing1765700000000 implements MigrationInterface {
  name = 'OccurrenceListing1765700000000';

  async up(q: QueryRunner): Promise<void> {
    const sqlite = isSqlite(q);
    const add = (name: string, type: string, rest: string) =>
      addColumnInPlace(q, 'event_occurrences', name, `${type} ${rest}`, `${type} ${rest}`);
    await add('language', 'varchar(5)', "NOT NULL DEFAULT ''");
    await add('hide_from_listings', 'smallint', `NOT NULL DEFAULT ${sqlite ? '(0)' : '0'}`);
    await add('status', 'varchar(20)', "NOT NULL DEFAULT 'draft'");
    await add('date', 'varchar(19)', "NOT NULL DEFAULT ''");
    await add('date_utc', 'varchar(19)', 'NULL');
    await add('author_id', 'integer', `NOT NULL DEFAULT ${sqlite ? '(0)' : '0'}`);
    const copied = ['language', 'hide_from_listings', 'status', 'date', 'date_utc', 'author_id'];
    await q.query(
      `UPDATE event_occurrences SET ${copied
        .map((c) => `${c} = (SELECT e.${c} FROM events e WHERE e.id = event_occurrences.event_id)`)
        .join(', ')}`,
    );
    await q.createIndex(
      'event_occurrences',
      index('IDX_occurrences_listed', [
        ...EVENTS_LISTING_COLUMNS,
        'event_id',
        'start_utc',
        'end_utc',
        'day_index',
      ]),
    );
    await q.dropIndex('event_occurrences', 'IDX_occurrences_listing');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'event_occurrences',
      index('IDX_occurrences_listing', ['start_date', 'event_id', 'end_date', 'id']),
    );
    await q.dropIndex('event_occurrences', 'IDX_occurrences_listed');
    await dropColumnsInPlace(q, 'event_occurrences', [
      'author_id',
      'date_utc',
      'date',
      'status',
      'hide_from_listings',
      'language',
    ]);
  }
}
