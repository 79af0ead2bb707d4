import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace a webhook message comes from (src/webhooks, docs/operations.md "Tracing"): the W3C
 * `traceparent` of the request (or command) whose write added the outbox entry, when tracing was
 * on, kept with the entry and copied to each of its deliveries, so that every attempt, retries
 * after a restart included, links its span to that trace. NULL without tracing.
 */
export class WebhookTraceContext1765600000000 implements MigrationInterface {
  name = 'WebhookTraceContext1765600000000';

  async up(q: QueryRunner): Promise<void> {
    const sqlite = q.connection.options.type === 'better-sqlite3';
    // ALTER TABLE ... ADD on both engines: no copy of the tables.
    for (const table of ['webhook_outbox', 'webhook_deliveries']) {
      await q.query(
        sqlite
          ? `ALTER TABLE ${table} ADD COLUMN "traceparent" varchar(55)`
          : `ALTER TABLE ${table} ADD traceparent varchar(55) NULL`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_deliveries', 'webhook_outbox']) {
      await q.dropColumn(table, 'traceparent');
    }
  }
}
