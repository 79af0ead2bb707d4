import { DataSource } from 'typeorm';
import { useAppAfterMigration } from '../helpers/schema-before.js';

/**
 * Leases1766047000000 on data written before it: the fan-out's lease (webhook_leases) and the
 * horizon pass's (series_horizon_lease, UTC text) become rows of `leases`, both in milliseconds
 * since the epoch, held by whoever held them; the old tables are gone.
 */
describe('leases migration on existing data (e2e)', () => {
  const fanoutUntil = Date.UTC(2031, 0, 2, 3, 4, 5, 678);

  const { app } = useAppAfterMigration('Leases', async (q) => {
    await q("UPDATE webhook_leases SET owner = 'host:1', lease_until = ? WHERE name = 'fanout'", [
      fanoutUntil,
    ]);
    await q("UPDATE series_horizon_lease SET lease_until = '2031-01-02 03:04:05' WHERE id = 1");
  });

  it('moves both leases into one table, in one encoding', async () => {
    const ds = app().get(DataSource);
    const rows: Array<{ name: string; owner: string | null; lease_until: unknown }> =
      await ds.query('SELECT name, owner, lease_until FROM leases ORDER BY name');
    expect(rows.map((r) => ({ ...r, lease_until: Number(r.lease_until) }))).toEqual([
      { name: 'fanout', owner: 'host:1', lease_until: fanoutUntil },
      { name: 'series-horizon', owner: null, lease_until: Date.UTC(2031, 0, 2, 3, 4, 5) },
    ]);
    for (const table of ['webhook_leases', 'series_horizon_lease']) {
      expect(await ds.createQueryRunner().hasTable(table)).toBe(false);
    }
  });
});
