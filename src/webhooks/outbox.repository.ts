import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { later } from '../database/statement-batch.js';
import { Leases } from '../database/leases.js';
import { transaction } from '../database/transaction.js';
import type { ChangeAction, RecordKind } from '../common/records/record-kinds.js';
import type { JournalEntry } from '../database/writes.js';
import type { Audience } from './record-payloads.js';
import { CHUNK, MARK, POST_TABLES, execute, select } from './webhook-sql.js';

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

/** A message body, the same for every subscription hearing of its entry as its reader. */
export interface NewBody {
  outboxId: number;
  reader: Audience;
  body: string;
}

export interface NewDelivery {
  subscriptionId: number;
  outboxId: number;
  /** With `outboxId`, names its body. */
  reader: Audience;
  messageId: string;
  recordKey: string;
  type: string;
  traceparent: string | null;
}

class AlreadyDispatched extends Error {}

/**
 * The outbox (`webhook_outbox`) and its fan-out: the changes the writes add, read back in order,
 * and turned into deliveries under the fan-out lease (database/leases.ts).
 */
@Injectable()
export class OutboxRepository {
  /** The named leases (the fan-out's), with the webhooks' statement mark. */
  readonly leases: Leases;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.leases = new Leases(ds, MARK);
  }

  /**
   * Inside the write's transaction (Writes.journal): one statement per chunk of changes, with the
   * `traceparent` of the operation writing them (null without tracing), sent with the commit.
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
      await later(
        manager,
        `INSERT INTO webhook_outbox
           (kind, record_id, action, status, previous_status, language, created_at, traceparent)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        params,
      );
    }
  }

  async pendingOutbox(limit: number): Promise<OutboxRow[]> {
    const rows = await select(
      this.ds,
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
        const rows = await select(
          this.ds,
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
   * Records the bodies and deliveries of `outboxIds` and marks the entries dispatched, in one
   * transaction, only if no other process dispatched one of them meanwhile (then nothing is
   * written: false). The entries are marked first: a process whose lease ran out while it worked
   * waits there for the holder's commit and then finds them taken, before it writes a body the
   * holder wrote already.
   */
  async dispatch(
    outboxIds: number[],
    bodies: readonly NewBody[],
    deliveries: readonly NewDelivery[],
    now: number,
  ): Promise<boolean> {
    if (!outboxIds.length) return true;
    try {
      await transaction(this.ds, async (manager) => {
        const { affected } = await execute(
          this.ds,
          `UPDATE webhook_outbox SET dispatched_at = ?
           WHERE id IN (${outboxIds.map(() => '?').join(', ')}) AND dispatched_at IS NULL`,
          [now, ...outboxIds],
          manager,
        );
        if (affected !== outboxIds.length) throw new AlreadyDispatched();
        for (let i = 0; i < bodies.length; i += CHUNK) {
          const chunk = bodies.slice(i, i + CHUNK);
          await execute(
            this.ds,
            `INSERT INTO webhook_bodies (outbox_id, reader, body, created_at)
             VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
            chunk.flatMap((b) => [b.outboxId, b.reader, b.body, now]),
            manager,
          );
        }
        for (let i = 0; i < deliveries.length; i += CHUNK) {
          const chunk = deliveries.slice(i, i + CHUNK);
          const params: unknown[] = [];
          for (const d of chunk) {
            params.push(d.subscriptionId, d.outboxId, d.reader, d.messageId, d.recordKey, d.type);
            params.push('', 'pending', 0, now, now, d.traceparent);
          }
          await execute(
            this.ds,
            `INSERT INTO webhook_deliveries (subscription_id, outbox_id, reader, message_id,
               record_key, type, payload, status, attempts, next_attempt_at, created_at,
               traceparent)
             VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
            params,
            manager,
          );
        }
      });
      return true;
    } catch (error) {
      if (error instanceof AlreadyDispatched) return false;
      throw error;
    }
  }
}
