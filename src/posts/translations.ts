import type { Actor } from '../common/actor.js';
import { canRead } from '../auth/post-policy.js';
import type { Language } from '../config/config.js';
import { ApiError, t, type Text } from '../common/errors/api-error.js';
import type { PostStatus } from '../auth/post-policy.js';
import { effectiveStatus } from './post-status.js';
import type { Translations } from '../common/payload/tec-payload.js';
import type { RecordKind, TermKind } from '../common/records/record-kinds.js';

/**
 * Linked translations (CONTRACT §5), shared by events, venues, organizers, categories and tags.
 *
 * Translations of one record form a group: their `translation_group` column holds the same
 * group id, the id of one of the members (the group's first record, until it leaves). NULL means
 * the record has no translations. A unique (translation_group, language) index keeps one member
 * per language, also under concurrent writers. A record joins a group only when it is created
 * with `translation_of`, and leaves it when it is trashed (posts) or deleted (terms); the others
 * stay linked. Whoever leaves, the group id stays the id of a current member, so a record that
 * later starts a group of its own can never take the id of a group that still exists.
 *
 * Who may change a group of posts (CONTRACT §5): joining it (`translation_of`) or moving one of
 * its members to another language changes what every member shows as `translations`, so it
 * needs the right to edit every member (else 403). Validation still comes first, as everywhere,
 * but sees only what the caller may read: a target the caller may not read is answered as if it
 * did not exist, and "language taken" counts only the members the caller may read, so that no
 * answer tells of a hidden translation (a hidden member is one the caller may not edit either,
 * so the write is refused all the same). Terms are managed by editors only.
 */

/** Where the records of one kind live. Group members are always of the same kind. */
export interface TranslationScope {
  /** Names the kind in error reasons (`translations.reasons.not_<kind>`). */
  kind: RecordKind;
  table: 'events' | 'venues' | 'organizers' | 'terms';
  /** Terms: the taxonomy of the kind (a category never translates a tag). */
  taxonomy?: string;
  /** Posts have statuses: trashed ones are no translation targets, drafts are not for all. */
  posts: boolean;
}

export const EVENT_TRANSLATIONS: TranslationScope = {
  kind: 'event',
  table: 'events',
  posts: true,
};
export const VENUE_TRANSLATIONS: TranslationScope = { kind: 'venue', table: 'venues', posts: true };
export const ORGANIZER_TRANSLATIONS: TranslationScope = {
  kind: 'organizer',
  table: 'organizers',
  posts: true,
};
export const termTranslations = (kind: TermKind, wpTaxonomy: string): TranslationScope => ({
  kind,
  table: 'terms',
  taxonomy: wpTaxonomy,
  posts: false,
});

/** What the helpers need of a record. */
export interface Translatable {
  id: number;
  language: Language;
  translationGroup: number | null;
}

/** What the permission checks need of a post (entities have it; terms do not). */
interface Owned {
  authorId: number;
  status: PostStatus;
  dateUtc: string | null;
}

export type Member = Translatable & Partial<Owned>;

/** Who looks at the translations: posts they may not read by id are left out of the map. */
export interface TranslationViewer {
  actor: Actor;
  nowUtc: string;
}

export interface MemberRow {
  id: number | string;
  language: Language;
  translation_group: number | string | null;
  author_id?: number | string;
  status?: PostStatus;
  date_utc?: string | null;
}

/** The `language` and `translations` fields every payload ends with. */
export function translationFields(
  record: Pick<Translatable, 'id' | 'language'>,
  translations?: Translations,
): { language: Language; translations: Translations } {
  return {
    language: record.language,
    translations: translations ?? { [record.language]: record.id },
  };
}

/** 403 for a join or a language change in a group the caller may not change entirely. */
export const translationsForbidden = () =>
  new ApiError('rest_cannot_edit', 403, {}, t('errors.rest_cannot_edit_translations'));

export function toMember(row: MemberRow): Member {
  const member: Member = {
    id: Number(row.id),
    language: row.language,
    translationGroup: row.translation_group === null ? null : Number(row.translation_group),
  };
  if (row.status !== undefined) {
    member.authorId = Number(row.author_id);
    member.status = row.status;
    member.dateUtc = row.date_utc ?? null;
  }
  return member;
}

/** Posts: whoever asks must be known, and every check below needs the post's owner and status. */
export function access(scope: TranslationScope, member: Member, viewer?: TranslationViewer) {
  if (!viewer || member.authorId === undefined || member.status === undefined) {
    throw new Error(`the ${scope.kind} translation checks need a viewer and the record's owner`);
  }
  const status = effectiveStatus(
    { status: member.status, dateUtc: member.dateUtc ?? null },
    viewer.nowUtc,
  );
  return { actor: viewer.actor, record: { authorId: member.authorId, status } };
}

/** May `viewer` read `member` by id (terms: always)? */
export function readable(
  scope: TranslationScope,
  member: Member,
  viewer?: TranslationViewer,
): boolean {
  if (!scope.posts) return true;
  const { actor, record } = access(scope, member, viewer);
  return canRead(actor, record);
}

export const notARecord = (scope: TranslationScope): Text =>
  t(`translations.reasons.not_${scope.kind}`);

/** The reason when a group already has a member in `language` (also for a lost race). */
export const languageTakenReason = (language: Language): Text =>
  t('translations.reasons.language_taken', { language });
