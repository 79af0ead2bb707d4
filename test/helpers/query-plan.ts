import type { DataSource } from 'typeorm';
import { isMysql } from './database.js';

/**
 * The indexes the database plans to read for a query (MySQL/MariaDB's EXPLAIN, SQLite's EXPLAIN
 * QUERY PLAN); a table read without one shows as `<table>:none` or `scan:<detail>`.
 */
export async function indexesUsed(
  ds: DataSource,
  q: { sql: string; parameters: unknown[] },
): Promise<string[]> {
  if (isMysql()) {
    const plan: Array<{ table: string; key: string | null }> = await ds.query(
      `EXPLAIN ${q.sql}`,
      q.parameters,
    );
    return plan.map((row) => row.key ?? `${row.table}:none`);
  }
  const plan: Array<{ detail: string }> = await ds.query(
    `EXPLAIN QUERY PLAN ${q.sql}`,
    q.parameters,
  );
  return plan.flatMap((row) => row.detail.match(/IDX_\w+/g) ?? [`scan:${row.detail}`]);
}
