import type { ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';

export type PageOrder = Array<[property: string, direction: 'ASC' | 'DESC']>;

/**
 * One page of a list as a deferred join, in one statement: the page's ids come from `list`
 * (alias `alias`, filtered) in `order` through an index alone (deep pages skip index entries, not
 * whole rows), then only those rows are read, in the same order.
 */
export function deferredPage<E extends ObjectLiteral>(
  repo: Repository<E>,
  list: SelectQueryBuilder<E>,
  alias: string,
  order: PageOrder,
  page: { offset: number; perPage: number },
): Promise<E[]> {
  const ids = list.select(`${alias}.id`, 'id').offset(page.offset).limit(page.perPage);
  order.forEach(([property, direction], i) =>
    ids[i ? 'addOrderBy' : 'orderBy'](`${alias}.${property}`, direction),
  );
  const rows = repo
    .createQueryBuilder('row')
    .innerJoin(`(${ids.getQuery()})`, 'page', 'page.id = row.id')
    .setParameters(ids.getParameters());
  order.forEach(([property, direction], i) =>
    rows[i ? 'addOrderBy' : 'orderBy'](`row.${property}`, direction),
  );
  return rows.getMany();
}
