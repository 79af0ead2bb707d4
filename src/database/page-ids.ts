import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { VersionedCache } from './versioned-cache.js';
import type { WriteVersion } from './write-version.js';

export type PageOrder = Array<[property: string, direction: 'ASC' | 'DESC']>;

/**
 * Where pages of a list start: the sort values (one per column of the order) of the row at an
 * offset, remembered by list (the filters and the reader) and offset. With them a page seeks to
 * its first row through the index instead of skipping every entry before it, so a deep page
 * costs what page 1 does the second time it is asked for, and a crawler walking the pages in
 * order seeks every one (each page remembers where the next one starts). Valid under the same
 * rules as the list totals: no write committed since, and one second at most (filters relative
 * to the clock).
 */
export class PageAnchors extends VersionedCache<Array<string | number>> {
  constructor(versions: WriteVersion) {
    super(versions, 1_000, { max: 10_000 });
  }
}

/**
 * The ids of one page of `list` (alias `alias`, filtered) in `order`, read from an index alone
 * where one covers the filter and the order: no row is read. Given `anchors` and the list's
 * `key`, a page whose start is remembered seeks to it; otherwise deep pages skip index entries.
 * `order` must end with a unique column (the id), so that a row's sort values name one position.
 */
export async function pageIds<E extends ObjectLiteral>(
  list: SelectQueryBuilder<E>,
  alias: string,
  order: PageOrder,
  page: { offset: number; perPage: number },
  anchors?: { cache: PageAnchors; key: string },
): Promise<number[]> {
  const version = anchors?.cache.version() ?? 0;
  const at = (offset: number) => `${anchors?.key} @${offset}`;
  const anchor = page.offset > 0 ? anchors?.cache.get(at(page.offset)) : undefined;
  const query = list.select(`${alias}.id`, 'id');
  order.forEach(([property], i) => query.addSelect(`${alias}.${property}`, `k${i}`));
  if (anchor) query.andWhere(...atOrAfter(alias, order, anchor));
  else query.offset(page.offset);
  // One row more than the page: where the next page starts.
  query.limit(page.perPage + 1);
  order.forEach(([property, direction], i) =>
    query[i ? 'addOrderBy' : 'orderBy'](`${alias}.${property}`, direction),
  );
  const rows = await query.getRawMany<Record<string, string | number>>();
  if (anchors) {
    // A row whose sort values include a NULL names no position to seek to.
    const remember = (offset: number, row: Record<string, string | number>) => {
      const values = order.map((_, i) => row[`k${i}`]);
      if (values.every((v) => v !== null && v !== undefined)) {
        anchors.cache.set(at(offset), version, values);
      }
    };
    if (rows.length && page.offset > 0 && !anchor) remember(page.offset, rows[0]);
    if (rows.length > page.perPage) remember(page.offset + page.perPage, rows[page.perPage]);
  }
  return rows.slice(0, page.perPage).map((row) => Number(row.id));
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
