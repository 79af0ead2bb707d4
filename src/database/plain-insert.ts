import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { BoundedMemo } from '../common/bounded-memo.js';
import { later } from './statement-batch.js';

/**
 * Inserts `rows` of entity `target` in one plain INSERT: what `manager.insert` writes, without
 * its query builder (which rewrites the whole statement's property names and then reads back
 * every defaulted column with RETURNING), for the rows a create writes on every request. Each
 * value goes through the driver's own persistence rules (column transformers, JSON); a column
 * left undefined in every row gets its default. Rows that leave different columns undefined,
 * and entities with columns TypeORM generates, go to `manager.insert`. With `deferred`, the plain
 * INSERT goes with the transaction's next statement (statement-batch.ts): for rows whose insert
 * nobody catches a failure of.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: readonly T[],
  deferred = false,
): Promise<void> {
  if (!rows.length) return;
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  const { stored, valueOf, managed, statements } = shapeOf(metadata);
  // The columns the first row sets; every row must set the same ones. The statement depends
  // only on them and the number of rows (`key`): made once for each. A create inserts a few
  // rows of tables of up to 35 columns on every request: no array or string per column here.
  const first = rows[0];
  const sets: number[] = [];
  for (let i = 0; i < stored.length; i++) if (valueOf[i](first) !== undefined) sets.push(i);
  let uniform = true;
  for (let r = 1; r < rows.length && uniform; r++) {
    let next = 0;
    for (let i = 0; i < stored.length; i++) {
      const set = valueOf[i](rows[r]) !== undefined;
      if (set !== (sets[next] === i)) {
        uniform = false;
        break;
      }
      if (set) next++;
    }
  }
  // Columns TypeORM fills in itself (generated ids, create/update dates, versions) and writes
  // back into the rows: its own insert keeps that promise.
  if (managed || !sets.length || !uniform) {
    await manager.insert(
      target,
      rows.map((row) => ({ ...row })),
    );
    return;
  }
  const params: unknown[] = [];
  for (const row of rows) {
    for (const i of sets) params.push(driver.preparePersistentValue(valueOf[i](row), stored[i]));
  }
  const sql = statements.get(`${rows.length} ${sets.join(' ')}`, () => {
    const columns = sets.map((i) => stored[i]);
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    return `INSERT INTO ${driver.escape(metadata.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
  });
  if (deferred) await later(manager, sql, params);
  else await manager.query(sql, params);
}

interface Shape {
  /** The columns stored in the table (not virtual), in the entity's order. */
  stored: Array<EntityMetadata['columns'][number]>;
  /**
   * How each stored column's value is read from a row: the property itself for a plain column,
   * TypeORM's getEntityValue for an embedded or relation column (it walks to the value).
   */
  valueOf: Array<(row: ObjectLiteral) => unknown>;
  /** Whether TypeORM fills in a column itself (manager.insert then). */
  managed: boolean;
  /** The statements made so far, by number of rows and columns set. */
  statements: BoundedMemo<string>;
}

/** At most this many statements are kept per entity (a bulk insert's row counts vary). */
const MAX_STATEMENTS = 64;
const shapes = new WeakMap<EntityMetadata, Shape>();

function shapeOf(metadata: EntityMetadata): Shape {
  let shape = shapes.get(metadata);
  if (!shape) {
    const stored = metadata.columns.filter((column) => !column.isVirtual);
    shape = {
      stored,
      valueOf: stored.map((column) =>
        column.embeddedMetadata || column.relationMetadata || column.referencedColumn
          ? (row: ObjectLiteral) => column.getEntityValue(row)
          : (row: ObjectLiteral) => row[column.propertyName] as unknown,
      ),
      managed: stored.some(
        (column) =>
          column.isGenerated || column.isCreateDate || column.isUpdateDate || column.isVersion,
      ),
      statements: new BoundedMemo(MAX_STATEMENTS),
    };
    shapes.set(metadata, shape);
  }
  return shape;
}
