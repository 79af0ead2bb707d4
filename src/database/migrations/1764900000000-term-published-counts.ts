import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each term keeps the number of its published events (`terms.published_count`, the events of
 * its language with status `publish`), written with the links: reading a count was a range scan
 * of IDX_event_terms_count per term, repeated for every term an answer shows after each write,
 * and an event create counted its terms' thousands of links again to answer. Scheduled events
 * whose date has passed are still counted on read (TermsRepository: a range of the few `future`
 * links), so that the clock alone needs no write.
 *
 * The column is filled here from the links as they are.
 */
export class TermPublishedCounts1764900000000 implements MigrationInterface {
  name = 'TermPublishedCounts1764900000000';

  async up(q: QueryRunner): Promise<void> {
    const sqlite = q.connection.options.type === 'better-sqlite3';
    await q.query(
      `ALTER TABLE terms ADD ${sqlite ? 'COLUMN "published_count" integer' : 'published_count int'} NOT NULL DEFAULT ${sqlite ? '(0)' : '0'}`,
    );
    await q.query(
      `UPDATE terms SET published_count = (SELECT COUNT(*) FROM event_terms et
         WHERE et.term_id = terms.id AND et.event_language = terms.language AND et.event_status = 'publish')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE terms DROP COLUMN published_count');
  }
}
