import type { EntityManager, QueryRunner } from 'typeorm';

/** Between the statements of one batch: what the query counter of the tests splits on. */
export const STATEMENT_SEPARATOR = ';\n';

interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** The statements each batching runner holds back, in order. */
const held = new WeakMap<QueryRunner, Statement[]>();

/**
 * Runs `sql` now, or, in a write's transaction on MySQL/MariaDB (`batchStatements`), with the
 * next statement the transaction sends, at the latest its COMMIT: one round trip to the server
 * for both. For statements whose answer nobody reads and whose failure fails the whole write
 * (a row lock taken, links, counters, the webhooks' outbox): such a failure is thrown where the
 * statement was sent, by the statement it went with, and the write rolls back as before. The
 * order of the statements is kept, so the server sees what it saw when each went alone.
 */
export async function later(
  manager: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<void> {
  const statements = manager.queryRunner && held.get(manager.queryRunner);
  if (statements) statements.push({ sql, params });
  else await manager.query(sql, params as unknown[]);
}

/**
 * Makes the transaction of `runner` (a MySQL/MariaDB pool connection opened with
 * `multipleStatements`) send what it can hold back together with what follows: its
 * `START TRANSACTION` with its first statement, and the statements given to `later` with the
 * next one. A create of an event with an inline venue and terms went to the server in twelve
 * exchanges, now in seven: each costs the process a socket write and the driver's work around it
 * (docs/benchmarks.md, "Issue 53, 2026-11-30, evening"). A ROLLBACK drops what was held; one
 * before anything reached the server sends nothing. Installed by Writes for its transactions.
 */
export function batchStatements(runner: QueryRunner): void {
  const statements: Statement[] = [];
  held.set(runner, statements);
  const send = runner.query.bind(runner) as (
    sql: string,
    params?: unknown[],
    structured?: boolean,
  ) => Promise<unknown>;
  runner.query = (async (sql: string, params?: unknown[], structured?: boolean) => {
    if (sql === 'START TRANSACTION') {
      statements.push({ sql, params: [] });
      return unsent(structured);
    }
    if (!statements.length) return send(sql, params, structured);
    if (sql === 'ROLLBACK') {
      const begun = statements[0].sql !== 'START TRANSACTION';
      statements.length = 0;
      if (!begun) return unsent(structured);
      return send(sql, params, structured);
    }
    const batch = statements.splice(0);
    batch.push({ sql, params: params ?? [] });
    const values: unknown[] = [];
    for (const statement of batch) values.push(...statement.params);
    const result = (await send(
      batch.map((s) => s.sql).join(STATEMENT_SEPARATOR),
      values,
      true,
    )) as {
      raw: unknown;
      records: unknown[];
      affected?: number;
    };
    // One answer per statement: the caller's is the last.
    const raw = (result.raw as unknown[]).at(-1) as { affectedRows?: number } | undefined;
    if (!structured) return raw;
    result.raw = raw;
    result.records = Array.isArray(raw) ? raw : [];
    result.affected = raw?.affectedRows;
    return result;
  }) as QueryRunner['query'];
}

/** The answer to a statement held back or dropped: nothing reached the server. */
function unsent(structured: boolean | undefined) {
  return structured ? { records: [], raw: undefined } : undefined;
}
