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

/**
 * `row` of entity `target` as `selectRows` reads it back once `insertRows` has written it: each
 * value through the driver's persistence and then its hydration rules (column transformers
 * included), so that an answer built from what a write inserted is the one a read gives. Undefined
 * when `row` leaves a column to its default: only the database knows that value.
 */
export function asReadBack<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  row: T,
): T | undefined {
  const reader = readerOf(manager, manager.connection.getMetadata(target));
  const entity = reader.metadata.create(undefined, { fromDeserializer: true }) as T;
  for (const column of reader.columns) {
    const value: unknown = column.getEntityValue(row);
    if (value === undefined) return undefined;
    const stored: unknown = reader.driver.preparePersistentValue(value, column);
    column.setEntityValue(entity, reader.driver.prepareHydratedValue(stored, column));
  }
  return entity;
}

/**
 * A table of one row per record at most, keyed by the record's id (`key`): an extension module's
 * stored values (src/extensions, PayloadContributor.stored). Its names are identifiers checked
 * when the module registers.
 */
export interface KeyedTable {
  table: string;
  key: string;
  columns: readonly string[];
}

/** A keyed table's rows of the records read, by record id: a record without a row has none. */
export type KeyedRows = Map<number, Readonly<Record<string, unknown>>>;

/**
 * `selectRows` by the entity's primary key, with the rows of each keyed table `joined` read in the
 * same statement (LEFT JOIN): a page of records and what the modules keep of them in one round
 * trip. `joined[i]` holds table i's rows by record id.
 */
export async function selectRowsJoined<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  ids: readonly number[],
  joins: readonly KeyedTable[],
): Promise<{ rows: T[]; joined: KeyedRows[] }> {
  const joined = joins.map((): KeyedRows => new Map());
  if (!ids.length) return { rows: [], joined };
  const metadata = manager.connection.getMetadata(target);
  const reader = readerOf(manager, metadata);
  const q = (name: string) => reader.driver.escape(name);
  const primary = q(metadata.primaryColumns[0].databaseName);
  const own = reader.columns.map((c) => `r.${q(c.databaseName)} AS ${q(c.databaseName)}`);
  const extra = joins.flatMap((join, i) =>
    [join.key, ...join.columns].map((column) => `j${i}.${q(column)} AS ${q(`j${i}__${column}`)}`),
  );
  const from = joins
    .map((join, i) => ` LEFT JOIN ${q(join.table)} j${i} ON j${i}.${q(join.key)} = r.${primary}`)
    .join('');
  const params: unknown[] = [];
  const sql =
    `SELECT ${[...own, ...extra].join(', ')} FROM ${q(metadata.tableName)} r${from}` +
    ` WHERE r.${primary} IN ${inList(ids, params)}`;
  const raws = (await manager.query(sql, params)) as Array<Record<string, unknown>>;
  const rows: T[] = [];
  const seen = new Set<unknown>();
  for (const raw of raws) {
    const entity = hydrate(reader, raw) as T;
    const id = Number(raw[metadata.primaryColumns[0].databaseName]);
    // One row per record: a keyed table holding two for one record does not repeat it.
    if (seen.has(id)) continue;
    seen.add(id);
    rows.push(entity);
    joins.forEach((join, i) => {
      if (raw[`j${i}__${join.key}`] === null || raw[`j${i}__${join.key}`] === undefined) return;
      joined[i].set(id, Object.fromEntries(join.columns.map((c) => [c, raw[`j${i}__${c}`]])));
    });
  }
  return { rows, joined };
}

/** The rows of a keyed table for the records `ids`, by record id, in one query. */
export async function selectKeyed(
  manager: EntityManager,
  { table, key, columns }: KeyedTable,
  ids: readonly number[],
): Promise<KeyedRows> {
  const out: KeyedRows = new Map();
  if (!ids.length) return out;
  const q = (name: string) => manager.connection.driver.escape(name);
  const params: unknown[] = [];
  const raws = (await manager.query(
    `SELECT ${[key, ...columns].map(q).join(', ')} FROM ${q(table)} WHERE ${q(key)} IN ${inList(ids, params)}`,
    params,
  )) as Array<Record<string, unknown>>;
  for (const raw of raws) {
    const id = Number(raw[key]);
    if (!out.has(id)) out.set(id, Object.fromEntries(columns.map((c) => [c, raw[c]])));
  }
  return out;
}
