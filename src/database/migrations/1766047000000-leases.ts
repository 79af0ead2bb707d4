import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { namedLeasesTable } from './schema-steps.js';
import { SERIES_HORIZON_LEASE } from './1765500000000-series-horizon-lease.js';

/** `YYYY-MM-DD HH:MM:SS` (UTC) → ms since the epoch; 0 for what is no such time. */
const msOf = (text: unknown) => Date.parse(`${String(text).replace(' ', 'T')}Z`) || 0;
const textOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * One table of named leases for the jobs that one process at a time runs among those sharing the
 * database (database/leases.ts): the webhooks' fan-out (`fanout`, from `webhook_leases`) and the
 * recurring events' horizon pass (`series-horizon`, from `series_horizon_lease`, whose UTC text
 * becomes milliseconds since the epoch, the encoding of the other). The rows are moved, the old
 * tables dropped; `down` puts them back.
 */
export class Leases1766047000000 implements MigrationInterface {
  name = 'Leases1766047000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(new Table(namedLeasesTable('leases')));
    await q.query(
      'INSERT INTO leases (name, owner, lease_until) SELECT name, owner, lease_until FROM webhook_leases',
    );
    const [horizon] = (await q.query(
      'SELECT lease_until FROM series_horizon_lease WHERE id = 1',
    )) as Array<{ lease_until: unknown }>;
    await q.query("INSERT INTO leases (name, lease_until) VALUES ('series-horizon', ?)", [
      horizon ? msOf(horizon.lease_until) : 0,
    ]);
    await q.dropTable('webhook_leases');
    await q.dropTable('series_horizon_lease');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createTable(new Table(SERIES_HORIZON_LEASE));
    const [horizon] = (await q.query(
      "SELECT lease_until FROM leases WHERE name = 'series-horizon'",
    )) as Array<{ lease_until: unknown }>;
    await q.query('INSERT INTO series_horizon_lease (id, lease_until) VALUES (1, ?)', [
      textOf(Number(horizon?.lease_until ?? 0)),
    ]);
    await q.createTable(new Table(namedLeasesTable('webhook_leases')));
    await q.query(
      "INSERT INTO webhook_leases (name, owner, lease_until) SELECT name, owner, lease_until FROM leases WHERE name <> 'series-horizon'",
    );
    await q.dropTable('leases');
  }
}
