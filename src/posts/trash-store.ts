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
  /**
   * The trashed records of `scope`, trashed before `trashedBeforeUtc` when given, or those of
   * `ids` (a bounded list) when given, by id.
   */
  trashed(
    manager: EntityManager,
    scope: TranslationScope,
    trashedBeforeUtc: string | null,
    ids?: readonly number[],
  ): Promise<TrashedRow[]> {
    const where = [`status = 'trash'`];
    const values: unknown[] = [];
    if (trashedBeforeUtc) {
      where.push('modified_utc < ?');
      values.push(trashedBeforeUtc);
    }
    if (ids) {
      where.push(ids.length ? `id IN (${ids.map(() => '?').join(', ')})` : '1 = 0');
      values.push(...ids);
    }
    return manager.query(
      `SELECT id, language, translation_group AS tgroup FROM ${scope.table}
       WHERE ${where.join(' AND ')} ORDER BY id`,
      values,
    );
  }

  /** Deletes records `ids` of `scope` and their post ids (a bounded chunk of ids). */
  async delete(manager: EntityManager, scope: TranslationScope, ids: number[]): Promise<void> {
    const list = ids.map(() => '?').join(', ');
    await manager.query(`DELETE FROM ${scope.table} WHERE id IN (${list})`, ids);
    await manager.query(`DELETE FROM post_ids WHERE id IN (${list})`, ids);
  }
}
