import { Caches } from '../cache/caches.js';
import { dependsOn, recordTag } from '../cache/dependencies.js';
import type { TotalsCache } from '../cache/totals-cache.js';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { later } from '../database/statement-batch.js';
import { TAXONOMIES } from './taxonomy.js';
import type { TermRecord } from './term.mapper.js';
import { TermLinks } from './term-links.js';
import {
  marks,
  nameOrder,
  publishedCount,
  type RawTermRow,
  selectColumns,
  selectRecord,
  termsQuery,
  toRecord,
  touchCounts,
} from './term-sql.js';

/**
 * What events ask of terms: the terms an event embeds with their published-event counts, the
 * counters an event write moves, and the category subtrees a list filter spans. Apart from the
 * terms CRUD because these run on every events page and write, and own the counts' cache.
 */
@Injectable()
export class EventTermsRepository {
  /** Published-event counts by term (countsOf). */
  private readonly counts: TotalsCache;

  constructor(
    private readonly dataSource: DataSource,
    private readonly links: TermLinks,
    caches: Caches,
  ) {
    this.counts = caches.totals('term_counts', 20_000);
  }

  /**
   * Published-event counts of terms, cached like list totals (until the next committed write,
   * one second at most): counting is an index range scan per term, 1,000 entries for a
   * category of a large calendar, and every page of events embeds a few dozen terms. One query
   * for the terms not in the cache, none when all are.
   */
  async countsOf(ids: number[], nowUtc: string): Promise<Map<number, number>> {
    const counts = await this.counts.getMany(
      ids.map(String),
      async (missing) => {
        const rows = await termsQuery(this.dataSource.manager)
          .select('t.id', 'id')
          .addSelect(publishedCount(this.links.sql), 'count')
          .where('t.id IN (:...missing)', { missing: missing.map(Number) })
          .setParameter('now', nowUtc)
          .getRawMany<{ id: number | string; count: number | string }>();
        return new Map(rows.map((row) => [String(row.id), Number(row.count)]));
      },
      (id) => [recordTag('term', Number(id))],
    );
    return new Map([...counts].map(([id, count]) => [Number(id), count]));
  }

  /**
   * The terms of each event with their counts, ordered by name: one query, and one more for
   * the counts not cached (countsOf). `countHere` counts in the same query instead (a write's
   * answer: nothing is cached after a write, and each term is shown once).
   */
  async termsOfEvents(
    eventIds: number[],
    nowUtc: string,
    opts: { countHere?: boolean } = {},
  ): Promise<Array<{ eventId: number; term: TermRecord }>> {
    if (!eventIds.length) return [];
    const terms = termsQuery(this.dataSource.manager);
    const columns = opts.countHere
      ? selectRecord(terms, nowUtc, this.links.sql)
      : selectColumns(terms);
    const rows = await this.links.sql
      .joinEvents(columns, eventIds)
      .orderBy(nameOrder(this.dataSource), 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getRawMany<RawTermRow & { event_id: number | string }>();
    // An event shows its terms as they are: their names, counts and ancestors' slugs (its links
    // are its own; docs/caches.md).
    dependsOn(['term-shape', ...rows.map((r) => recordTag('term', Number(r.id)))]);
    const counts = opts.countHere
      ? undefined
      : await this.countsOf(
          rows.map((r) => Number(r.id)),
          nowUtc,
        );
    return rows.map((r) => ({
      eventId: Number(r.event_id),
      term: toRecord(counts ? { ...r, count: counts.get(Number(r.id)) } : r),
    }));
  }

  /**
   * Counts one more published event for each of `termIds` of `language` (a new event's links,
   * written with status `publish`), in the caller's transaction. Ids in ascending order: the
   * row locks of concurrent writers are taken in one order.
   */
  async addPublished(manager: EntityManager, termIds: number[], language: string): Promise<void> {
    const ids = [...new Set(termIds)].sort((a, b) => a - b);
    if (!ids.length) return;
    touchCounts(ids);
    // Plain SQL: the entity never writes the counter (`update: false`), so no builder of it can.
    // Nothing reads its answer: it goes with the transaction's next statement.
    await later(
      manager,
      `UPDATE terms SET published_count = published_count + 1 WHERE id IN (${marks(ids.length)}) AND language = ?`,
      [...ids, language],
    );
  }

  /**
   * Counts the published events of `termIds` again from their links (after links or the state
   * they copy changed other than by a create), in the caller's transaction.
   */
  async recountPublished(manager: EntityManager, termIds: number[]): Promise<void> {
    const ids = [...new Set(termIds)].sort((a, b) => a - b);
    if (!ids.length) return;
    touchCounts(ids);
    await later(
      manager,
      `UPDATE terms AS t SET published_count = ${this.links.sql.publishedCount()}
       WHERE t.id IN (${marks(ids.length)})`,
      ids,
    );
  }

  /**
   * Every category below `ids` (and `ids` themselves), whatever the depth, in one recursive
   * query; UNION (not UNION ALL) stops on a cycle.
   */
  async withDescendants(
    ids: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number[]> {
    if (!ids.length) return [];
    const rows: Array<{ id: number | string }> = await manager.query(
      `WITH RECURSIVE tree (id) AS (
         SELECT id FROM terms WHERE id IN (${marks(ids.length)})
         UNION
         SELECT c.id FROM terms c INNER JOIN tree p ON c.parent = p.id WHERE c.taxonomy = ?
       )
       SELECT id FROM tree`,
      [...ids, TAXONOMIES.category.wpName],
    );
    return rows.map((r) => Number(r.id));
  }
}
