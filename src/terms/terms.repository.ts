import { escapeLike, LIKE_ESCAPE } from '../database/like.js';
import { Caches } from '../cache/caches.js';
import { dependsOn } from '../cache/dependencies.js';
import type { TotalsCache } from '../cache/totals-cache.js';
import type { VersionedCache } from '../cache/versioned-cache.js';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Brackets, DataSource, type EntityManager } from 'typeorm';
import type { Language } from '../config/config.js';
import type { Page } from '../common/pagination/paginate.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { uniqueSlug } from '../common/text/index.js';
import { EventTermsRepository } from './event-terms.repository.js';
import { TermEntity } from './term.entity.js';
import type { TermListFilters } from './term-filters.js';
import type { TermRecord } from './term.mapper.js';
import { TermLinks } from './term-links.js';
import {
  marks,
  nameEquals,
  nameOrder,
  publishedCount,
  type RawTermRow,
  selectColumns,
  selectRecord,
  termsQuery,
  toRecord,
} from './term-sql.js';
import { TAXONOMIES } from './taxonomy.js';

/** A unique slug that no client sends, held by a term until its real slug is settled. */
export const placeholderSlug = () => `__new-${randomUUID()}`;

/**
 * The terms CRUD: lists, look-ups, inserts with unique slugs, updates and deletes; services never
 * build SQL. What events ask of terms is in EventTermsRepository, the look-ups of a write's
 * items in TermRefsRepository. The events module owns `event_terms` (the links) and gives the
 * SQL over them (TermLinks) for a list's counts and filter and to drop the links of a deleted
 * term.
 */
@Injectable()
export class TermsRepository {
  /** List totals, until the next write (any term or event write can change them). */
  private readonly totals: TotalsCache;
  /**
   * The ids of list pages not sorted by count, by filters and page, kept as the totals are (until
   * a write changes what the list depends on, one second at most): with the payloads and the
   * total cached, a computed term list reads nothing (the terms lists' target is the single
   * records', not the event lists').
   */
  private readonly pages: VersionedCache<Array<{ id: number }>>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly eventTerms: EventTermsRepository,
    private readonly links: TermLinks,
    caches: Caches,
  ) {
    this.totals = caches.totals('term_totals');
    this.pages = caches.pageRows('term_pages', 20_000);
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The term `id` if it belongs to `wpTaxonomy` (any language), else null. */
  async find(
    wpTaxonomy: string,
    id: number,
    manager: EntityManager = this.manager,
  ): Promise<TermEntity | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    return manager.getRepository(TermEntity).findOne({ where: { id, taxonomy: wpTaxonomy } });
  }

  /** Terms with their counts, in the order of `ids` (missing ids are left out). */
  async records(ids: number[], nowUtc: string): Promise<TermRecord[]> {
    if (!ids.length) return [];
    const rows = await selectColumns(termsQuery(this.manager))
      .where('t.id IN (:...ids)', { ids })
      .getRawMany<RawTermRow>();
    const counts = await this.eventTerms.countsOf(
      rows.map((r) => Number(r.id)),
      nowUtc,
    );
    const byId = new Map(
      rows.map((r) => [Number(r.id), toRecord({ ...r, count: counts.get(Number(r.id)) })]),
    );
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * One page of a term list and the total over all pages (BEHAVIOR §5.4): the total (cached),
   * the page's ids, the page's terms with their counts.
   */
  async list(
    filters: TermListFilters,
    page: Page,
    nowUtc: string,
  ): Promise<{ ids: number[]; rows?: TermRecord[]; total: number }> {
    const qb = termsQuery(this.manager)
      .where('t.taxonomy = :taxonomy', { taxonomy: TAXONOMIES[filters.taxonomy].wpName })
      .andWhere('t.language = :language', { language: filters.language })
      .setParameter('now', nowUtc);
    if (filters.search !== undefined) {
      qb.andWhere(
        new Brackets((w) =>
          w
            .where(`LOWER(t.name) LIKE LOWER(:search) ${LIKE_ESCAPE}`)
            .orWhere(`LOWER(t.slug) LIKE LOWER(:search) ${LIKE_ESCAPE}`),
        ),
        { search: `%${escapeLike(filters.search)}%` },
      );
    }
    if (filters.include) {
      if (filters.include.length)
        qb.andWhere('t.id IN (:...include)', { include: filters.include });
      else qb.andWhere('1 = 0');
    }
    if (filters.exclude?.length) {
      qb.andWhere('t.id NOT IN (:...exclude)', { exclude: filters.exclude });
    }
    if (filters.parent !== undefined) qb.andWhere('t.parent = :parent', { parent: filters.parent });
    if (filters.slug !== undefined) qb.andWhere('t.slug = :slug', { slug: filters.slug });
    if (filters.eventId !== undefined) {
      qb.andWhere(this.links.sql.ofEvent('eventId'), { eventId: filters.eventId });
    }
    if (filters.hideEmpty) qb.andWhere(this.links.sql.hasPublished());

    // What a term list depends on (docs/caches.md): the terms, their counts (shown, sorted by,
    // `hide_empty`), and an event's links when it asks for one event's terms.
    const tags = ['terms', 'term-counts'];
    if (filters.eventId !== undefined) tags.push('events');
    dependsOn(tags);
    const total = await this.totals.get(JSON.stringify(filters), () => qb.clone().getCount(), tags);
    if (total <= page.offset) return { ids: [], total };
    const byCount = filters.sort.key === 'count';
    const pageKey = `${JSON.stringify(filters)} #${page.offset}+${page.perPage}`;
    const kept = byCount ? undefined : this.pages.get(pageKey);
    if (kept) return { ids: kept.map((row) => row.id), total };
    const version = this.pages.version();
    const direction = filters.descending ? 'DESC' : 'ASC';
    // Sorted by anything but the count, the page's ids are found without counting (the caller
    // reads the records it needs, records()); sorted by count, every candidate is counted, and
    // the page's records come with its ids.
    const listQuery = byCount ? selectRecord(qb, nowUtc, this.links.sql) : qb.select('t.id', 'id');
    switch (filters.sort.key) {
      case 'none':
        break;
      case 'id':
        listQuery.orderBy('t.id', direction);
        break;
      case 'name':
        listQuery.orderBy(nameOrder(this.dataSource), direction);
        break;
      case 'count':
        listQuery.orderBy(publishedCount(this.links.sql), direction);
        break;
      case 'include':
        // Position in the include list (WordPress `FIELD(t.term_id, …)`); ids are validated integers.
        listQuery.orderBy(
          `CASE t.id ${(filters.include ?? []).map((id, i) => `WHEN ${Math.trunc(id)} THEN ${i}`).join(' ')} ELSE ${filters.include?.length ?? 0} END`,
          direction,
        );
        break;
      default:
        listQuery.orderBy(`t.${filters.sort.key}`, direction);
    }
    // Ties are broken by id ascending (BEHAVIOR §5.4).
    if (filters.sort.key !== 'id') listQuery.addOrderBy('t.id', 'ASC');
    const rows = await listQuery.offset(page.offset).limit(page.perPage).getRawMany<RawTermRow>();
    const ids = rows.map((r) => Number(r.id));
    if (byCount) return { ids, rows: rows.map(toRecord), total };
    this.pages.set(
      pageKey,
      version,
      ids.map((id) => ({ id })),
      Date.now(),
      tags,
    );
    return { ids, total };
  }

  /** Terms of the taxonomy and language whose name equals `name` ignoring case (and parent). */
  async sameName(
    manager: EntityManager,
    wpTaxonomy: string,
    language: Language,
    name: string,
    parent: number,
  ): Promise<TermEntity[]> {
    return termsQuery(manager)
      .where('t.taxonomy = :taxonomy', { taxonomy: wpTaxonomy })
      .andWhere('t.language = :language', { language })
      .andWhere('t.parent = :parent', { parent })
      .andWhere(nameEquals(this.dataSource, 'name'), { name })
      .orderBy('t.id', 'ASC')
      .getMany();
  }

  async findBySlug(
    manager: EntityManager,
    wpTaxonomy: string,
    language: Language,
    slug: string,
  ): Promise<TermEntity | null> {
    return manager
      .getRepository(TermEntity)
      .findOne({ where: { taxonomy: wpTaxonomy, language, slug } });
  }

  /** `ids` and all their ancestors as `id → { parent, slug }`, in one recursive query. */
  async chains(
    ids: number[],
    manager: EntityManager = this.manager,
  ): Promise<Map<number, { parent: number; slug: string }>> {
    const start = [...new Set(ids.filter((id) => id > 0))];
    if (!start.length) return new Map();
    const rows: Array<{ id: number | string; parent: number | string; slug: string }> =
      await manager.query(
        `WITH RECURSIVE chain (id, parent, slug) AS (
           SELECT id, parent, slug FROM terms WHERE id IN (${marks(start.length)})
           UNION
           SELECT t.id, t.parent, t.slug FROM terms t INNER JOIN chain c ON t.id = c.parent
         )
         SELECT id, parent, slug FROM chain`,
        start,
      );
    return new Map(rows.map((r) => [Number(r.id), { parent: Number(r.parent), slug: r.slug }]));
  }

  /**
   * Inserts a term and gives it the slug `base`, or `base-2`, `base-3`, … when taken in its
   * taxonomy and language (WordPress `wp_unique_term_slug`); an empty base becomes the term id,
   * as `wp_insert_term` does. Safe under concurrent writers: the unique index decides.
   */
  async insert(
    manager: EntityManager,
    values: Omit<TermEntity, 'id' | 'slug' | 'translationGroup'>,
    base: string,
  ): Promise<TermEntity> {
    // A placeholder slug first, so that an empty base can become the id.
    const result = await manager.insert(TermEntity, {
      ...values,
      slug: placeholderSlug(),
      translationGroup: null,
    });
    const id = Number(result.identifiers[0]?.id);
    if (!id) throw new Error('could not insert the term');
    const slug = await this.assignUniqueSlug(manager, { ...values, id }, base);
    return { ...values, id, slug, translationGroup: null };
  }

  /** Writes the first free slug of `base`, `base-2`, … (or the id when `base` is empty). */
  async assignUniqueSlug(
    manager: EntityManager,
    term: Pick<TermEntity, 'id' | 'taxonomy' | 'language'>,
    rawBase: string,
  ): Promise<string> {
    const base = rawBase || String(term.id);
    const lost = new Set<string>();
    for (let attempt = 0; attempt < 50; attempt++) {
      const taken = new Set(
        (
          await termsQuery(manager)
            .select('t.slug', 'slug')
            .where('t.taxonomy = :taxonomy', { taxonomy: term.taxonomy })
            .andWhere('t.language = :language', { language: term.language })
            .andWhere(`(t.slug = :base OR t.slug LIKE :pattern ${LIKE_ESCAPE})`, {
              base,
              pattern: `${escapeLike(base)}-%`,
            })
            .andWhere('t.id <> :id', { id: term.id })
            .getRawMany<{ slug: string }>()
        ).map((r) => r.slug),
      );
      lost.forEach((s) => taken.add(s));
      const candidate = uniqueSlug(base, taken);
      try {
        await manager.update(TermEntity, { id: term.id }, { slug: candidate });
        return candidate;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        lost.add(candidate);
      }
    }
    throw new Error(`could not find a free slug for "${base}"`);
  }

  async update(
    manager: EntityManager,
    id: number,
    patch: Partial<Pick<TermEntity, 'name' | 'slug' | 'description' | 'parent' | 'language'>>,
  ): Promise<void> {
    if (Object.keys(patch).length) await manager.update(TermEntity, { id }, patch);
    // A term counts the events of its own language.
    if (patch.language !== undefined) await this.eventTerms.recountPublished(manager, [id]);
  }

  /**
   * Deletes a term for good: unlinks it from every event and moves its child categories up to
   * its parent (WordPress `wp_delete_term`). Runs inside the caller's transaction.
   */
  async delete(manager: EntityManager, term: TermEntity): Promise<void> {
    await this.links.sql.unlink(manager, term.id);
    await manager.update(
      TermEntity,
      { parent: term.id, taxonomy: term.taxonomy },
      { parent: term.parent },
    );
    await manager.delete(TermEntity, { id: term.id });
  }
}
