import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { execute, num, select, tableWithIndex, type Row } from './webhook-sql.js';

type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A due delivery, by id, with the subscription it goes to (the target it takes a slot of). */
export interface DueDelivery {
  id: number;
  subscriptionId: number;
}

export interface DeliveryRow {
  id: number;
  subscriptionId: number;
  outboxId: number;
  messageId: string;
  recordKey: string;
  type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number | null;
  createdAt: number;
  finishedAt: number | null;
  /** Its outbox entry's `traceparent`: every attempt's span links to it. */
  traceparent: string | null;
}

/** What an attempt left: the delivery's new state. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

function toDelivery(r: Row): DeliveryRow {
  return {
    id: Number(r.id),
    subscriptionId: Number(r.subscription_id),
    outboxId: Number(r.outbox_id),
    messageId: String(r.message_id),
    recordKey: String(r.record_key),
    type: String(r.type),
    // The shared body (webhook_bodies) when the row names one, else the row's own payload.
    payload: typeof r.body === 'string' ? r.body : typeof r.payload === 'string' ? r.payload : '',
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    responseStatus: num(r.response_status),
    error: (r.error as string | null) ?? null,
    durationMs: num(r.duration_ms),
    createdAt: Number(r.created_at),
    finishedAt: num(r.finished_at),
    traceparent: (r.traceparent as string | null | undefined) ?? null,
  };
}

/** The columns of the delivery log (the payload is read only to send it). */
const LOG_COLUMNS =
  'id, subscription_id, outbox_id, message_id, record_key, type, status, attempts, next_attempt_at, response_status, error, duration_ms, created_at, finished_at';

/**
 * The deliveries (`webhook_deliveries`): which are due, leased to one process at a time, the
 * outcomes of their attempts, the log administrators read and replay, and how long it is kept.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Deliveries due now, the longest due first, each the earliest pending one of its record for
   * its subscription (in order per record: a later change waits for the earlier one), of the
   * subscriptions `active` (as the caller's pass read them), not leased by a live process.
   *
   * The subscriptions are given, not joined, so that the database walks
   * IDX_webhook_deliveries_due (status, next_attempt_at, then the primary key) in the order asked
   * and stops at the LIMIT. Joined to the subscriptions, MariaDB read the few subscriptions first
   * and then every delivery each ever had, sorting the pending ones: a cost per round that grew
   * with the whole table, delivered rows included, until a backlog of 15,000 deliveries drained
   * at 55 a second instead of 450. Found and leased in two statements, not one UPDATE with this
   * as its subquery: MariaDB would read the subquery's rows with shared locks, and the fan-out's
   * inserts and the other processes' claims would wait on them, where this
   * SELECT reads a snapshot and takes none.
   *
   * Both indexes are forced. Left to its statistics, MariaDB looked for a record's earlier
   * pending change through IDX_webhook_deliveries_log (subscription, id), reading every earlier
   * delivery of the subscription for each candidate: 15 ms a round on 18,000 fresh deliveries,
   * 65 ms once a third were delivered, 3 ms of database CPU per create where
   * IDX_webhook_deliveries_record (subscription, record, status) takes 0.3.
   */
  async dueDeliveries(
    now: number,
    limit: number,
    active: readonly number[],
  ): Promise<DueDelivery[]> {
    if (!active.length) return [];
    const rows = await select(
      this.ds,
      `SELECT d.id, d.subscription_id FROM ${tableWithIndex(this.ds, 'webhook_deliveries', 'd', 'IDX_webhook_deliveries_due')}
       WHERE d.status = 'pending' AND d.next_attempt_at <= ?
         AND d.subscription_id IN (${active.map(() => '?').join(', ')})
         AND (d.lease_until IS NULL OR d.lease_until < ?)
         AND NOT EXISTS (SELECT 1
           FROM ${tableWithIndex(this.ds, 'webhook_deliveries', 'e', 'IDX_webhook_deliveries_record')}
           WHERE e.subscription_id = d.subscription_id AND e.record_key = d.record_key
             AND e.status = 'pending' AND e.id < d.id)
       ORDER BY d.next_attempt_at, d.id LIMIT ${Math.trunc(limit)}`,
      [now, ...active, now],
    );
    return rows.map((r) => ({ id: Number(r.id), subscriptionId: Number(r.subscription_id) }));
  }

  /**
   * The earliest moment a pending delivery becomes due (null: none). A scheduled post going live
   * is the clock's to tell (database/scheduled-publications.ts).
   */
  async nextDue(): Promise<number | null> {
    const [row] = await select(
      this.ds,
      `SELECT MIN(next_attempt_at) AS next FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return num(row?.next);
  }

  /**
   * Leases the deliveries `ids` that nobody holds to `owner` until `until`, in one statement, and
   * answers those this call got (those another process took first are left out).
   */
  async claimDeliveries(
    ids: readonly number[],
    owner: string,
    now: number,
    until: number,
  ): Promise<DeliveryRow[]> {
    if (!ids.length) return [];
    const marks = ids.map(() => '?').join(', ');
    const { affected } = await execute(
      this.ds,
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE id IN (${marks}) AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)`,
      [owner, until, ...ids, now],
    );
    if (!affected) return [];
    // The owner names this process, whose rounds run one at a time: with the lease's end, the
    // rows this statement leased.
    const rows = await select(
      this.ds,
      `SELECT d.*, b.body FROM webhook_deliveries d
       LEFT JOIN webhook_bodies b ON b.outbox_id = d.outbox_id AND b.reader = d.reader
       WHERE d.id IN (${marks}) AND d.lease_owner = ? AND d.lease_until = ? ORDER BY d.id`,
      [...ids, owner, until],
    );
    return rows.map(toDelivery);
  }

  /**
   * Stores the outcome of deliveries that succeeded, in one statement, for those whose lease is
   * still this process's; answers how many were stored.
   */
  async finishDelivered(
    done: ReadonlyArray<{ id: number; responseStatus: number | null; durationMs: number }>,
    owner: string,
    now: number,
  ): Promise<number> {
    if (!done.length) return 0;
    const cases = (column: 'responseStatus' | 'durationMs') => ({
      sql: `CASE id ${done.map(() => 'WHEN ? THEN ?').join(' ')} END`,
      params: done.flatMap((d) => [d.id, d[column]]),
    });
    const status = cases('responseStatus');
    const duration = cases('durationMs');
    const { affected } = await execute(
      this.ds,
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,
         response_status = ${status.sql}, duration_ms = ${duration.sql}, error = NULL,
         finished_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE id IN (${done.map(() => '?').join(', ')}) AND lease_owner = ?`,
      [...status.params, ...duration.params, now, ...done.map((d) => d.id), owner],
    );
    return affected;
  }

  /**
   * Stores the outcomes of failed attempts of one status (`pending`: tried again later, or
   * `failed`), in one statement, for the deliveries whose lease is still this process's; answers
   * how many were stored.
   */
  async finishAttempts(
    outcomes: ReadonlyArray<AttemptOutcome & { id: number }>,
    owner: string,
    now: number,
  ): Promise<number> {
    if (!outcomes.length) return 0;
    const [{ status }] = outcomes;
    if (outcomes.some((o) => o.status !== status)) throw new Error('one status per statement');
    const cases = (value: (o: AttemptOutcome) => unknown) => ({
      sql: `CASE id ${outcomes.map(() => 'WHEN ? THEN ?').join(' ')} END`,
      params: outcomes.flatMap((o) => [o.id, value(o)]),
    });
    const next = cases((o) => o.nextAttemptAt);
    const response = cases((o) => o.responseStatus);
    const error = cases((o) => o.error?.slice(0, 500) ?? null);
    const duration = cases((o) => o.durationMs);
    const { affected } = await execute(
      this.ds,
      `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1,
         next_attempt_at = ${next.sql}, response_status = ${response.sql}, error = ${error.sql},
         duration_ms = ${duration.sql}, finished_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE id IN (${outcomes.map(() => '?').join(', ')}) AND lease_owner = ?`,
      [
        status,
        ...next.params,
        ...response.params,
        ...error.params,
        ...duration.params,
        status === 'pending' ? null : now,
        ...outcomes.map((o) => o.id),
        owner,
      ],
    );
    return affected;
  }

  async listDeliveries(
    subscriptionId: number,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const rows = await select(
      this.ds,
      `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ?
       ORDER BY id DESC LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
      [subscriptionId],
    );
    const [count] = await select(
      this.ds,
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE subscription_id = ?',
      [subscriptionId],
    );
    return { rows: rows.map(toDelivery), total: Number(count.n) };
  }

  async findDelivery(subscriptionId: number, id: number): Promise<DeliveryRow | null> {
    const [row] = await select(
      this.ds,
      `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ? AND id = ?`,
      [subscriptionId, id],
    );
    return row ? toDelivery(row) : null;
  }

  /**
   * A replay: the same message (id, type, body) sent again as a new delivery, its attempts linked
   * to the trace of the write it announces. Copied from the delivery's row in one statement, so
   * that the copy exists before prune() next looks for the bodies no delivery names (a delivery
   * pruned meanwhile is not copied: 0).
   */
  async replay(delivery: DeliveryRow, now: number): Promise<number> {
    const { affected, insertId } = await execute(
      this.ds,
      `INSERT INTO webhook_deliveries (subscription_id, outbox_id, reader, message_id,
         record_key, type, payload, status, attempts, next_attempt_at, created_at, traceparent)
       SELECT subscription_id, outbox_id, reader, message_id, record_key, type, payload,
         'pending', 0, ?, ?, traceparent
       FROM webhook_deliveries WHERE id = ?`,
      [now, now, delivery.id],
    );
    return affected ? insertId : 0;
  }

  async findDeliveryLog(id: number): Promise<DeliveryRow | null> {
    const [row] = await select(
      this.ds,
      `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE id = ?`,
      [id],
    );
    return row ? toDelivery(row) : null;
  }

  /**
   * Drops finished deliveries and dispatched outbox entries older than `before`, and the bodies
   * older than `before` that no delivery names. Every delivery naming a body is its fan-out's or
   * a copy of one that still existed (a replay), so a body below the lowest outbox entry any
   * delivery names is named by none and never will be; a body written since that look is
   * younger than `before`, so it is not taken for one.
   */
  async prune(before: number): Promise<void> {
    await execute(
      this.ds,
      "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < ?",
      [before],
    );
    const [named] = await select(
      this.ds,
      'SELECT MIN(outbox_id) AS low FROM webhook_deliveries WHERE reader IS NOT NULL',
    );
    const low = num(named?.low);
    await execute(
      this.ds,
      `DELETE FROM webhook_bodies WHERE created_at < ?${low === null ? '' : ' AND outbox_id < ?'}`,
      low === null ? [before] : [before, low],
    );
    await execute(
      this.ds,
      'DELETE FROM webhook_outbox WHERE dispatched_at IS NOT NULL AND dispatched_at < ?',
      [before],
    );
  }
}
