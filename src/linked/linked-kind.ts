import {
  ORGANIZER_TRANSLATIONS,
  VENUE_TRANSLATIONS,
  type TranslationScope,
} from '../posts/translations.js';
import type { LinkedKind as Kind } from '../common/records/record-kinds.js';

/**
 * What distinguishes venues from organizers for the shared code (TEC: Linked_Post_Base.php gets
 * the same from `get_post_type()`): the kind behind a post id, the collection route, the post type
 * named in draft URLs (BEHAVIOR §1.9, D17) and the payload key holding the record's name.
 */
export interface LinkedKind {
  kind: Kind;
  collection: 'venues' | 'organizers';
  postType: 'cal_venue' | 'cal_organizer';
  nameField: Kind;
  /** Where the kind's translations are (CONTRACT §5). */
  translations: TranslationScope;
}

export const VENUE_KIND: LinkedKind = {
  kind: 'venue',
  collection: 'venues',
  postType: 'cal_venue',
  nameField: 'venue',
  translations: VENUE_TRANSLATIONS,
};

export const ORGANIZER_KIND: LinkedKind = {
  kind: 'organizer',
  collection: 'organizers',
  postType: 'cal_organizer',
  nameField: 'organizer',
  translations: ORGANIZER_TRANSLATIONS,
};
