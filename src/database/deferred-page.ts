import { LRUCache } from 'lru-cache';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { WriteVersion } from './write-version.js';

export type PageOrder = Array<[property: string, direction: 'ASC' | 'DESC']>;

interface Anchor {
  version: number;
  expires: number;
  /** The sort values (one per column of the order) of the row at this offset. */
  values: Array<string | number>;
}

/**
 * Where pages of a list start: the sort values of the row at an offset, remembered by list (the
 * filters and the reader) and offset. With them a page seeks to its first row through the index
 * instead of skipping every entry before it, so a deep page costs what page 1 does the second
 * time it is asked for, and a crawler walking the pages in order seeks every one (each page
 * remembers where the next one starts). Valid under the same rules as the list totals: no
 * write committed since, and one second at most (filters relative to the clock).
 */
export class PageAnchors {
  private readonly entries = new LRUCache<string, Anchor>({ max: 10_000 });

  constructor(
    private readonly versions: WriteVersion,
    private readonly ttlMs = 1_000,
  ) {}

  /** The write version now: read before the page, stored with what the page teaches. */
  version(): number {
    return this.versions.current();
  }

  get(key: string): Anchor['values'] | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version === this.versions.current() && hit.expires > Date.now()) return hit.values;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, version: number, values: Anchor['values']): void {
    if (values.some((v) => v === null || v === undefined)) return;
    this.entries.set(key, { version, expires: Date.now() + this.ttlMs, values });
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
    const valuesOf = (row: Record<string, string | number>) => order.map((_, i) => row[`k${i}`]);
    if (rows.length && page.offset > 0 && !anchor) {
      anchors.cache.set(at(page.offset), version, valuesOf(rows[0]));
    }
    if (rows.length > page.perPage) {
      anchors.cache.set(at(page.offset + page.perPage), version, valuesOf(rows[page.perPage]));
    }
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
