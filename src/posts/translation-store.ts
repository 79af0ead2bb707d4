import type { Translations } from '../common/payload/tec-payload.js';
import { addTo } from '../common/multimap.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { canEdit, isEditor } from '../auth/post-policy.js';
import { dependsOn, groupTag, recordTag, touch } from '../cache/dependencies.js';
import { LANGUAGES, type Language } from '../config/config.js';
import { invalidParam, type Text } from '../common/errors/api-error.js';
import { ANY_STATUSES } from './post-status.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import {
  access,
  languageTakenReason,
  notARecord,
  readable,
  toMember,
  translationsForbidden,
  type Member,
  type MemberRow,
  type Translatable,
  type TranslationScope,
  type TranslationViewer,
} from './translations.js';
import { applyPostVisibility } from './visibility.js';

/**
 * The translation groups in the database (see translations.ts for the rules): reads for pages
 * and validation, and the joins and departures that run inside the caller's write transaction.
 */
@Injectable()
export class TranslationStore {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The translations of each record of a page, in one query whatever the page size (none when no
   * record has translations). Each map holds the record itself and, for posts, the translations
   * `viewer` may read by id (a public page does not link to a draft), in the order en, hu, ro.
   */
  async load(
    scope: TranslationScope,
    records: Translatable[],
    viewer?: TranslationViewer,
  ): Promise<Map<number, Translations>> {
    const manager = this.ds.manager;
    const groups = [
      ...new Set(records.map((r) => r.translationGroup).filter((g): g is number => g !== null)),
    ];
    const members = new Map<number, Array<{ id: number; language: Language }>>();
    if (groups.length) {
      // Which members a reader sees changes with any write of a member (docs/caches.md).
      dependsOn([groupTag(scope.kind), ...groups.map((g) => groupTag(scope.kind, g))]);
      const qb = memberQuery(manager, scope).where('tr.translation_group IN (:...groups)', {
        groups,
      });
      if (scope.posts && viewer) {
        applyPostVisibility(qb, 'tr', viewer.actor, [...ANY_STATUSES], viewer.nowUtc);
      }
      for (const row of await qb.getRawMany<MemberRow>()) {
        addTo(members, Number(row.translation_group), {
          id: Number(row.id),
          language: row.language,
        });
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
  async translationOfProblem(
    scope: TranslationScope,
    targetId: number,
    language: Language,
    viewer: TranslationViewer | undefined,
    manager: EntityManager = this.ds.manager,
  ): Promise<Text | null> {
    const target = await this.findMember(manager, scope, targetId);
    if (!target || !readable(scope, target, viewer)) return notARecord(scope);
    // The target itself counts: a record cannot translate one of its own language.
    if (await this.languageTaken(manager, scope, target, language, viewer)) {
      return languageTakenReason(language);
    }
    return null;
  }

  /**
   * Why `record` cannot move to `language`, or null when it can: no other member of its group may
   * be in that language already (of those `viewer` may read). Read-only, like
   * translationOfProblem; assertMayMoveLanguage is the permission half.
   */
  async languageChangeProblem(
    scope: TranslationScope,
    record: Member,
    language: Language,
    viewer: TranslationViewer | undefined,
    manager: EntityManager = this.ds.manager,
  ): Promise<Text | null> {
    if (language === record.language || record.translationGroup === null) return null;
    return (await this.languageTaken(manager, scope, record, language, viewer, record.id))
      ? languageTakenReason(language)
      : null;
  }

  /**
   * The permission half of a language change (after the caller's right to edit `record` itself):
   * a record with translations moves to `language` (when one is asked) only when `viewer` may
   * edit every one of them, else 403 (posts/language-move.ts).
   */
  async assertMayMoveLanguage(
    scope: TranslationScope,
    record: Member,
    language: Language | undefined,
    viewer?: TranslationViewer,
  ): Promise<void> {
    if (language === undefined) return;
    if (language === record.language || record.translationGroup === null) return;
    if (!(await this.mayChangeGroup(this.ds.manager, scope, record, viewer))) {
      throw translationsForbidden();
    }
  }

  /**
   * Puts the new record `recordId` (in `language`) into the group of `targetId`, inside the
   * caller's transaction. Re-checks what validation checked, since another writer may have come
   * in between: a lost race is the same 400 on `translation_of`, never a 500. Here the caller's
   * right to change the group is enforced (403), for every path that creates a translation
   * (a resource's own create and records created inline by an event write). Answers the group
   * id the record now has.
   */
  async join(
    manager: EntityManager,
    scope: TranslationScope,
    recordId: number,
    targetId: number,
    language: Language,
    viewer?: TranslationViewer,
  ): Promise<number> {
    const table = scope.table;
    // The target (perhaps alone until now) and its group show the new member.
    touch(recordTag(scope.kind, targetId));
    // Writing the target's row first locks it (MySQL/MariaDB; SQLite runs one writer at a time),
    // so that joins and departures of one group never interleave. A target without translations
    // becomes the first member: its id is the group id.
    await manager.query(
      `UPDATE ${table} SET translation_group = COALESCE(translation_group, id) WHERE id = ?`,
      [targetId],
    );
    const target = await this.findMember(manager, scope, targetId);
    if (!target || target.translationGroup === null || !readable(scope, target, viewer)) {
      throw invalidParam('translation_of', notARecord(scope));
    }
    if (!(await this.mayChangeGroup(manager, scope, target, viewer))) throw translationsForbidden();
    touch(groupTag(scope.kind, target.translationGroup));
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
    return target.translationGroup;
  }

  /**
   * Takes `record` out of its group (trash, delete), inside the caller's transaction; the other
   * members stay linked to each other. When the record's id was the group id, the group takes the
   * id of its smallest remaining member; a member left alone has no translations any more.
   */
  async leave(
    manager: EntityManager,
    scope: TranslationScope,
    record: Translatable,
  ): Promise<void> {
    const group = record.translationGroup;
    if (group === null) return;
    const table = scope.table;
    touch(groupTag(scope.kind, group));
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
    // Their rows change too when the group is renamed or dissolved.
    touch(...rest.map((row) => recordTag(scope.kind, Number(row.id))));
    if (rest.length === 1) {
      await manager.query(`UPDATE ${table} SET translation_group = NULL WHERE id = ?`, [
        rest[0].id,
      ]);
    } else if (rest.length > 1 && group === record.id) {
      // Renamed: its readers from now on depend on the new name.
      touch(groupTag(scope.kind, Number(rest[0].id)));
      await manager.query(`UPDATE ${table} SET translation_group = ? WHERE translation_group = ?`, [
        Number(rest[0].id),
        group,
      ]);
    }
  }

  /** A record of the scope's kind that may be translated (posts: not trashed). */
  private async findMember(
    manager: EntityManager,
    scope: TranslationScope,
    id: number,
  ): Promise<Member | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const qb = memberQuery(manager, scope).where('tr.id = :id', { id });
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

  /**
   * May `viewer` edit every member of the group of `member` (the member alone when it has no
   * translations)? At most one small query: a group holds one record per language.
   */
  private async mayChangeGroup(
    manager: EntityManager,
    scope: TranslationScope,
    member: Member,
    viewer?: TranslationViewer,
  ): Promise<boolean> {
    if (!scope.posts) return true;
    // One rule for every member: 'all' for an editor (no query), else whether this one is editable.
    const editable = (each: Member): boolean | 'all' => {
      const { actor, record } = access(scope, each, viewer);
      return isEditor(actor) ? 'all' : canEdit(actor, record);
    };
    const own = editable(member);
    if (own !== true || member.translationGroup === null) return own !== false;
    const rows: MemberRow[] = await manager.query(
      `SELECT id, language, translation_group, author_id, status, date_utc FROM ${scope.table} WHERE translation_group = ?`,
      [member.translationGroup],
    );
    return rows.every((row) => editable(toMember(row)) === true);
  }

  /**
   * Has the group of `member` (`member` alone when it has none) a record in `language` that
   * `viewer` may read? (Posts; for terms, any record.)
   */
  private async languageTaken(
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
}

/** Id, language and group of the records of the scope's table (alias `tr`). */
function memberQuery(manager: EntityManager, scope: TranslationScope) {
  return manager
    .createQueryBuilder()
    .select('tr.id', 'id')
    .addSelect('tr.language', 'language')
    .addSelect('tr.translation_group', 'translation_group')
    .from(scope.table, 'tr');
}
