import { caseFolded } from '../database/like.js';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { Language } from '../config/config.js';
import { TermEntity } from './term.entity.js';
import type { TermRecord } from './term.mapper.js';
import {
  marks,
  nameEquals,
  nameOrder,
  publishedCount,
  RECORD_SELECT,
  type RawTermRow,
  selectColumns,
  selectRecord,
  termsQuery,
  toRecord,
} from './term-sql.js';
import { TermLinks } from './term-links.js';

/** What an item list names: ids (any language), sanitized slugs and names (one language). */
export interface TermRefs {
  ids: number[];
  slugs: string[];
  names: string[];
}

type RefLists = Array<{ wpTaxonomy: string; refs: TermRefs }>;

/**
 * The look-ups of the terms an event write or a list filter names by id, slug or name: apart
 * from the terms CRUD because they answer many taxonomies in one statement, shaped for the
 * indexes a write's items hit, and are tuned for the create path.
 */
@Injectable()
export class TermRefsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly links: TermLinks,
  ) {}

  /**
   * Terms of `wpTaxonomy` that an item list may name: ids (any language), and slugs (already
   * sanitized) or names (case-insensitive, as stored) in `language`. One query.
   */
  findRefs(
    wpTaxonomy: string,
    refs: TermRefs,
    language: Language,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TermEntity[]> {
    return this.findRefsOfTaxonomies([{ wpTaxonomy, refs }], language, manager);
  }

  /**
   * `findRefs` of several taxonomies at once (each term says its own): one statement, a UNION ALL
   * of one branch per taxonomy and kind of reference (ids; slugs; each name), so that every
   * branch is an index look-up (PRIMARY, IDX_terms_slug, IDX_terms_name). As one WHERE of ORs,
   * MySQL/MariaDB read every term of the taxonomies instead: a cost that grew with the site.
   */
  async findRefsOfTaxonomies(
    lists: RefLists,
    language: Language,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TermEntity[]> {
    const query = this.refsQuery(lists, language, manager, (qb) => selectColumns(qb));
    if (!query) return [];
    // Callers expect the order of ids.
    return this.uniqueRecords(await manager.query(...query))
      .map((record) => {
        const { count, ...columns } = record;
        void count;
        return Object.assign(new TermEntity(), columns);
      })
      .sort((a, b) => a.id - b.id);
  }

  /**
   * `findRefsOfTaxonomies` as records with their counts at `nowUtc`, in the order an event
   * embeds its terms (by name, case-insensitively, then by id), still one statement: what a
   * write that links the terms it finds can answer without reading them back.
   */
  async findRefRecords(
    lists: RefLists,
    language: Language,
    manager: EntityManager,
    nowUtc: string,
  ): Promise<TermRecord[]> {
    const bySlug = await this.slugRecords(lists, language, manager, nowUtc);
    if (bySlug) return bySlug;
    const query = this.refsQuery(lists, language, manager, (qb) =>
      selectRecord(qb, nowUtc, this.links.sql),
    );
    if (!query) return [];
    const [union, params] = query;
    const sql = `SELECT * FROM (${union}) refs ORDER BY ${caseFolded(this.dataSource, 'refs.name')}, refs.id`;
    return this.uniqueRecords(await manager.query(sql, params));
  }

  /**
   * findRefRecords when every item names an existing term by its slug, which then wins over any
   * name match (items are matched by slug first): one range read of IDX_terms_slug instead of
   * the UNION, whose temporary table costs the database three times as much; plain SQL, as
   * every create with terms asks it. Null when the lists name ids, or an item has no slug or
   * names no term by it: the caller asks the UNION.
   */
  private async slugRecords(
    lists: RefLists,
    language: Language,
    manager: EntityManager,
    nowUtc: string,
  ): Promise<TermRecord[] | null> {
    const wanted = lists.filter(({ refs }) => refs.slugs.length);
    if (
      !wanted.length ||
      wanted.some(({ refs }) => refs.ids.length || refs.slugs.some((slug) => !slug))
    ) {
      return null;
    }
    const sql =
      `SELECT ${RECORD_SELECT}, ${publishedCount(this.links.sql, '?')} AS count` +
      ' FROM terms t WHERE t.language = ? AND (' +
      wanted
        .map(({ refs }) => `(t.taxonomy = ? AND t.slug IN (${marks(refs.slugs.length)}))`)
        .join(' OR ') +
      `) ORDER BY ${nameOrder(this.dataSource)}, t.id`;
    const params = [
      nowUtc,
      language,
      ...wanted.flatMap(({ wpTaxonomy, refs }) => [wpTaxonomy, ...refs.slugs]),
    ];
    const rows: RawTermRow[] = await manager.query(sql, params);
    const records = rows.map(toRecord);
    const found = new Set(records.map((r) => `${r.taxonomy}\u0000${r.slug}`));
    const all = wanted.every(({ wpTaxonomy, refs }) =>
      refs.slugs.every((slug) => found.has(`${wpTaxonomy}\u0000${slug}`)),
    );
    return all ? records : null;
  }

  /**
   * The SQL of findRefsOfTaxonomies: a UNION ALL of one branch per taxonomy and kind of
   * reference, each selecting `select`'s columns; null when the lists name nothing.
   */
  private refsQuery(
    lists: RefLists,
    language: Language,
    manager: EntityManager,
    select: (qb: SelectQueryBuilder<TermEntity>) => SelectQueryBuilder<TermEntity>,
  ): [string, unknown[]] | null {
    const branches: Array<[string, unknown[]]> = [];
    const branch = (
      where: (qb: SelectQueryBuilder<TermEntity>) => SelectQueryBuilder<TermEntity>,
    ) => branches.push(where(select(termsQuery(manager))).getQueryAndParameters());
    for (const { wpTaxonomy, refs } of lists) {
      const ids = refs.ids.filter((id) => Number.isSafeInteger(id) && id > 0);
      const slugs = refs.slugs.filter(Boolean);
      const names = refs.names.filter(Boolean);
      const ofTaxonomy = (qb: SelectQueryBuilder<TermEntity>) =>
        qb.where('t.taxonomy = :taxonomy', { taxonomy: wpTaxonomy });
      const inLanguage = (qb: SelectQueryBuilder<TermEntity>) =>
        ofTaxonomy(qb).andWhere('t.language = :language', { language });
      if (ids.length) branch((qb) => ofTaxonomy(qb).andWhere('t.id IN (:...ids)', { ids }));
      if (slugs.length) {
        branch((qb) => inLanguage(qb).andWhere('t.slug IN (:...slugs)', { slugs }));
      }
      for (const name of names) {
        branch((qb) => inLanguage(qb).andWhere(nameEquals(this.dataSource, 'name'), { name }));
      }
    }
    if (!branches.length) return null;
    return [
      branches.map(([sql]) => sql).join(' UNION ALL '),
      branches.flatMap(([, params]) => params),
    ];
  }

  /** Rows as records, in their order; a term found by two references comes once. */
  private uniqueRecords(rows: RawTermRow[]): TermRecord[] {
    const byId = new Map<number, TermRecord>();
    for (const row of rows) if (!byId.has(Number(row.id))) byId.set(Number(row.id), toRecord(row));
    return [...byId.values()];
  }
}
