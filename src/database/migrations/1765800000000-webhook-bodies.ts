import type { QueryRunner, TableOptions } from 'typeorm';
import { addColumnInPlace, isSqlite, tablesMigration } from './schema-steps.js';

const webhookBodies = (q: QueryRunner): TableOptions => ({
  name: 'webhook_bodies',
  columns: [
    { name: 'outbox_id', type: 'integer', isPrimary: true },
    { name: 'reader', type: 'varchar', length: '10', isPrimary: true },
    // An event's payload with its embedded venue and organizers outgrows MySQL's `text`.
    { name: 'body', type: isSqlite(q) ? 'text' : 'mediumtext' },
    // When it was written: pruning leaves alone what a fan-out may be writing.
    { name: 'created_at', type: 'bigint' },
  ],
});

/**
 * Webhook message bodies stored once per outbox entry and reader (`webhook_bodies`), instead of
 * once per delivery: the body of a change depends only on the entry and on whether its reader
 * sees private records (`reader`: `public` or `private`), so the subscriptions hearing of one
 * change as the same reader share it. A delivery names its body by its `outbox_id` and `reader`;
 * the key is known before anything is written, so a fan-out writes bodies and deliveries without
 * reading back generated ids. Rows written before keep their own `payload` (their reader is
 * NULL: which reader a subscription was when it was fanned out is not recorded, and two bodies of
 * one entry could otherwise be confused); new rows leave `payload` empty.
 */
export class WebhookBodies1765800000000 extends tablesMigration(webhookBodies) {
  name = 'WebhookBodies1765800000000';

  override async up(q: QueryRunner): Promise<void> {
    await super.up(q);
    // ALTER TABLE ... ADD on both engines: no copy of the deliveries.
    await addColumnInPlace(q, 'webhook_deliveries', 'reader', 'varchar(10)', 'varchar(10) NULL');
  }

  override async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE webhook_deliveries SET payload = (SELECT b.body FROM webhook_bodies b
         WHERE b.outbox_id = webhook_deliveries.outbox_id AND b.reader = webhook_deliveries.reader)
       WHERE reader IS NOT NULL`,
    );
    await q.dropColumn('webhook_deliveries', 'reader');
    await super.down(q);
  }
}
