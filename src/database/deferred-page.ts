import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export type PageOrder = Array<[property: string, direction: 'ASC' | 'DESC']>;

/**
 * The ids of one page of `list` (alias `alias`, filtered) in `order`, read from an index alone
 * where one covers the filter and the order: no row is read, deep pages skip index entries.
 */
export async function pageIds<E extends ObjectLiteral>(
  list: SelectQueryBuilder<E>,
  alias: string,
  order: PageOrder,
  page: { offset: number; perPage: number },
): Promise<number[]> {
  const ids = list.select(`${alias}.id`, 'id').offset(page.offset).limit(page.perPage);
  order.forEach(([property, direction], i) =>
    ids[i ? 'addOrderBy' : 'orderBy'](`${alias}.${property}`, direction),
  );
  const rows = await ids.getRawMany<{ id: number | string }>();
  return rows.map((row) => Number(row.id));
}
