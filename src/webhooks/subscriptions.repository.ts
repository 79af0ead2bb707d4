import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { transaction } from '../database/transaction.js';
import { execute, num, select, type Row } from './webhook-sql.js';

/** A subscription row as stored. */
export interface SubscriptionRow {
  id: number;
  url: string;
  events: string[];
  language: string | null;
  includePrivate: boolean;
  active: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  failingSince: number | null;
  failureReason: string | null;
  createdAt: number;
  modifiedAt: number;
}

export type SubscriptionFields = Pick<
  SubscriptionRow,
  'url' | 'events' | 'language' | 'includePrivate' | 'active'
>;

function toSubscription(r: Row): SubscriptionRow {
  return {
    id: Number(r.id),
    url: String(r.url),
    events: JSON.parse(String(r.events)) as string[],
    language: (r.language as string | null) ?? null,
    includePrivate: !!Number(r.include_private),
    active: !!Number(r.active),
    secret: String(r.secret),
    previousSecret: (r.previous_secret as string | null) ?? null,
    previousSecretUntil: num(r.previous_secret_until),
    failingSince: num(r.failing_since),
    failureReason: (r.failure_reason as string | null) ?? null,
    createdAt: Number(r.created_at),
    modifiedAt: Number(r.modified_at),
  };
}

/** The columns an administrator writes, in the order of the statements below: url to active. */
const fieldValues = (fields: SubscriptionFields) => [
  fields.url,
  JSON.stringify(fields.events),
  fields.language,
  fields.includePrivate ? 1 : 0,
  fields.active ? 1 : 0,
];

/**
 * The subscriptions (`webhook_subscriptions`): what administrators manage, and the failing state
 * the deliveries leave on them.
 */
@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async createSubscription(fields: SubscriptionFields, secret: string, now: number) {
    const { insertId } = await execute(
      this.ds,
      `INSERT INTO webhook_subscriptions
         (url, events, language, include_private, active, secret, created_at, modified_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [...fieldValues(fields), secret, now, now],
    );
    return insertId;
  }

  async listSubscriptions(): Promise<SubscriptionRow[]> {
    return (await select(this.ds, 'SELECT * FROM webhook_subscriptions ORDER BY id')).map(
      toSubscription,
    );
  }

  async countSubscriptions(): Promise<number> {
    const [row] = await select(this.ds, 'SELECT COUNT(*) AS n FROM webhook_subscriptions');
    return Number(row.n);
  }

  async findSubscription(id: number): Promise<SubscriptionRow | null> {
    const [row] = await select(this.ds, 'SELECT * FROM webhook_subscriptions WHERE id = ?', [id]);
    return row ? toSubscription(row) : null;
  }

  async updateSubscription(id: number, fields: SubscriptionFields, now: number): Promise<void> {
    await execute(
      this.ds,
      `UPDATE webhook_subscriptions
         SET url = ?, events = ?, language = ?, include_private = ?, active = ?, modified_at = ?
       WHERE id = ?`,
      [...fieldValues(fields), now, id],
    );
  }

  /** A new secret; the old one signs beside it until `graceUntil`. */
  async rotateSecret(id: number, secret: string, graceUntil: number, now: number): Promise<void> {
    await execute(
      this.ds,
      `UPDATE webhook_subscriptions
         SET previous_secret = secret, previous_secret_until = ?, secret = ?, modified_at = ?
       WHERE id = ?`,
      [graceUntil, secret, now, id],
    );
  }

  async deleteSubscription(id: number): Promise<void> {
    await transaction(this.ds, async (manager) => {
      await execute(
        this.ds,
        'DELETE FROM webhook_deliveries WHERE subscription_id = ?',
        [id],
        manager,
      );
      await execute(this.ds, 'DELETE FROM webhook_subscriptions WHERE id = ?', [id], manager);
    });
  }

  async markFailing(id: number, reason: string, now: number): Promise<void> {
    await execute(
      this.ds,
      `UPDATE webhook_subscriptions SET failure_reason = ?,
         failing_since = CASE WHEN failing_since IS NULL THEN ? ELSE failing_since END
       WHERE id = ?`,
      [reason.slice(0, 500), now, id],
    );
  }

  async clearFailing(id: number): Promise<void> {
    await execute(
      this.ds,
      `UPDATE webhook_subscriptions SET failing_since = NULL, failure_reason = NULL
       WHERE id = ? AND failing_since IS NOT NULL`,
      [id],
    );
  }
}
