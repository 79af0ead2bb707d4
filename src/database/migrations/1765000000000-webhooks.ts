import type { QueryRunner, TableOptions } from 'typeorm';
import { index, isSqlite, namedLeasesTable, tablesMigration } from './schema-steps.js';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true } as const;
const generated = { ...id, generationStrategy: 'increment' } as const;

const SUBSCRIPTIONS: TableOptions = {
  name: 'webhook_subscriptions',
  columns: [
    generated,
    { name: 'url', type: 'varchar', length: '2048' },
    { name: 'events', type: 'text' },
    { name: 'language', type: 'varchar', length: '10', isNullable: true },
    { name: 'include_private', type: 'boolean', default: false },
    { name: 'active', type: 'boolean', default: true },
    { name: 'secret', type: 'varchar', length: '100' },
    { name: 'previous_secret', type: 'varchar', length: '100', isNullable: true },
    { name: 'previous_secret_until', type: 'bigint', isNullable: true },
    { name: 'failing_since', type: 'bigint', isNullable: true },
    { name: 'failure_reason', type: 'varchar', length: '500', isNullable: true },
    { name: 'created_at', type: 'bigint' },
    { name: 'modified_at', type: 'bigint' },
  ],
};

const OUTBOX: TableOptions = {
  name: 'webhook_outbox',
  columns: [
    generated,
    { name: 'kind', type: 'varchar', length: '20' },
    { name: 'record_id', type: 'integer' },
    { name: 'action', type: 'varchar', length: '20' },
    { name: 'status', type: 'varchar', length: '20', isNullable: true },
    { name: 'previous_status', type: 'varchar', length: '20', isNullable: true },
    { name: 'language', type: 'varchar', length: '10', isNullable: true },
    { name: 'created_at', type: 'bigint' },
    { name: 'dispatched_at', type: 'bigint', isNullable: true },
  ],
  indices: [index('IDX_webhook_outbox_pending', ['dispatched_at', 'id'])],
};

/** An event's payload with its embedded venue and organizers outgrows MySQL's `text`. */
const deliveries = (payloadType: string): TableOptions => ({
  name: 'webhook_deliveries',
  columns: [
    generated,
    { name: 'subscription_id', type: 'integer' },
    { name: 'outbox_id', type: 'integer' },
    { name: 'message_id', type: 'varchar', length: '40' },
    { name: 'record_key', type: 'varchar', length: '40' },
    { name: 'type', type: 'varchar', length: '40' },
    // An event's payload with its embedded venue and organizers outgrows MySQL's `text`.
    { name: 'payload', type: payloadType },
    { name: 'status', type: 'varchar', length: '20' },
    { name: 'attempts', type: 'integer', default: 0 },
    { name: 'next_attempt_at', type: 'bigint' },
    { name: 'lease_owner', type: 'varchar', length: '40', isNullable: true },
    { name: 'lease_until', type: 'bigint', isNullable: true },
    { name: 'response_status', type: 'integer', isNullable: true },
    { name: 'error', type: 'varchar', length: '500', isNullable: true },
    { name: 'duration_ms', type: 'integer', isNullable: true },
    { name: 'created_at', type: 'bigint' },
    { name: 'finished_at', type: 'bigint', isNullable: true },
  ],
  indices: [
    index('IDX_webhook_deliveries_due', ['status', 'next_attempt_at']),
    index('IDX_webhook_deliveries_record', ['subscription_id', 'record_key', 'status']),
    index('IDX_webhook_deliveries_log', ['subscription_id', 'id']),
  ],
});

/**
 * Webhooks (src/webhooks): the subscriptions, the outbox every write adds its changes to in its
 * own transaction, the deliveries fanned out from it (one per subscription and change, with their
 * attempts: the delivery log), and the named leases that let one process at a time fan out.
 * Instants are milliseconds since the epoch (`bigint`): leases and retries compare them.
 */
export class Webhooks1765000000000 extends tablesMigration(
  SUBSCRIPTIONS,
  OUTBOX,
  (q) => deliveries(isSqlite(q) ? 'text' : 'mediumtext'),
  namedLeasesTable('webhook_leases'),
) {
  name = 'Webhooks1765000000000';

  override async up(q: QueryRunner): Promise<void> {
    await super.up(q);
    await q.query("INSERT INTO webhook_leases (name, lease_until) VALUES ('fanout', 0)");
  }
}
