import type { INestApplication } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { ScheduledPublications } from '../../src/database/scheduled-publications.js';
import { WriteVersion } from '../../src/cache/write-version.js';
import { WEBHOOK_STATEMENT } from '../../src/webhooks/webhook-sql.js';
import { STATEMENT_SEPARATOR } from '../../src/database/statement-batch.js';

/**
 * Runs `work` and returns how many SQL statements the app sent meanwhile (their text goes to
 * `statements` when given): every query runner the driver hands out is wrapped, and unwrapped
 * afterwards (the SQLite driver hands out the same runner every time). The database monitor's
 * pings use their own connection; the webhook dispatcher's work, which runs beside requests after
 * each commit, is marked (WEBHOOK_STATEMENT) and not counted. A batch of statements sent in one
 * exchange (src/database/statement-batch.ts) counts as its statements; `exchanges` gets the text
 * of each exchange with the server, batches whole.
 */
export async function countQueries(
  app: INestApplication,
  work: () => Promise<unknown>,
  statements?: string[],
  exchanges?: string[],
): Promise<number> {
  const ds = app.get(DataSource);
  let queries = 0;
  const wrapped = new Set<QueryRunner>();
  const original = ds.driver.createQueryRunner.bind(ds.driver);
  const spy = vi.spyOn(ds.driver, 'createQueryRunner').mockImplementation((mode) => {
    const runner = original(mode);
    if (wrapped.has(runner)) return runner;
    const query = runner.query.bind(runner);
    wrapped.add(runner);
    // The dispatcher's fan-out opens a transaction whose START TRANSACTION and COMMIT the driver
    // writes unmarked: a BEGIN is counted once the next statement shows it is not the
    // dispatcher's, a COMMIT/ROLLBACK only when the statement before it was not (SQLite hands
    // requests and the dispatcher the same runner, so the runner alone cannot tell them apart).
    let pendingBegin: string | undefined;
    let lastWasWebhook = false;
    const count = (sql: string) => {
      queries++;
      statements?.push(sql);
      if (process.env.PRINT_QUERIES) console.log(sql.slice(0, 100));
    };
    const one = (sql: string) => {
      const webhook = sql.startsWith(WEBHOOK_STATEMENT);
      if (pendingBegin !== undefined && !webhook) count(pendingBegin);
      pendingBegin = undefined;
      if (/^(START TRANSACTION|BEGIN)\b/i.test(sql)) pendingBegin = sql;
      else if (/^(COMMIT|ROLLBACK)\b/i.test(sql)) {
        if (!lastWasWebhook) count(sql);
      } else if (!webhook) count(sql);
      lastWasWebhook = webhook;
    };
    runner.query = ((...args: Parameters<typeof query>) => {
      const sql = args[0];
      if (!sql.startsWith(WEBHOOK_STATEMENT)) exchanges?.push(sql);
      for (const statement of sql.split(STATEMENT_SEPARATOR)) one(statement);
      return query(...args);
    }) as typeof runner.query;
    return runner;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
    // The wrapper is an own property over the class's method: removing it restores the method.
    for (const runner of wrapped) Reflect.deleteProperty(runner, 'query');
  }
  return queries;
}

/**
 * Makes every read cache cold, as a committed write does (the WriteVersion moves), and waits for the
 * look-up of the next scheduled publication that a write triggers, so that it is not counted
 * as a query of the request that follows.
 */
export async function coldCaches(app: INestApplication): Promise<void> {
  app.get(WriteVersion).bump();
  await app.get(ScheduledPublications).settled();
}

const TRANSACTION_CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)\b/i;

/**
 * The statements a spy on the TypeORM logger's `logQuery` saw, without the webhook dispatcher's
 * background work (WEBHOOK_STATEMENT), which runs beside requests after each commit. Its fan-out
 * runs in a transaction whose START TRANSACTION and COMMIT the driver writes unmarked, so
 * transaction control is not counted either (the reads these tests count open no transaction).
 */
export function ownQueries<T extends unknown[]>(spy: { mock: { calls: T[] } }): T[] {
  return spy.mock.calls.filter(([sql]) => {
    const text = String(sql);
    return !text.startsWith(WEBHOOK_STATEMENT) && !TRANSACTION_CONTROL.test(text);
  });
}
