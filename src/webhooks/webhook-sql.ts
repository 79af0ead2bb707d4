import type { DataSource, EntityManager } from 'typeorm';
import type { PostKind, RecordKind } from '../common/records/record-kinds.js';

/**
 * What the webhook repositories share (subscriptions, outbox, schedule, deliveries): every query
 * of the webhook tables (migration 1765000000000) is plain SQL with `?` parameters, the same on
 * SQLite and MySQL/MariaDB; claims are conditional UPDATEs whose affected-row count says who won,
 * so that several processes on one database never take the same work.
 */

/** The post kinds and their tables. */
export const POST_TABLES: ReadonlyMap<RecordKind, string> = new Map<PostKind, string>([
  ['event', 'events'],
  ['venue', 'venues'],
  ['organizer', 'organizers'],
]);

export type Row = Record<string, unknown>;
export const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Marks the statements of webhook work that runs beside requests (the dispatcher's polls and
 * claims, subscription management), so that a reading of the statements a request sends can
 * tell them apart (test/helpers/query-counter.ts). The outbox insert of a write is unmarked: it
 * is the write's own statement.
 */
export const WEBHOOK_STATEMENT = '/* webhooks */ ';
export const MARK = WEBHOOK_STATEMENT;

/**
 * `table alias` reading `index` whatever the statistics say (MySQL/MariaDB's FORCE INDEX,
 * SQLite's INDEXED BY): for a query whose cost depends on the index far more than a planner
 * that sees a young or churning table can tell.
 */
export function tableWithIndex(ds: DataSource, table: string, alias: string, index: string) {
  return ds.options.type === 'better-sqlite3'
    ? `${table} AS ${alias} INDEXED BY ${index}`
    : `${table} ${alias} FORCE INDEX (${index})`;
}

/** At most this many rows per statement of a batch (bound parameters stay far below limits). */
export const CHUNK = 200;

/**
 * Runs a marked statement (in `manager`'s transaction when given) and answers what the driver
 * reports: rows changed and the generated id.
 */
export async function execute(
  ds: DataSource,
  sql: string,
  params: unknown[],
  manager?: EntityManager,
): Promise<{ affected: number; insertId: number }> {
  const own = manager?.queryRunner ? undefined : ds.createQueryRunner('master');
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

/** Runs a marked query and answers its rows. */
export function select(ds: DataSource, sql: string, params: unknown[] = []): Promise<Row[]> {
  return ds.query(`${MARK}${sql}`, params);
}
