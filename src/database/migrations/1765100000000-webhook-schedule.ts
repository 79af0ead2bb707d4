import type { QueryRunner, TableOptions } from 'typeorm';
import { index, tablesMigration } from './schema-steps.js';

const WEBHOOK_SCHEDULE: TableOptions = {
  name: 'webhook_schedule',
  columns: [
    { name: 'kind', type: 'varchar', length: '20', isPrimary: true },
    { name: 'record_id', type: 'integer', isPrimary: true },
    { name: 'publish_at', type: 'varchar', length: '19' },
  ],
  indices: [index('IDX_webhook_schedule_due', ['publish_at'])],
};

/**
 * The scheduled publications webhooks wait for (src/webhooks): one row per post left `future`
 * with a date still ahead, written in the write's own transaction; when the date passes, one
 * process turns the row into a `published` outbox entry and deletes it in one transaction. Filled
 * here with the posts already scheduled (`date_utc` is `YYYY-MM-DD HH:MM:SS` text in UTC).
 */
export class WebhookSchedule1765100000000 extends tablesMigration(WEBHOOK_SCHEDULE) {
  name = 'WebhookSchedule1765100000000';

  override async up(q: QueryRunner): Promise<void> {
    await super.up(q);
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    for (const [kind, table] of [
      ['event', 'events'],
      ['venue', 'venues'],
      ['organizer', 'organizers'],
    ]) {
      await q.query(
        `INSERT INTO webhook_schedule (kind, record_id, publish_at)
         SELECT ?, id, date_utc FROM ${table} WHERE status = 'future' AND date_utc > ?`,
        [kind, now],
      );
    }
  }
}
