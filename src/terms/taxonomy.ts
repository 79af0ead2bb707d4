import type { TermKind } from '../common/records/record-kinds.js';

/**
 * The two term kinds of the calendar. Categories are hierarchical (WordPress `tribe_events_cat`,
 * renamed `cal_events_cat`, BEHAVIOR D17), tags are flat (`post_tag`). TEC parametrizes its term
 * endpoints the same way: `Term_Single_Base::get_taxonomy()`.
 */
export type Taxonomy = TermKind;

export interface TaxonomyInfo {
  /** The WordPress taxonomy name, stored in `terms.taxonomy` and shown as `taxonomy`. */
  wpName: string;
  /** The collection segment of the REST routes and the items key of the list. */
  collection: 'categories' | 'tags';
  /** Only hierarchical taxonomies have `parent` (in input and in the list form). */
  hierarchical: boolean;
}

export const TAXONOMIES: Record<Taxonomy, TaxonomyInfo> = {
  category: { wpName: 'cal_events_cat', collection: 'categories', hierarchical: true },
  tag: { wpName: 'post_tag', collection: 'tags', hierarchical: false },
};

export function taxonomyOf(wpName: string): Taxonomy {
  return wpName === TAXONOMIES.category.wpName ? 'category' : 'tag';
}
