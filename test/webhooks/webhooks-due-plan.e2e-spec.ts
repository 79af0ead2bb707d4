import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { DeliveriesRepository } from '../../src/webhooks/deliveries.repository.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { indexesUsed } from '../helpers/query-plan.js';

/** Subscriptions no row of webhook_subscriptions names: the app's own dispatcher leaves them be. */
const SUBSCRIPTIONS = [9001, 9002, 9003];
/** Records of the backlog, two changes each (created, then updated) for every subscription. */
const RECORDS = 1500;

/**
 * The dispatcher's look for due deliveries (DeliveriesRepository.dueDeliveries) on a backlog
 * shaped as a busy calendar leaves it: thousands of pending deliveries, a third of them
 * delivered since, several changes of one record waiting. It must read the pending ones in due
 * order through IDX_webhook_deliveries_due and look for a record's earlier change through
 * IDX_webhook_deliveries_record: through IDX_webhook_deliveries_log, which MariaDB chose by
 * its statistics, each candidate read every earlier delivery of its subscription.
 */
describe('webhooks: the look for due deliveries (e2e)', () => {
  let app: NestExpressApplication;
  let ds: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.get(DataSource);
    const now = Date.now() - 60_000;
    let id = 0;
    const rows: unknown[][] = [];
    for (let record = 1; record <= RECORDS; record++) {
      for (const [change, type] of ['event.created', 'event.updated'].entries()) {
        for (const subscription of SUBSCRIPTIONS) {
          id++;
          // The first third of the created ones have been delivered.
          const status = change === 0 && record <= RECORDS / 3 ? 'delivered' : 'pending';
          rows.push([subscription, id, 'public', `msg_plan_${id}`, `event:${record}`, type]);
          rows[rows.length - 1].push('', status, 0, now + change, now);
        }
      }
    }
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await ds.query(
        `INSERT INTO webhook_deliveries (subscription_id, outbox_id, reader, message_id,
           record_key, type, payload, status, attempts, next_attempt_at, created_at)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
  }, 120_000);
  afterAll(() => closeApp(app));

  it('reads the pending deliveries by IDX_webhook_deliveries_due and a record’s earlier ones by IDX_webhook_deliveries_record, and answers the earliest of each record', async () => {
    const sent: Array<{ sql: string; parameters: unknown[] }> = [];
    const query = ds.query.bind(ds);
    const spy = vi
      .spyOn(ds, 'query')
      .mockImplementation((...args: Parameters<DataSource['query']>) => {
        sent.push({ sql: args[0], parameters: (args[1] as unknown[] | undefined) ?? [] });
        return query(...args);
      });
    let due: number[];
    try {
      due = (await app.get(DeliveriesRepository).dueDeliveries(Date.now(), 48, SUBSCRIPTIONS)).map(
        (d) => d.id,
      );
    } finally {
      spy.mockRestore();
    }
    // The records delivered once wait with their update; the others' creation comes first:
    // the earliest due are the creations of records RECORDS/3 + 1 on, for each subscription.
    const [{ first }] = (await ds.query(
      `SELECT MIN(id) AS first FROM webhook_deliveries
        WHERE message_id LIKE 'msg_plan_%' AND status = 'pending' AND type = 'event.created'`,
    )) as Array<{ first: number | string }>;
    const created = Array.from({ length: 16 }, (_, r) =>
      [0, 1, 2].map((s) => Number(first) + r * SUBSCRIPTIONS.length * 2 + s),
    ).flat();
    expect(due).toEqual(created);

    const [look] = sent;
    expect(look.sql).toContain('NOT EXISTS');
    const plan = await indexesUsed(ds, look);
    expect(plan).toContain('IDX_webhook_deliveries_due');
    expect(plan).toContain('IDX_webhook_deliveries_record');
    expect(plan).not.toContain('IDX_webhook_deliveries_log');
  });
});
