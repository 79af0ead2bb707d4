import type { EntityManager } from 'typeorm';
import type { Actor } from '../../auth/actor.js';
import { canEdit, canRead, isEditor } from '../../auth/post-policy.js';
import { LANGUAGES, type Language } from '../../config/config.js';
import { ApiError, invalidParam, t, type Text } from '../errors/api-error.js';
import { ANY_STATUSES, effectiveStatus, type PostStatus } from './post-status.js';
import { isUniqueViolation } from './slugs.js';
import { applyPostVisibility } from './visibility.js';

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

/** Language → id of the record in that language, e.g. `{ "en": 12, "hu": 40 }`. */
export type Translations = Partial<Record<Language, number>>;

/** Where the records of one kind live. Group members are always of the same kind. */
export interface TranslationScope {
  /** Names the kind in error reasons (`translations.reasons.not_<kind>`). */
  kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag';
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
export const termTranslations = (
  kind: 'category' | 'tag',
  wpTaxonomy: string,
): TranslationScope => ({
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

type Member = Translatable & Partial<Owned>;

/** Who looks at the translations: posts they may not read by id are left out of the map. */
export interface TranslationViewer {
  actor: Actor;
  nowUtc: string;
}

interface MemberRow {
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

/**
 * The translations of each record of a page, in one query whatever the page size (none when no
 * record has translations). Each map holds the record itself and, for posts, the translations
 * `viewer` may read by id (a public page does not link to a draft), in the order en, hu, ro.
 */
export async function loadTranslations(
  manager: EntityManager,
  scope: TranslationScope,
  records: Translatable[],
  viewer?: TranslationViewer,
): Promise<Map<number, Translations>> {
  const groups = [
    ...new Set(records.map((r) => r.translationGroup).filter((g): g is number => g !== null)),
  ];
  const members = new Map<number, Array<{ id: number; language: Language }>>();
  if (groups.length) {
    const qb = manager
      .createQueryBuilder()
      .select('tr.id', 'id')
      .addSelect('tr.language', 'language')
      .addSelect('tr.translation_group', 'translation_group')
      .from(scope.table, 'tr')
      .where('tr.translation_group IN (:...groups)', { groups });
    if (scope.posts && viewer) {
      applyPostVisibility(qb, 'tr', viewer.actor, [...ANY_STATUSES], viewer.nowUtc);
    }
    for (const row of await qb.getRawMany<MemberRow>()) {
      const group = Number(row.translation_group);
      const list = members.get(group) ?? [];
      list.push({ id: Number(row.id), language: row.language });
      members.set(group, list);
    }
  }
  const out = new Map<number, Translations>();
  for (const record of records) {
    const group = record.translationGroup === null ? [] : members.get(record.translationGroup);
    const found = new Map<Language, number>((group ?? []).map((m) => [m.language, m.id]));
    // The record itself is always listed, whatever the viewer may see of the others.
    found.set(record.language, record.id);
    const map: Translations = {};
    for (const language of LANGUAGES) {
      const id = found.get(language);
      if (id !== undefined) map[language] = id;
    }
    out.set(record.id, map);
  }
  return out;
}

/**
 * Why a new record in `language` cannot be a translation of `targetId`, or null when it can:
 * the target must be a record of the same kind (not trashed) that `viewer` may read, and its
 * group must have no member in `language` yet that `viewer` may read. Read-only: services call it
 * while validating, before any permission check; joinTranslations checks the right to join.
 */
export async function translationOfProblem(
  manager: EntityManager,
  scope: TranslationScope,
  targetId: number,
  language: Language,
  viewer?: TranslationViewer,
): Promise<Text | null> {
  const target = await findMember(manager, scope, targetId);
  if (!target || !readable(scope, target, viewer)) return notARecord(scope);
  // The target itself counts: a record cannot translate one of its own language.
  if (await languageTaken(manager, scope, target, language, viewer)) {
    return languageTakenReason(language);
  }
  return null;
}

/**
 * Why `record` cannot move to `language`, or null when it can: no other member of its group may
 * be in that language already (of those `viewer` may read). Read-only, like
 * translationOfProblem; mayMoveLanguage is the permission half.
 */
export async function languageChangeProblem(
  manager: EntityManager,
  scope: TranslationScope,
  record: Member,
  language: Language,
  viewer?: TranslationViewer,
): Promise<Text | null> {
  if (language === record.language || record.translationGroup === null) return null;
  return (await languageTaken(manager, scope, record, language, viewer, record.id))
    ? languageTakenReason(language)
    : null;
}

/**
 * The permission half of a language change (after the caller's right to edit `record` itself):
 * a record with translations moves only when `viewer` may edit every one of them.
 */
export async function mayMoveLanguage(
  manager: EntityManager,
  scope: TranslationScope,
  record: Member,
  language: Language,
  viewer?: TranslationViewer,
): Promise<boolean> {
  if (language === record.language || record.translationGroup === null) return true;
  return mayChangeGroup(manager, scope, record, viewer);
}

/** 403 for a join or a language change in a group the caller may not change entirely. */
export const translationsForbidden = () =>
  new ApiError('rest_cannot_edit', 403, {}, t('translations.forbidden'));

/**
 * Puts the new record `recordId` (in `language`) into the group of `targetId`, inside the
 * caller's transaction. Re-checks what validation checked, since another writer may have come
 * in between: a lost race is the same 400 on `translation_of`, never a 500. Here the caller's
 * right to change the group is enforced (403), for every path that creates a translation
 * (a resource's own create and records created inline by an event write).
 */
export async function joinTranslations(
  manager: EntityManager,
  scope: TranslationScope,
  recordId: number,
  targetId: number,
  language: Language,
  viewer?: TranslationViewer,
): Promise<void> {
  const table = scope.table;
  // Writing the target's row first locks it (MySQL/MariaDB; SQLite runs one writer at a time),
  // so that joins and departures of one group never interleave. A target without translations
  // becomes the first member: its id is the group id.
  await manager.query(
    `UPDATE ${table} SET translation_group = COALESCE(translation_group, id) WHERE id = ?`,
    [targetId],
  );
  const target = await findMember(manager, scope, targetId);
  if (!target || target.translationGroup === null || !readable(scope, target, viewer)) {
    throw invalidParam('translation_of', notARecord(scope));
  }
  if (!(await mayChangeGroup(manager, scope, target, viewer))) throw translationsForbidden();
  try {
    await manager.query(`UPDATE ${table} SET translation_group = ? WHERE id = ?`, [
      target.translationGroup,
      recordId,
    ]);
  } catch (error) {
    // The unique (translation_group, language) index: the group got a member in `language`.
    if (isUniqueViolation(error)) {
      throw invalidParam('translation_of', languageTakenReason(language));
    }
    throw error;
  }
}

/**
 * Takes `record` out of its group (trash, delete), inside the caller's transaction; the other
 * members stay linked to each other. When the record's id was the group id, the group takes the
 * id of its smallest remaining member; a member left alone has no translations any more.
 */
export async function leaveTranslations(
  manager: EntityManager,
  scope: TranslationScope,
  record: Translatable,
): Promise<void> {
  const group = record.translationGroup;
  if (group === null) return;
  const table = scope.table;
  // Lock the whole group in index order first: two members leaving at once wait, not deadlock.
  await manager.query(
    `UPDATE ${table} SET translation_group = translation_group WHERE translation_group = ?`,
    [group],
  );
  await manager.query(`UPDATE ${table} SET translation_group = NULL WHERE id = ?`, [record.id]);
  record.translationGroup = null;
  const rest: Array<{ id: number | string }> = await manager.query(
    `SELECT id FROM ${table} WHERE translation_group = ? ORDER BY id`,
    [group],
  );
  if (rest.length === 1) {
    await manager.query(`UPDATE ${table} SET translation_group = NULL WHERE id = ?`, [rest[0]!.id]);
  } else if (rest.length > 1 && group === record.id) {
    await manager.query(`UPDATE ${table} SET translation_group = ? WHERE translation_group = ?`, [
      Number(rest[0]!.id),
      group,
    ]);
  }
}

/** A record of the scope's kind that may be translated (posts: not trashed). */
async function findMember(
  manager: EntityManager,
  scope: TranslationScope,
  id: number,
): Promise<Member | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const qb = manager
    .createQueryBuilder()
    .select('tr.id', 'id')
    .addSelect('tr.language', 'language')
    .addSelect('tr.translation_group', 'translation_group')
    .from(scope.table, 'tr')
    .where('tr.id = :id', { id });
  if (scope.taxonomy) qb.andWhere('tr.taxonomy = :taxonomy', { taxonomy: scope.taxonomy });
  if (scope.posts) {
    qb.addSelect('tr.author_id', 'author_id')
      .addSelect('tr.status', 'status')
      .addSelect('tr.date_utc', 'date_utc')
      .andWhere(`tr.status <> 'trash'`);
  }
  const row = await qb.getRawOne<MemberRow>();
  return row ? toMember(row) : null;
}

function toMember(row: MemberRow): Member {
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
function access(scope: TranslationScope, member: Member, viewer?: TranslationViewer) {
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
function readable(scope: TranslationScope, member: Member, viewer?: TranslationViewer): boolean {
  if (!scope.posts) return true;
  const { actor, record } = access(scope, member, viewer);
  return canRead(actor, record);
}

/**
 * May `viewer` edit every member of the group of `member` (the member alone when it has no
 * translations)? At most one small query: a group holds one record per language.
 */
async function mayChangeGroup(
  manager: EntityManager,
  scope: TranslationScope,
  member: Member,
  viewer?: TranslationViewer,
): Promise<boolean> {
  if (!scope.posts) return true;
  const own = access(scope, member, viewer);
  if (isEditor(own.actor)) return true;
  if (member.translationGroup === null) return canEdit(own.actor, own.record);
  const rows: MemberRow[] = await manager.query(
    `SELECT id, language, translation_group, author_id, status, date_utc FROM ${scope.table} WHERE translation_group = ?`,
    [member.translationGroup],
  );
  return rows.every((row) => {
    const { actor, record } = access(scope, toMember(row), viewer);
    return canEdit(actor, record);
  });
}

/**
 * Has the group of `member` (`member` alone when it has none) a record in `language` that
 * `viewer` may read? (Posts; for terms, any record.)
 */
async function languageTaken(
  manager: EntityManager,
  scope: TranslationScope,
  member: Translatable,
  language: Language,
  viewer?: TranslationViewer,
  exceptId = 0,
): Promise<boolean> {
  if (member.translationGroup === null) {
    return member.language === language && member.id !== exceptId;
  }
  const columns = scope.posts
    ? 'id, language, translation_group, author_id, status, date_utc'
    : 'id';
  const rows: MemberRow[] = await manager.query(
    `SELECT ${columns} FROM ${scope.table} WHERE translation_group = ? AND language = ? AND id <> ?`,
    [member.translationGroup, language, exceptId],
  );
  return rows.some((row) => readable(scope, toMember(row), viewer));
}

const notARecord = (scope: TranslationScope): Text => t(`translations.reasons.not_${scope.kind}`);

/** The reason when a group already has a member in `language` (also for a lost race). */
export const languageTakenReason = (language: Language): Text =>
  t('translations.reasons.language_taken', { language });
