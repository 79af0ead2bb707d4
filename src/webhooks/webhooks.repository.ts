import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { transaction } from '../database/transaction.js';
import type { JournalEntry, RecordKind } from '../database/writes.js';
import type { ChangeAction } from '../database/writes.js';

type PostKind = 'event' | 'venue' | 'organizer';
/** The post kinds and their tables. */
const POST_TABLES: ReadonlyMap<RecordKind, string> = new Map<PostKind, string>([
  ['event', 'events'],
  ['venue', 'venues'],
  ['organizer', 'organizers'],
]);

/** A post scheduled to go live (`publishAt`: its `date_utc`, `YYYY-MM-DD HH:MM:SS` UTC). */
export interface ScheduledRow {
  kind: PostKind;
  recordId: number;
  publishAt: string;
}

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

/** One outbox entry: a change some write committed. */
export interface OutboxRow {
  id: number;
  kind: RecordKind;
  recordId: number;
  action: ChangeAction;
  status: string | null;
  previousStatus: string | null;
  language: string | null;
  createdAt: number;
  /** The W3C `traceparent` of the operation whose write added it (tracing on), else null. */
  traceparent: string | null;
}

type DeliveryStatus = 'pending' | 'delivered' | 'failed';

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

export interface NewDelivery {
  subscriptionId: number;
  outboxId: number;
  messageId: string;
  recordKey: string;
  type: string;
  payload: string;
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

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

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

function toDelivery(r: Row): DeliveryRow {
  return {
    id: Number(r.id),
    subscriptionId: Number(r.subscription_id),
    outboxId: Number(r.outbox_id),
    messageId: String(r.message_id),
    recordKey: String(r.record_key),
    type: String(r.type),
    payload: typeof r.payload === 'string' ? r.payload : '',
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
 * Marks the statements of webhook work that runs beside requests (the dispatcher's polls and
 * claims, subscription management), so that a reading of the statements a request sends can
 * tell them apart (test/helpers/query-counter.ts). The outbox insert of a write is unmarked: it
 * is the write's own statement.
 */
export const WEBHOOK_STATEMENT = '/* webhooks */ ';
const MARK = WEBHOOK_STATEMENT;

class AlreadyDispatched extends Error {}

/** At most this many rows per statement of a batch (bound parameters stay far below limits). */
const CHUNK = 200;

/**
 * Every query of the webhook tables (migration 1765000000000). Plain SQL with `?` parameters,
 * the same on SQLite and MySQL/MariaDB; claims are conditional UPDATEs whose affected-row count
 * says who won, so that several processes on one database never take the same work.
 */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Runs a statement and answers what the driver reports: rows changed and the generated id. */
  private async execute(
    sql: string,
    params: unknown[],
    manager?: EntityManager,
  ): Promise<{ affected: number; insertId: number }> {
    const own = manager?.queryRunner ? undefined : this.ds.createQueryRunner('master');
    const runner = manager?.queryRunner ?? own!;
    try {
      const result = await runner.query(`${MARK}${sql}`, params, true);
      const raw = result.raw as { insertId?: unknown } | number | bigint | undefined;
      const insertId =
        typeof raw === 'object' && raw !== null ? Number(raw.insertId ?? 0) : Number(raw ?? 0);
      return { affected: result.affected ?? 0, insertId };
    } finally {
      await own?.release();
    }
  }

  private select(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.ds.query(`${MARK}${sql}`, params);
  }

  // ------------------------------------------------------------------------- subscriptions

  async createSubscription(fields: SubscriptionFields, secret: string, now: number) {
    const { insertId } = await this.execute(
      `INSERT INTO webhook_subscriptions
         (url, events, language, include_private, active, secret, created_at, modified_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        fields.url,
        JSON.stringify(fields.events),
        fields.language,
        fields.includePrivate ? 1 : 0,
        fields.active ? 1 : 0,
        secret,
        now,
        now,
      ],
    );
    return insertId;
  }

  async listSubscriptions(): Promise<SubscriptionRow[]> {
    return (await this.select('SELECT * FROM webhook_subscriptions ORDER BY id')).map(
      toSubscription,
    );
  }

  async countSubscriptions(): Promise<number> {
    const [row] = await this.select('SELECT COUNT(*) AS n FROM webhook_subscriptions');
    return Number(row.n);
  }

  async findSubscription(id: number): Promise<SubscriptionRow | null> {
    const [row] = await this.select('SELECT * FROM webhook_subscriptions WHERE id = ?', [id]);
    return row ? toSubscription(row) : null;
  }

  async updateSubscription(id: number, fields: SubscriptionFields, now: number): Promise<void> {
    await this.execute(
      `UPDATE webhook_subscriptions
         SET url = ?, events = ?, language = ?, include_private = ?, active = ?, modified_at = ?
       WHERE id = ?`,
      [
        fields.url,
        JSON.stringify(fields.events),
        fields.language,
        fields.includePrivate ? 1 : 0,
        fields.active ? 1 : 0,
        now,
        id,
      ],
    );
  }

  /** A new secret; the old one signs beside it until `graceUntil`. */
  async rotateSecret(id: number, secret: string, graceUntil: number, now: number): Promise<void> {
    await this.execute(
      `UPDATE webhook_subscriptions
         SET previous_secret = secret, previous_secret_until = ?, secret = ?, modified_at = ?
       WHERE id = ?`,
      [graceUntil, secret, now, id],
    );
  }

  async deleteSubscription(id: number): Promise<void> {
    await transaction(this.ds, async (manager) => {
      await this.execute('DELETE FROM webhook_deliveries WHERE subscription_id = ?', [id], manager);
      await this.execute('DELETE FROM webhook_subscriptions WHERE id = ?', [id], manager);
    });
  }

  async markFailing(id: number, reason: string, now: number): Promise<void> {
    await this.execute(
      `UPDATE webhook_subscriptions SET failure_reason = ?,
         failing_since = CASE WHEN failing_since IS NULL THEN ? ELSE failing_since END
       WHERE id = ?`,
      [reason.slice(0, 500), now, id],
    );
  }

  async clearFailing(id: number): Promise<void> {
    await this.execute(
      `UPDATE webhook_subscriptions SET failing_since = NULL, failure_reason = NULL
       WHERE id = ? AND failing_since IS NOT NULL`,
      [id],
    );
  }

  // ------------------------------------------------------------------------------ outbox

  /**
   * Inside the write's transaction (Writes.journal): one statement per chunk of changes, with the
   * `traceparent` of the operation writing them (null without tracing).
   */
  async appendOutbox(
    manager: EntityManager,
    entries: readonly JournalEntry[],
    now: number,
    traceparent: string | null,
  ): Promise<void> {
    for (let i = 0; i < entries.length; i += CHUNK) {
      const chunk = entries.slice(i, i + CHUNK);
      const params: unknown[] = [];
      for (const e of chunk) {
        params.push(e.kind, e.id, e.action, e.status, e.previousStatus, e.language, now);
        params.push(traceparent);
      }
      await manager.query(
        `INSERT INTO webhook_outbox
           (kind, record_id, action, status, previous_status, language, created_at, traceparent)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        params,
      );
    }
  }

  async pendingOutbox(limit: number): Promise<OutboxRow[]> {
    const rows = await this.select(
      `SELECT * FROM webhook_outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT ${Math.trunc(limit)}`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind as RecordKind,
      recordId: Number(r.record_id),
      action: r.action as ChangeAction,
      status: (r.status as string | null) ?? null,
      previousStatus: (r.previous_status as string | null) ?? null,
      language: (r.language as string | null) ?? null,
      createdAt: Number(r.created_at),
      traceparent: (r.traceparent as string | null) ?? null,
    }));
  }

  /**
   * The content languages of the records of `entries` that still exist, by `kind:id` (a record
   * gone has none): one statement per table.
   */
  async languagesOf(
    entries: ReadonlyArray<Pick<OutboxRow, 'kind' | 'recordId'>>,
  ): Promise<Map<string, string>> {
    const languages = new Map<string, string>();
    const tables = new Map<string, Map<number, RecordKind>>();
    for (const { kind, recordId } of entries) {
      const table = POST_TABLES.get(kind) ?? 'terms';
      if (!tables.has(table)) tables.set(table, new Map());
      tables.get(table)!.set(recordId, kind);
    }
    for (const [table, ids] of tables) {
      const list = [...ids.keys()];
      for (let i = 0; i < list.length; i += CHUNK) {
        const chunk = list.slice(i, i + CHUNK);
        const rows = await this.select(
          `SELECT id, language FROM ${table} WHERE id IN (${chunk.map(() => '?').join(', ')})`,
          chunk,
        );
        for (const r of rows) {
          const kind = ids.get(Number(r.id));
          if (kind && typeof r.language === 'string') {
            languages.set(`${kind}:${Number(r.id)}`, r.language);
          }
        }
      }
    }
    return languages;
  }

  /**
   * Records the deliveries of `outboxIds` and marks them dispatched, in one transaction, only if
   * no other process dispatched one of them meanwhile (then nothing is written: false).
   */
  async dispatch(outboxIds: number[], deliveries: NewDelivery[], now: number): Promise<boolean> {
    if (!outboxIds.length) return true;
    try {
      await transaction(this.ds, async (manager) => {
        for (let i = 0; i < deliveries.length; i += CHUNK) {
          const chunk = deliveries.slice(i, i + CHUNK);
          const params: unknown[] = [];
          for (const d of chunk) {
            params.push(d.subscriptionId, d.outboxId, d.messageId, d.recordKey, d.type, d.payload);
            params.push('pending', 0, now, now, d.traceparent);
          }
          await this.execute(
            `INSERT INTO webhook_deliveries (subscription_id, outbox_id, message_id, record_key,
               type, payload, status, attempts, next_attempt_at, created_at, traceparent)
             VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
            params,
            manager,
          );
        }
        const { affected } = await this.execute(
          `UPDATE webhook_outbox SET dispatched_at = ?
           WHERE id IN (${outboxIds.map(() => '?').join(', ')}) AND dispatched_at IS NULL`,
          [now, ...outboxIds],
          manager,
        );
        // Another process dispatched some of them meanwhile (its lease ran out while this one
        // worked): this pass's deliveries go with the rollback.
        if (affected !== outboxIds.length) throw new AlreadyDispatched();
      });
      return true;
    } catch (error) {
      if (error instanceof AlreadyDispatched) return false;
      throw error;
    }
  }

  // -------------------------------------------------------------------- scheduled posts

  /**
   * Inside the write's transaction (Writes.journal): keeps `webhook_schedule` to the posts the
   * write left scheduled. A post that may have had a row (scheduled before, or state unknown)
   * loses it; one left `future` with a date after `nowSql` gets one, from the record the write
   * gave or, when it gave none, from the row as the transaction sees it. A create of a published
   * post sends nothing.
   */
  async schedule(
    manager: EntityManager,
    entries: readonly JournalEntry[],
    nowSql: string,
  ): Promise<void> {
    const posts = entries.filter((e) => POST_TABLES.has(e.kind));
    const stale = posts.filter(
      (e) => e.action !== 'created' && (e.previousStatus === null || e.previousStatus === 'future'),
    );
    for (let i = 0; i < stale.length; i += CHUNK) {
      const chunk = stale.slice(i, i + CHUNK);
      await manager.query(
        `DELETE FROM webhook_schedule WHERE ${chunk.map(() => '(kind = ? AND record_id = ?)').join(' OR ')}`,
        chunk.flatMap((e) => [e.kind, e.id]),
      );
    }
    const alive = posts.filter((e) => e.action === 'created' || e.action === 'updated');
    const known = alive.filter(
      (e) => e.status === 'future' && e.dateUtc !== null && e.dateUtc > nowSql,
    );
    if (known.length) {
      await manager.query(
        `INSERT INTO webhook_schedule (kind, record_id, publish_at)
         VALUES ${known.map(() => '(?, ?, ?)').join(', ')}`,
        known.flatMap((e) => [e.kind, e.id, e.dateUtc]),
      );
    }
    for (const [kind, table] of POST_TABLES) {
      const unknown = alive.filter((e) => e.kind === kind && e.status === null).map((e) => e.id);
      if (!unknown.length) continue;
      await manager.query(
        `INSERT INTO webhook_schedule (kind, record_id, publish_at)
         SELECT ?, id, date_utc FROM ${table}
         WHERE id IN (${unknown.map(() => '?').join(', ')}) AND status = 'future' AND date_utc > ?`,
        [kind, ...unknown, nowSql],
      );
    }
  }

  /** Scheduled posts whose date is `nowSql` or earlier, earliest first. */
  async dueScheduled(nowSql: string, limit: number): Promise<ScheduledRow[]> {
    const rows = await this.select(
      `SELECT kind, record_id, publish_at FROM webhook_schedule WHERE publish_at <= ?
       ORDER BY publish_at, kind, record_id LIMIT ${Math.trunc(limit)}`,
      [nowSql],
    );
    return rows.map((r) => ({
      kind: r.kind as PostKind,
      recordId: Number(r.record_id),
      publishAt: String(r.publish_at),
    }));
  }

  /**
   * Announces the publications of `due`: in one transaction, each row is deleted only if it is
   * still there as read (another process, or a write that rescheduled or unpublished the post,
   * may have taken it), and a `published` outbox entry is added for each row this call deleted
   * whose post is still scheduled for that date (a post changed by a write the journal could not
   * follow is not announced). Several processes may call it at once: each publication is
   * announced once. Answers how many were announced.
   */
  async announceScheduled(due: readonly ScheduledRow[]): Promise<number> {
    return transaction(this.ds, async (manager) => {
      const taken: ScheduledRow[] = [];
      for (const row of due) {
        const { affected } = await this.execute(
          'DELETE FROM webhook_schedule WHERE kind = ? AND record_id = ? AND publish_at = ?',
          [row.kind, row.recordId, row.publishAt],
          manager,
        );
        if (affected === 1) taken.push(row);
      }
      const entries: unknown[][] = [];
      for (const [kind, table] of POST_TABLES) {
        const rows = taken.filter((r) => r.kind === kind);
        if (!rows.length) continue;
        const live: Row[] = await manager.query(
          `${MARK}SELECT id, date_utc, language FROM ${table}
           WHERE id IN (${rows.map(() => '?').join(', ')}) AND status = 'future'`,
          rows.map((r) => r.recordId),
        );
        const byId = new Map(live.map((r) => [Number(r.id), r]));
        for (const row of rows) {
          const record = byId.get(row.recordId);
          if (!record || String(record.date_utc) !== row.publishAt) continue;
          // The body's timestamp is the moment the post went live.
          const at = Date.parse(`${row.publishAt.replace(' ', 'T')}Z`);
          entries.push([kind, row.recordId, 'updated', 'publish', 'future', record.language, at]);
        }
      }
      if (entries.length) {
        await this.execute(
          `INSERT INTO webhook_outbox
             (kind, record_id, action, status, previous_status, language, created_at)
           VALUES ${entries.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          entries.flat(),
          manager,
        );
      }
      return entries.length;
    });
  }

  // ------------------------------------------------------------------------------ leases

  /** Takes (or keeps) the named lease until `until`; false when another holder's is current. */
  async takeLease(name: string, owner: string, now: number, until: number): Promise<boolean> {
    const { affected } = await this.execute(
      `UPDATE webhook_leases SET owner = ?, lease_until = ?
       WHERE name = ? AND (lease_until < ? OR owner = ?)`,
      [owner, until, name, now, owner],
    );
    return affected === 1;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.execute('UPDATE webhook_leases SET lease_until = 0 WHERE name = ? AND owner = ?', [
      name,
      owner,
    ]);
  }

  // -------------------------------------------------------------------------- deliveries

  /**
   * Deliveries due now, oldest first, each the earliest pending one of its record for its
   * subscription (in order per record: a later change waits for the earlier one), of active
   * subscriptions, not leased by a live process.
   */
  async dueDeliveries(now: number, limit: number): Promise<number[]> {
    const rows = await this.select(
      `SELECT d.id FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND s.active = ?
         AND (d.lease_until IS NULL OR d.lease_until < ?)
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
           WHERE e.subscription_id = d.subscription_id AND e.record_key = d.record_key
             AND e.status = 'pending' AND e.id < d.id)
       ORDER BY d.id LIMIT ${Math.trunc(limit)}`,
      [now, 1, now],
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * The earliest moment there is work: a pending delivery becomes due, or a scheduled post goes
   * live (null: neither).
   */
  async nextDue(): Promise<number | null> {
    const [row] = await this.select(
      `SELECT (SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending') AS next,
         (SELECT MIN(publish_at) FROM webhook_schedule) AS publish`,
    );
    const next = num(row?.next);
    const publish =
      typeof row?.publish === 'string' ? Date.parse(`${row.publish.replace(' ', 'T')}Z`) : null;
    const live = publish === null || Number.isNaN(publish) ? null : publish;
    if (next === null) return live;
    return live === null ? next : Math.min(next, live);
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
    const { affected } = await this.execute(
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE id IN (${marks}) AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)`,
      [owner, until, ...ids, now],
    );
    if (!affected) return [];
    // The owner names this process, whose rounds run one at a time: with the lease's end, the
    // rows this statement leased.
    const rows = await this.select(
      `SELECT * FROM webhook_deliveries
       WHERE id IN (${marks}) AND lease_owner = ? AND lease_until = ? ORDER BY id`,
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
    const { affected } = await this.execute(
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
    const { affected } = await this.execute(
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
    const rows = await this.select(
      `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ?
       ORDER BY id DESC LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
      [subscriptionId],
    );
    const [count] = await this.select(
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE subscription_id = ?',
      [subscriptionId],
    );
    return { rows: rows.map(toDelivery), total: Number(count.n) };
  }

  async findDelivery(subscriptionId: number, id: number): Promise<DeliveryRow | null> {
    const [row] = await this.select(
      'SELECT * FROM webhook_deliveries WHERE subscription_id = ? AND id = ?',
      [subscriptionId, id],
    );
    return row ? toDelivery(row) : null;
  }

  /**
   * A replay: the same message (id, type, body) sent again as a new delivery, its attempts linked
   * to the trace of the write it announces.
   */
  async replay(delivery: DeliveryRow, now: number): Promise<number> {
    const { insertId } = await this.execute(
      `INSERT INTO webhook_deliveries (subscription_id, outbox_id, message_id, record_key, type,
         payload, status, attempts, next_attempt_at, created_at, traceparent)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      [
        delivery.subscriptionId,
        delivery.outboxId,
        delivery.messageId,
        delivery.recordKey,
        delivery.type,
        delivery.payload,
        now,
        now,
        delivery.traceparent,
      ],
    );
    return insertId;
  }

  async findDeliveryLog(id: number): Promise<DeliveryRow | null> {
    const [row] = await this.select(`SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE id = ?`, [
      id,
    ]);
    return row ? toDelivery(row) : null;
  }

  /** Drops finished deliveries and dispatched outbox entries older than `before`. */
  async prune(before: number): Promise<void> {
    await this.execute(
      "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < ?",
      [before],
    );
    await this.execute(
      'DELETE FROM webhook_outbox WHERE dispatched_at IS NOT NULL AND dispatched_at < ?',
      [before],
    );
  }
}
