import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { later } from '../database/statement-batch.js';
import { transaction } from '../database/transaction.js';
import type { PostKind } from '../common/records/record-kinds.js';
import type { JournalEntry } from '../database/writes.js';
import { CHUNK, MARK, POST_TABLES, execute, select, type Row } from './webhook-sql.js';

/** A post scheduled to go live (`publishAt`: its `date_utc`, `YYYY-MM-DD HH:MM:SS` UTC). */
export interface ScheduledRow {
  kind: PostKind;
  recordId: number;
  publishAt: string;
}

/**
 * The scheduled posts (`webhook_schedule`): nothing is written when a post goes live by the
 * clock, so the writes keep here the posts they leave scheduled, and the fan-out turns those gone
 * live into `published` outbox entries.
 */
@Injectable()
export class ScheduleRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

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
      await later(
        manager,
        `DELETE FROM webhook_schedule WHERE ${chunk.map(() => '(kind = ? AND record_id = ?)').join(' OR ')}`,
        chunk.flatMap((e) => [e.kind, e.id]),
      );
    }
    const alive = posts.filter((e) => e.action === 'created' || e.action === 'updated');
    const known = alive.filter(
      (e) => e.status === 'future' && e.dateUtc !== null && e.dateUtc > nowSql,
    );
    if (known.length) {
      await later(
        manager,
        `INSERT INTO webhook_schedule (kind, record_id, publish_at)
         VALUES ${known.map(() => '(?, ?, ?)').join(', ')}`,
        known.flatMap((e) => [e.kind, e.id, e.dateUtc]),
      );
    }
    for (const [kind, table] of POST_TABLES) {
      const unknown = alive.filter((e) => e.kind === kind && e.status === null).map((e) => e.id);
      if (!unknown.length) continue;
      await later(
        manager,
        `INSERT INTO webhook_schedule (kind, record_id, publish_at)
         SELECT ?, id, date_utc FROM ${table}
         WHERE id IN (${unknown.map(() => '?').join(', ')}) AND status = 'future' AND date_utc > ?`,
        [kind, ...unknown, nowSql],
      );
    }
  }

  /** Scheduled posts whose date is `nowSql` or earlier, earliest first. */
  async dueScheduled(nowSql: string, limit: number): Promise<ScheduledRow[]> {
    const rows = await select(
      this.ds,
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
        const { affected } = await execute(
          this.ds,
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
        await execute(
          this.ds,
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
}
