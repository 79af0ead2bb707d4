import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ANCHOR_TTL_MS, type PageAnchors } from '../cache/page-anchors.js';
import type { Tags } from '../cache/dependencies.js';

export type PageOrder = Array<[property: string, direction: 'ASC' | 'DESC']>;

/**
 * The ids of one page of `list` (alias `alias`, filtered) in `order`, read from an index alone
 * where one covers the filter and the order: no row is read. Given `anchors` and the list's
 * `key` (and `tags`, what the list depends on), a page whose start is remembered seeks to it;
 * otherwise deep pages skip index entries.
 * `order` must end with a unique column (the id), so that a row's sort values name one position.
 */
export async function pageIds<E extends ObjectLiteral>(
  list: SelectQueryBuilder<E>,
  alias: string,
  order: PageOrder,
  page: { offset: number; perPage: number },
  anchors?: ListAnchors,
): Promise<number[]> {
  const version = anchors?.cache.version() ?? 0;
  const at = (offset: number) => `${anchors?.key} @${offset}`;
  const found =
    page.offset > 0 ? anchors?.cache.lookup(at(page.offset), Date.now(), ANCHOR_TTL_MS) : undefined;
  const anchor = found?.value;
  if (found?.expired && anchors && !anchors.cache.refreshing.has(at(page.offset))) {
    findStartAgain(list.clone(), alias, order, page.offset, anchors, version);
  }
  const query = inOrder(list, alias, order);
  if (anchor) query.andWhere(...atOrAfter(alias, order, anchor));
  else query.offset(page.offset);
  // One row more than the page: where the next page starts.
  const rows = await query.limit(page.perPage + 1).getRawMany<SortedRow>();
  if (anchors) {
    const remember = (offset: number, row: SortedRow) => {
      const values = startAt(row, order);
      if (values) anchors.cache.set(at(offset), version, values, Date.now(), anchors.tags);
    };
    if (rows.length && page.offset > 0 && !anchor) remember(page.offset, rows[0]);
    // A start found from an expired one is not kept as fresh.
    if (rows.length > page.perPage && !found?.expired) {
      remember(page.offset + page.perPage, rows[page.perPage]);
    }
  }
  return rows.slice(0, page.perPage).map((row) => Number(row.id));
}

type SortedRow = Record<string, string | number>;

/** A list's page starts: the cache, the list's key, what the list depends on. */
interface ListAnchors {
  cache: PageAnchors;
  key: string;
  tags?: Tags;
}

/** The ids of `list` with their sort values (`k0`, `k1`, ...), in `order`. */
function inOrder<E extends ObjectLiteral>(
  list: SelectQueryBuilder<E>,
  alias: string,
  order: PageOrder,
): SelectQueryBuilder<E> {
  const query = list.select(`${alias}.id`, 'id');
  order.forEach(([property], i) => query.addSelect(`${alias}.${property}`, `k${i}`));
  order.forEach(([property, direction], i) =>
    query[i ? 'addOrderBy' : 'orderBy'](`${alias}.${property}`, direction),
  );
  return query;
}

/** The start a row names, or undefined when its sort values include a NULL (no position). */
function startAt(row: SortedRow, order: PageOrder): Array<string | number> | undefined {
  const values = order.map((_, i) => row[`k${i}`]);
  return values.every((v) => v !== null && v !== undefined) ? values : undefined;
}

/**
 * Reads the sort values of the row at `offset` again (skipping the entries before it) and keeps
 * them as that page's start, behind the answer that used the expired one; one at a time per key.
 */
function findStartAgain<E extends ObjectLiteral>(
  list: SelectQueryBuilder<E>,
  alias: string,
  order: PageOrder,
  offset: number,
  anchors: ListAnchors,
  version: number,
): void {
  const key = `${anchors.key} @${offset}`;
  anchors.cache.refreshing.add(key);
  void inOrder(list, alias, order)
    .offset(offset)
    .limit(1)
    .getRawMany<SortedRow>()
    .then(([row]) => {
      const values = row && startAt(row, order);
      if (values) anchors.cache.set(key, version, values, Date.now(), anchors.tags);
    })
    // A failed look-up leaves the start to expire; the next page request reads it by offset.
    .catch(() => undefined)
    .finally(() => anchors.cache.refreshing.delete(key));
}

/** Rows at or after `values` in `order` (lexicographic), as a condition with its parameters. */
function atOrAfter(
  alias: string,
  order: PageOrder,
  values: Array<string | number>,
): [string, Record<string, string | number>] {
  const params: Record<string, string | number> = {};
  let condition = '';
  for (let i = order.length - 1; i >= 0; i--) {
    const [property, direction] = order[i];
    const column = `${alias}.${property}`;
    const beyond = direction === 'ASC' ? '>' : '<';
    params[`seek${i}`] = values[i];
    condition =
      i === order.length - 1
        ? `${column} ${beyond}= :seek${i}`
        : `(${column} ${beyond} :seek${i} OR (${column} = :seek${i} AND ${condition}))`;
  }
  return [condition, params];
}
