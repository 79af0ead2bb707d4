import type { QueryRunner, TableOptions } from 'typeorm';
import { tablesMigration } from './schema-steps.js';

/** The table as this migration makes it (1766047000000-leases puts it back so on revert). */
export const SERIES_HORIZON_LEASE: TableOptions = {
  name: 'series_horizon_lease',
  columns: [
    { name: 'id', type: 'int', isPrimary: true },
    { name: 'lease_until', type: 'varchar', length: '19' },
  ],
};

/**
 * The lease of the hourly pass that extends the horizons of unbounded recurring events (CONTRACT §9,
 * events/series-horizon.ts): one row, the UTC time (text) until which one process of those
 * sharing the database holds it, taken by a conditional UPDATE.
 */
export class SeriesHorizonLease1765500000000 extends tablesMigration(SERIES_HORIZON_LEASE) {
  name = 'SeriesHorizonLease1765500000000';

  override async up(q: QueryRunner): Promise<void> {
    await super.up(q);
    await q.query(
      "INSERT INTO series_horizon_lease (id, lease_until) VALUES (1, '1970-01-01 00:00:00')",
    );
  }
}
