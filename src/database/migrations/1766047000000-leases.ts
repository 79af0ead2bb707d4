import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** `YYYY-MM-DD HH:MM:SS` (UTC) → ms since the epoch; 0 for what is no such time. */
const msOf = (text: unknown) => Date.parse(`${String(text).replace(' ', 'T')}Z`) || 0;
const textOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** A table of named leases: the shape of `webhook_leases`, which `leases` takes. */
const namedLeases = (name: string) =>
  new Table({
    name,
    columns: [
      { name: 'name', type: 'varchar', length: '40', isPrimary: true },
      { name: 'owner', type: 'varchar', length: '40', isNullable: true },
      { name: 'lease_until', type: 'bigint', default: 0 },
    ],
  });

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
    await q.createTable(namedLeases('leases'));
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
    await q.createTable(
      new Table({
        name: 'series_horizon_lease',
        columns: [
          { name: 'id', type: 'int', isPrimary: true },
          { name: 'lease_until', type: 'varchar', length: '19' },
        ],
      }),
    );
    const [horizon] = (await q.query(
      "SELECT lease_until FROM leases WHERE name = 'series-horizon'",
    )) as Array<{ lease_until: unknown }>;
    await q.query('INSERT INTO series_horizon_lease (id, lease_until) VALUES (1, ?)', [
      textOf(Number(horizon?.lease_until ?? 0)),
    ]);
    await q.createTable(namedLeases('webhook_leases'));
    await q.query(
      "INSERT INTO webhook_leases (name, owner, lease_until) SELECT name, owner, lease_until FROM leases WHERE name <> 'series-horizon'",
    );
    await q.dropTable('leases');
  }
}
