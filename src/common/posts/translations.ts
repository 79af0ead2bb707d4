import type { EntityManager } from 'typeorm';
import type { Actor } from '../../auth/actor.js';
import { LANGUAGES, type Language } from '../../config/config.js';
import { invalidParam, t, type Text } from '../errors/api-error.js';
import { ANY_STATUSES } from './post-status.js';
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

/** Who looks at the translations: posts they may not read by id are left out of the map. */
export interface TranslationViewer {
  actor: Actor;
  nowUtc: string;
}

interface MemberRow {
  id: number | string;
  language: Language;
  translation_group: number | string | null;
  status?: string;
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
 * the target must be a record of the same kind (not trashed), and its group must have no member
 * in `language` yet. Read-only: services call it while validating, before any permission check.
 */
export async function translationOfProblem(
  manager: EntityManager,
  scope: TranslationScope,
  targetId: number,
  language: Language,
): Promise<Text | null> {
  const target = await findMember(manager, scope, targetId);
  if (!target) return notARecord(scope);
  // The target itself counts: a record cannot translate one of its own language.
  if (await languageTaken(manager, scope, target, language)) return languageTakenReason(language);
  return null;
}

/**
 * Why `record` cannot move to `language`, or null when it can: no other member of its group may
 * be in that language already. Read-only, like translationOfProblem.
 */
export async function languageChangeProblem(
  manager: EntityManager,
  scope: TranslationScope,
  record: Translatable,
  language: Language,
): Promise<Text | null> {
  if (language === record.language || record.translationGroup === null) return null;
  return (await languageTaken(manager, scope, record, language, record.id))
    ? languageTakenReason(language)
    : null;
}

/**
 * Puts the new record `recordId` (in `language`) into the group of `targetId`, inside the
 * caller's transaction. Re-checks what validation checked, since another writer may have come
 * in between: a lost race is the same 400 on `translation_of`, never a 500.
 */
export async function joinTranslations(
  manager: EntityManager,
  scope: TranslationScope,
  recordId: number,
  targetId: number,
  language: Language,
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
  if (!target || target.translationGroup === null) {
    throw invalidParam('translation_of', notARecord(scope));
  }
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
): Promise<Translatable | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const qb = manager
    .createQueryBuilder()
    .select('tr.id', 'id')
    .addSelect('tr.language', 'language')
    .addSelect('tr.translation_group', 'translation_group')
    .from(scope.table, 'tr')
    .where('tr.id = :id', { id });
  if (scope.taxonomy) qb.andWhere('tr.taxonomy = :taxonomy', { taxonomy: scope.taxonomy });
  if (scope.posts) qb.andWhere(`tr.status <> 'trash'`);
  const row = await qb.getRawOne<MemberRow>();
  if (!row) return null;
  return {
    id: Number(row.id),
    language: row.language,
    translationGroup: row.translation_group === null ? null : Number(row.translation_group),
  };
}

/** Has the group of `member` (`member` alone when it has none) a record in `language`? */
async function languageTaken(
  manager: EntityManager,
  scope: TranslationScope,
  member: Translatable,
  language: Language,
  exceptId = 0,
): Promise<boolean> {
  if (member.translationGroup === null) {
    return member.language === language && member.id !== exceptId;
  }
  const rows: unknown[] = await manager.query(
    `SELECT id FROM ${scope.table} WHERE translation_group = ? AND language = ? AND id <> ?`,
    [member.translationGroup, language, exceptId],
  );
  return rows.length > 0;
}

const notARecord = (scope: TranslationScope): Text => t(`translations.reasons.not_${scope.kind}`);

/** The reason when a group already has a member in `language` (also for a lost race). */
export const languageTakenReason = (language: Language): Text =>
  t('translations.reasons.language_taken', { language });
