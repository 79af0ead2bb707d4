import {
  type Driver,
  type EntityMetadata,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
} from 'typeorm';

type ColumnMetadata = EntityMetadata['columns'][number];

/** A SELECT of every stored column of one entity, made once, and how its rows become entities. */
interface Reader {
  /** `SELECT <columns> FROM <table> WHERE ` */
  head: string;
  columns: readonly ColumnMetadata[];
  metadata: EntityMetadata;
  driver: Driver;
}

const readers = new WeakMap<EntityMetadata, Reader>();

/**
 * The reader of `metadata`. Relations, embedded columns and lazy relations are TypeORM's to
 * load: an entity with any of them is refused (a programming error, not a request's).
 */
function readerOf(manager: EntityManager, metadata: EntityMetadata): Reader {
  let reader = readers.get(metadata);
  if (reader) return reader;
  if (metadata.relations.length || metadata.embeddeds.length || metadata.lazyRelations.length) {
    throw new Error(`selectRows reads plain entities only, not ${metadata.name}`);
  }
  const driver = manager.connection.driver;
  const columns = metadata.columns.filter((column) => !column.isVirtual);
  reader = {
    head: `SELECT ${columns.map((c) => driver.escape(c.databaseName)).join(', ')} FROM ${driver.escape(metadata.tableName)} WHERE `,
    columns,
    metadata,
    driver,
  };
  readers.set(metadata, reader);
  return reader;
}

/** `IN (…)` of `values`: integers written as they are (nothing to escape), anything else bound. */
function inList(values: readonly unknown[], params: unknown[]): string {
  if (values.every((v) => Number.isSafeInteger(v))) return `(${values.join(', ')})`;
  params.push(...values);
  return `(${values.map(() => '?').join(', ')})`;
}

/**
 * The rows of entity `target` whose `property` is one of `values`, in one plain SELECT of every
 * stored column, ordered by `order` (ascending) when given: what `find({ where: { property:
 * In(values) } })` answers, hydrated the same way (each value through the driver's own rules and
 * the column's transformer), without the query builder that rewrites the whole statement's
 * property names on every call and the generic transformer behind it. These reads run for every
 * page whose records are not cached, so the difference is the cold path's (docs/caches.md).
 */
export async function selectRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  property: keyof T & string,
  values: readonly (number | string)[],
  order: ReadonlyArray<keyof T & string> = [],
): Promise<T[]> {
  if (!values.length) return [];
  const metadata = manager.connection.getMetadata(target);
  const reader = readerOf(manager, metadata);
  const columnOf = (name: string) => {
    const column = metadata.findColumnWithPropertyName(name);
    if (!column) throw new Error(`${metadata.name} has no column ${name}`);
    return column;
  };
  const params: unknown[] = [];
  const escape = (name: string) => reader.driver.escape(columnOf(name).databaseName);
  const sql =
    reader.head +
    `${escape(property)} IN ${inList(values, params)}` +
    (order.length ? ` ORDER BY ${order.map((name) => `${escape(name)} ASC`).join(', ')}` : '');
  const raws = (await manager.query(sql, params)) as Array<Record<string, unknown>>;
  return raws.map((raw) => hydrate(reader, raw) as T);
}

/** An entity of `raw`'s columns, as TypeORM's own transformer builds one from a row. */
function hydrate(reader: Reader, raw: Record<string, unknown>): ObjectLiteral {
  const entity = reader.metadata.create(undefined, { fromDeserializer: true }) as Record<
    string,
    unknown
  >;
  for (const column of reader.columns) {
    const value = raw[column.databaseName];
    if (value === undefined) continue;
    column.setEntityValue(entity, reader.driver.prepareHydratedValue(value, column));
  }
  return entity;
}
