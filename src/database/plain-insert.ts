import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Inserts `rows` of entity `target` in one plain INSERT: what `manager.insert` writes, without
 * its query builder (which rewrites the whole statement's property names and then reads back
 * every defaulted column with RETURNING), for the rows a create writes on every request. Each
 * value goes through the driver's own persistence rules (column transformers, JSON); a column
 * left undefined in every row gets its default. Rows that leave different columns undefined,
 * and entities with columns TypeORM generates, go to `manager.insert`.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: readonly T[],
): Promise<void> {
  if (!rows.length) return;
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  const stored = metadata.columns.filter((column) => !column.isVirtual);
  // The columns the first row sets; every row must set the same ones.
  const columns = stored.filter((column) => column.getEntityValue(rows[0]) !== undefined);
  const sets = new Set(columns);
  const uniform = rows.every((row) =>
    stored.every((column) => (column.getEntityValue(row) !== undefined) === sets.has(column)),
  );
  // Columns TypeORM fills in itself (generated ids, create/update dates, versions) and writes
  // back into the rows: its own insert keeps that promise.
  const managed = stored.some(
    (column) =>
      column.isGenerated || column.isCreateDate || column.isUpdateDate || column.isVersion,
  );
  if (managed || !columns.length || !uniform) {
    await manager.insert(
      target,
      rows.map((row) => ({ ...row })),
    );
    return;
  }
  const params: unknown[] = [];
  for (const row of rows) {
    for (const column of columns) {
      params.push(driver.preparePersistentValue(column.getEntityValue(row), column));
    }
  }
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  await manager.query(
    `INSERT INTO ${driver.escape(metadata.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
    params,
  );
}
