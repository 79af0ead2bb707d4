import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The lease of the hourly pass that extends the horizons of unbounded recurring events (CONTRACT §9,
 * events/series-horizon.ts): one row, the UTC time (text) until which one process of those
 * sharing the database holds it, taken by a conditional UPDATE.
 */
export class SeriesHorizonLease1765500000000 implements MigrationInterface {
  name = 'SeriesHorizonLease1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'series_horizon_lease',
        columns: [
          { name: 'id', type: 'int', isPrimary: true },
          { name: 'lease_until', type: 'varchar', length: '19' },
        ],
      }),
    );
    await q.query(
      "INSERT INTO series_horizon_lease (id, lease_until) VALUES (1, '1970-01-01 00:00:00')",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('series_horizon_lease');
  }
}
