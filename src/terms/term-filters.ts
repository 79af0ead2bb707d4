import type { Language } from '../config/config.js';
import type { Taxonomy } from './taxonomy.js';

/** What the repository needs to list terms: the list query, resolved and normalised. */
export interface TermListFilters {
  taxonomy: Taxonomy;
  language: Language;
  search?: string;
  /** Ids to keep; `[]` keeps nothing (an `include` of slugs only selects nothing). */
  include?: number[];
  exclude?: number[];
  /** Direct children of this category. */
  parent?: number;
  /** Terms carried by this event (`event` wins over `post`). */
  eventId?: number;
  slug?: string;
  hideEmpty: boolean;
  /** Primary sort; ties are always broken by id ascending. */
  sort: { key: 'id' | 'name' | 'slug' | 'description' | 'count' | 'parent' | 'include' | 'none' };
  descending: boolean;
}

/**
 * WordPress `WP_Term_Query::parse_orderby` behind the REST terms controller, as BEHAVIOR §5.4
 * states it: `id`/`term_id`, `name`, `slug`, `description`, `count`, `parent`; `term_group`
 * (always 0) and `none` leave the id tie-break alone; `include` orders by the position in the
 * `include` list only when one was given; `include_slugs` needs a list of slugs, which the
 * single `slug` filter never is; every other value sorts by name.
 */
export function parseOrderBy(
  orderby: string | undefined,
  hasInclude: boolean,
): TermListFilters['sort'] {
  const value = (orderby ?? 'name').toLowerCase();
  switch (value) {
    case 'id':
    case 'term_id':
      return { key: 'id' };
    case 'slug':
    case 'description':
    case 'count':
    case 'parent':
      return { key: value };
    case 'term_group':
    case 'none':
      return { key: 'none' };
    case 'include':
      return { key: hasInclude ? 'include' : 'name' };
    default:
      return { key: 'name' };
  }
}

/** WordPress `parse_order`: `asc` in any case is ascending, any other non-empty value descending. */
export function isDescending(order: string | undefined): boolean {
  return order !== undefined && order.toUpperCase() !== 'ASC';
}

/** Items of an `include`/`exclude` list that select something: ids (slugs select nothing). */
export function idsOf(items: Array<number | string>): number[] {
  return [...new Set(items.filter((i): i is number => typeof i === 'number'))];
}
