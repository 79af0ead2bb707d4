import type { EntityManager, QueryRunner } from 'typeorm';
import { STATEMENT_SEPARATOR, batchStatements, later } from './statement-batch.js';

/** A query runner that records what reaches the server and answers one result per statement. */
function fakeRunner(fail?: RegExp) {
  const sent: Array<{ sql: string; params: unknown[] }> = [];
  const runner = {
    query: (sql: string, params: unknown[] = [], structured = false) => {
      sent.push({ sql, params });
      if (fail?.test(sql)) return Promise.reject(new Error('refused'));
      const answers = sql
        .split(STATEMENT_SEPARATOR)
        .map((s) => (s.startsWith('SELECT') ? [{ id: 7 }] : { affectedRows: 1 }));
      const raw = answers.length > 1 ? answers : answers[0];
      return Promise.resolve(structured ? { raw, records: [], affected: undefined } : raw);
    },
  } as unknown as QueryRunner;
  const manager = { queryRunner: runner, query: runner.query.bind(runner) } as EntityManager;
  return { runner, manager, sent };
}

describe('statement batches (a write transaction on MySQL/MariaDB)', () => {
  it('sends START TRANSACTION and what `later` held with the next statement, in order, and answers its result', async () => {
    const { runner, manager, sent } = fakeRunner();
    batchStatements(runner);
    await runner.query('START TRANSACTION');
    await later(manager, 'INSERT INTO write_locks (lock_key) VALUES (?)', ['k']);
    expect(sent).toEqual([]);
    const rows = await runner.query('SELECT id FROM venues WHERE title = ?', ['Hall']);
    expect(rows).toEqual([{ id: 7 }]);
    expect(sent).toEqual([
      {
        sql: 'START TRANSACTION;\nINSERT INTO write_locks (lock_key) VALUES (?);\nSELECT id FROM venues WHERE title = ?',
        params: ['k', 'Hall'],
      },
    ]);
    await runner.query('INSERT INTO events (id) VALUES (?)', [1]);
    await later(
      manager,
      'UPDATE terms SET published_count = published_count + 1 WHERE id IN (?)',
      [3],
    );
    const structured = await runner.query('COMMIT', [], true);
    expect(structured).toMatchObject({ raw: { affectedRows: 1 }, affected: 1 });
    expect(sent.map((s) => s.sql)).toEqual([
      expect.stringMatching(/^START TRANSACTION;/),
      'INSERT INTO events (id) VALUES (?)',
      'UPDATE terms SET published_count = published_count + 1 WHERE id IN (?);\nCOMMIT',
    ]);
    expect(sent[2].params).toEqual([3]);
  });

  it('drops what it held on a ROLLBACK, and sends none when nothing reached the server', async () => {
    const { runner, manager, sent } = fakeRunner();
    batchStatements(runner);
    await runner.query('START TRANSACTION');
    await later(manager, 'INSERT INTO write_locks (lock_key) VALUES (?)', ['k']);
    await runner.query('ROLLBACK');
    expect(sent).toEqual([]);
    await runner.query('START TRANSACTION');
    await runner.query('SELECT 1');
    await later(manager, 'INSERT INTO webhook_outbox (kind) VALUES (?)', ['event']);
    await runner.query('ROLLBACK');
    expect(sent.map((s) => s.sql)).toEqual(['START TRANSACTION;\nSELECT 1', 'ROLLBACK']);
  });

  it('throws a held statement’s failure where its batch is sent', async () => {
    const { runner, manager } = fakeRunner(/UPDATE terms/);
    batchStatements(runner);
    await runner.query('START TRANSACTION');
    await runner.query('SELECT 1');
    await later(manager, 'UPDATE terms SET published_count = 0');
    await expect(runner.query('COMMIT')).rejects.toThrow('refused');
  });

  it('runs the statement at once without a batching runner (SQLite, work outside Writes)', async () => {
    const { manager, sent } = fakeRunner();
    await later(manager, 'INSERT INTO write_locks (lock_key) VALUES (?)', ['k']);
    expect(sent).toEqual([{ sql: 'INSERT INTO write_locks (lock_key) VALUES (?)', params: ['k'] }]);
  });
});
