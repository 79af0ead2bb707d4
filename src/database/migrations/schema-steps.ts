import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  TableIndex,
  type TableOptions,
} from 'typeorm';

/**
 * Steps that several migrations take alike, on both engines. They belong to the migrations (a
 * migration imports nothing of the application), and a migration must keep doing what it did
 * when it was written: a change here changes every migration that calls it, so none may alter
 * the SQL a step issues.
 */

/** Whether the migration runs on SQLite (else MySQL/MariaDB). */
export const isSqlite = (q: QueryRunner) => q.connection.options.type === 'better-sqlite3';

/** An index (unique when said). */
export const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

/**
 * The columns of `IDX_events_listing` as the first schema made it: the default listing's
 * language + visible + start window, in the archive's order, covering the visibility and end
 * columns. Later indexes of listings (of events by venue, of occurrences) extend it.
 */
export const EVENTS_LISTING_COLUMNS = [
  'language',
  'hide_from_listings',
  'start_date',
  'date',
  'id',
  'status',
  'end_date',
  'date_utc',
  'author_id',
];

/** A table of named leases (`webhook_leases`, later `leases`): one row a job, its holder and term. */
export const namedLeasesTable = (name: string): TableOptions => ({
  name,
  columns: [
    { name: 'name', type: 'varchar', length: '40', isPrimary: true },
    { name: 'owner', type: 'varchar', length: '40', isNullable: true },
    { name: 'lease_until', type: 'bigint', default: 0 },
  ],
});

/**
 * Adds a nullable or defaulted column with `ALTER TABLE … ADD` on both engines: no copy of the
 * table (TypeORM's addColumn rebuilds a SQLite table). The definitions are the engines' own SQL.
 */
export const addColumnInPlace = (
  q: QueryRunner,
  table: string,
  column: string,
  sqliteDefinition: string,
  mysqlDefinition: string,
) =>
  q.query(
    isSqlite(q)
      ? `ALTER TABLE ${table} ADD COLUMN "${column}" ${sqliteDefinition}`
      : `ALTER TABLE ${table} ADD ${column} ${mysqlDefinition}`,
  );

/** Drops columns with `ALTER TABLE … DROP COLUMN`, in the order given. */
export async function dropColumnsInPlace(
  q: QueryRunner,
  table: string,
  columns: string[],
): Promise<void> {
  for (const column of columns) await q.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
}

/** Drops an index of a table, then creates another in its place. */
export async function replaceIndex(
  q: QueryRunner,
  table: string,
  dropped: string,
  created: TableIndex,
): Promise<void> {
  await q.dropIndex(table, dropped);
  await q.createIndex(table, created);
}

/** A table, or a function of the runner giving the table as it is on the runner's engine. */
type TableOnEngine = TableOptions | ((q: QueryRunner) => TableOptions);

/**
 * The base of a migration that creates tables, in the order given, and whose revert drops them in
 * the reverse order: `class X extends tablesMigration(A, B) { name = 'X…'; }`. One that also fills
 * or alters something extends `up` and `down` around `super`.
 */
export function tablesMigration(...tables: TableOnEngine[]) {
  const on = (q: QueryRunner) => tables.map((t) => (typeof t === 'function' ? t(q) : t));
  abstract class TablesMigration implements MigrationInterface {
    abstract readonly name: string;

    async up(q: QueryRunner): Promise<void> {
      for (const table of on(q)) await q.createTable(new Table(table));
    }

    async down(q: QueryRunner): Promise<void> {
      for (const table of on(q).toReversed()) await q.dropTable(table.name);
    }
  }
  return TablesMigration;
}
