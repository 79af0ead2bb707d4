import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Language } from '../config/config.js';
import type { TranslationScope } from './translations.js';

/** A trashed record as the purge reads it. */
export interface TrashedRow {
  id: number | string;
  language: Language;
  tgroup: number | string | null;
}

/**
 * The queries of the trash purge (purge-trash.ts) over the posts' own rows: what is in the trash,
 * and the deletion of records and their post ids. Inside the purge's transaction.
 */
@Injectable()
export class TrashStore {
  /** The trashed records of `scope`, trashed before `trashedBeforeUtc` when given, by id. */
  trashed(
    manager: EntityManager,
    scope: TranslationScope,
    trashedBeforeUtc: string | null,
  ): Promise<TrashedRow[]> {
    return manager.query(
      `SELECT id, language, translation_group AS tgroup FROM ${scope.table}
       WHERE status = 'trash'${trashedBeforeUtc ? ' AND modified_utc < ?' : ''} ORDER BY id`,
      trashedBeforeUtc ? [trashedBeforeUtc] : [],
    );
  }

  /** Deletes records `ids` of `scope` and their post ids (a bounded chunk of ids). */
  async delete(manager: EntityManager, scope: TranslationScope, ids: number[]): Promise<void> {
    const list = ids.map(() => '?').join(', ');
    await manager.query(`DELETE FROM ${scope.table} WHERE id IN (${list})`, ids);
    await manager.query(`DELETE FROM post_ids WHERE id IN (${list})`, ids);
  }
}
