import { caseFolded, equalsIgnoringCase, escapeLike, LIKE_ESCAPE } from '../database/like.js';
import { Caches } from '../cache/caches.js';
import { dependsOn, recordTag, touch } from '../cache/dependencies.js';
import type { TotalsCache } from '../cache/totals-cache.js';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Brackets, DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { Language } from '../config/config.js';
import type { Page } from '../common/pagination/paginate.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { uniqueSlug } from '../common/text/index.js';
import { TermEntity } from './term.entity.js';
import type { TermListFilters } from './term-filters.js';
import type { TermRecord } from './term.mapper.js';
import { TAXONOMIES } from './taxonomy.js';

/**
 * SQL over the links of the term of alias `t` to events of its own language whose copied state
 * matches `state`: WordPress term counts include only `publish` posts, and a `future` event
 * whose date has passed counts as published (CONTRACT §6), without a write on read. `:now` is
 * bound by the caller.
 *
 * Counts are per language (CONTRACT §5): a term counts only the events of its own language.
 * Events may carry terms of another language by id, but a Hungarian page listing categories
 * should not count English events, and a count that followed the request language instead
 * would give one term different counts through different prefixes. The event's language is
 * copied onto the link (`event_language`), so the count stays an index-only range scan of
 * IDX_event_terms_count (term_id, event_language, event_status, event_date_utc).
 */
const linksOfTerm = (select: string, state: string, tail = '') =>
  `(SELECT ${select} FROM event_terms cnt_et WHERE cnt_et.term_id = t.id` +
  ` AND cnt_et.event_language = t.language AND (${state})${tail})`;
const PUBLISHED = `cnt_et.event_status = 'publish'`;
/** `now`: the bound parameter of the present time, `:now` in query builders, `?` in plain SQL. */
const dueScheduled = (now = ':now') =>
  `cnt_et.event_status = 'future'` +
  ` AND cnt_et.event_date_utc IS NOT NULL AND cnt_et.event_date_utc <= ${now}`;
const DUE_SCHEDULED = dueScheduled();
/**
 * The `publish` links are counted as they are written (`terms.published_count`, see
 * addPublished and recountPublished); only the scheduled events whose date has passed are
 * counted here, a range of the few `future` links in IDX_event_terms_count.
 */
const publishedCount = (now?: string) =>
  `(t.published_count + ${linksOfTerm('COUNT(*)', dueScheduled(now))})`;
/**
 * `hide_empty`: stops at the first published event instead of counting them all. Written as a
 * scalar subquery with LIMIT 1 rather than EXISTS: MariaDB turns EXISTS into a semi-join that
 * materializes the whole event_terms index (110 ms for 1,000 tags and 350,000 links, against
 * 0.5 ms for this form, probed only for the rows a page needs).
 */
const hasPublished = () =>
  `${linksOfTerm('1', `${PUBLISHED} OR (${DUE_SCHEDULED})`, ' LIMIT 1')} IS NOT NULL`;

/** A unique slug that no client sends, held by a term until its real slug is settled. */
export const placeholderSlug = () => `__new-${randomUUID()}`;

/** Tells the caches that the counts of `ids` (and so the term lists) change with this write. */
const touchCounts = (ids: number[]) =>
  touch('term-counts', ...ids.map((id) => recordTag('term', id)));

/** `?, ?, ?` for raw SQL (both mysql2 and better-sqlite3 take positional `?`). */
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The columns of a TermRecord (RawTermRow), selected under their own names. */
const RECORD_COLUMNS = [
  'id',
  'taxonomy',
  'name',
  'slug',
  'description',
  'parent',
  'language',
  'translation_group',
] as const;
/** RECORD_COLUMNS as a plain SQL select list of alias `t`. */
const RECORD_SELECT = RECORD_COLUMNS.map((column) => `t.${column} AS ${column}`).join(', ');

interface RawTermRow {
  id: number | string;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number | string;
  language: Language;
  translation_group: number | string | null;
  count?: number | string;
}

function toRecord(row: RawTermRow): TermRecord {
  return {
    id: Number(row.id),
    taxonomy: row.taxonomy,
    name: row.name,
    slug: row.slug,
    description: row.description,
    parent: Number(row.parent),
    language: row.language,
    translationGroup: row.translation_group === null ? null : Number(row.translation_group),
    count: Number(row.count ?? 0),
  };
}

/** What an item list names: ids (any language), sanitized slugs and names (one language). */
export interface TermRefs {
  ids: number[];
  slugs: string[];
  names: string[];
}

/**
 * Every query on `terms`; services never build SQL. The events module owns `event_terms` (the
 * links); the queries here read it, by table name, for counts and embedded terms, and drop the
 * links of a deleted term.
 */
@Injectable()
export class TermsRepository {
  /** List totals, until the next write (any term or event write can change them). */
  private readonly totals: TotalsCache;
  /** Published-event counts by term (countsOf). */
  private readonly counts: TotalsCache;

  constructor(
    private readonly dataSource: DataSource,
    caches: Caches,
  ) {
    this.totals = caches.totals('term_totals');
    this.counts = caches.totals('term_counts', 20_000);
  }

  /**
   * Case-insensitive name order: on MySQL/MariaDB a page walks IDX_terms_name (taxonomy,
   * language, name) and stops after the page (caseFolded).
   */
  private get nameOrder(): string {
    return caseFolded(this.dataSource, 't.name');
  }

  /** `t.name` equals parameter `param` ignoring case; on MySQL/MariaDB through IDX_terms_name. */
  private nameEquals(param: string): string {
    return equalsIgnoringCase(this.dataSource, 't.name', param);
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  private terms(manager: EntityManager, alias = 't'): SelectQueryBuilder<TermEntity> {
    return manager.getRepository(TermEntity).createQueryBuilder(alias);
  }

  /** Term columns as raw rows named like TermRecord, without the count. */
  private selectColumns(qb: SelectQueryBuilder<TermEntity>) {
    const [first, ...rest] = RECORD_COLUMNS;
    qb.select(`t.${first}`, first);
    for (const column of rest) qb.addSelect(`t.${column}`, column);
    return qb;
  }

  /** Term columns plus its published-event count (lists sorted by count). */
  private selectRecord(qb: SelectQueryBuilder<TermEntity>, nowUtc: string) {
    return this.selectColumns(qb).addSelect(publishedCount(), 'count').setParameter('now', nowUtc);
  }

  /**
   * Published-event counts of terms, cached like list totals (until the next committed write,
   * one second at most): counting is an index range scan per term, 1,000 entries for a
   * category of a large calendar, and every page of events embeds a few dozen terms. One query
   * for the terms not in the cache, none when all are.
   */
  private async countsOf(ids: number[], nowUtc: string): Promise<Map<number, number>> {
    const counts = await this.counts.getMany(
      ids.map(String),
      async (missing) => {
        const rows = await this.terms(this.manager)
          .select('t.id', 'id')
          .addSelect(publishedCount(), 'count')
          .where('t.id IN (:...missing)', { missing: missing.map(Number) })
          .setParameter('now', nowUtc)
          .getRawMany<{ id: number | string; count: number | string }>();
        return new Map(rows.map((row) => [String(row.id), Number(row.count)]));
      },
      (id) => [recordTag('term', Number(id))],
    );
    return new Map([...counts].map(([id, count]) => [Number(id), count]));
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
    const rows = await this.selectColumns(this.terms(this.manager))
      .where('t.id IN (:...ids)', { ids })
      .getRawMany<RawTermRow>();
    const counts = await this.countsOf(
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
    const qb = this.terms(this.manager)
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
      qb.andWhere(
        't.id IN (SELECT ev_et.term_id FROM event_terms ev_et WHERE ev_et.event_id = :eventId)',
        {
          eventId: filters.eventId,
        },
      );
    }
    if (filters.hideEmpty) qb.andWhere(hasPublished());

    // What a term list depends on (docs/caches.md): the terms, their counts (shown, sorted by,
    // `hide_empty`), and an event's links when it asks for one event's terms.
    const tags = ['terms', 'term-counts'];
    if (filters.eventId !== undefined) tags.push('events');
    dependsOn(tags);
    const total = await this.totals.get(JSON.stringify(filters), () => qb.clone().getCount(), tags);
    if (total <= page.offset) return { ids: [], total };
    const direction = filters.descending ? 'DESC' : 'ASC';
    // Sorted by anything but the count, the page's ids are found without counting (the caller
    // reads the records it needs, records()); sorted by count, every candidate is counted, and
    // the page's records come with its ids.
    const byCount = filters.sort.key === 'count';
    const listQuery = byCount ? this.selectRecord(qb, nowUtc) : qb.select('t.id', 'id');
    switch (filters.sort.key) {
      case 'none':
        break;
      case 'id':
        listQuery.orderBy('t.id', direction);
        break;
      case 'name':
        listQuery.orderBy(this.nameOrder, direction);
        break;
      case 'count':
        listQuery.orderBy(publishedCount(), direction);
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
    return byCount ? { ids, rows: rows.map(toRecord), total } : { ids, total };
  }

  /**
   * Terms of `wpTaxonomy` that an item list may name: ids (any language), and slugs (already
   * sanitized) or names (case-insensitive, as stored) in `language`. One query.
   */
  findRefs(
    wpTaxonomy: string,
    refs: TermRefs,
    language: Language,
    manager: EntityManager = this.manager,
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
    lists: Array<{ wpTaxonomy: string; refs: TermRefs }>,
    language: Language,
    manager: EntityManager = this.manager,
  ): Promise<TermEntity[]> {
    const query = this.refsQuery(lists, language, manager, (qb) => this.selectColumns(qb));
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
    lists: Array<{ wpTaxonomy: string; refs: TermRefs }>,
    language: Language,
    manager: EntityManager,
    nowUtc: string,
  ): Promise<TermRecord[]> {
    const bySlug = await this.slugRecords(lists, language, manager, nowUtc);
    if (bySlug) return bySlug;
    const query = this.refsQuery(lists, language, manager, (qb) => this.selectRecord(qb, nowUtc));
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
    lists: Array<{ wpTaxonomy: string; refs: TermRefs }>,
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
      `SELECT ${RECORD_SELECT}, ${publishedCount('?')} AS count` +
      ' FROM terms t WHERE t.language = ? AND (' +
      wanted
        .map(({ refs }) => `(t.taxonomy = ? AND t.slug IN (${marks(refs.slugs.length)}))`)
        .join(' OR ') +
      `) ORDER BY ${this.nameOrder}, t.id`;
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
    lists: Array<{ wpTaxonomy: string; refs: TermRefs }>,
    language: Language,
    manager: EntityManager,
    select: (qb: SelectQueryBuilder<TermEntity>) => SelectQueryBuilder<TermEntity>,
  ): [string, unknown[]] | null {
    const branches: Array<[string, unknown[]]> = [];
    const branch = (
      where: (qb: SelectQueryBuilder<TermEntity>) => SelectQueryBuilder<TermEntity>,
    ) => branches.push(where(select(this.terms(manager))).getQueryAndParameters());
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
        branch((qb) => inLanguage(qb).andWhere(this.nameEquals('name'), { name }));
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

  /** Terms of the taxonomy and language whose name equals `name` ignoring case (and parent). */
  async sameName(
    manager: EntityManager,
    wpTaxonomy: string,
    language: Language,
    name: string,
    parent: number,
  ): Promise<TermEntity[]> {
    return this.terms(manager)
      .where('t.taxonomy = :taxonomy', { taxonomy: wpTaxonomy })
      .andWhere('t.language = :language', { language })
      .andWhere('t.parent = :parent', { parent })
      .andWhere(this.nameEquals('name'), { name })
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

  /** Does an event (any status) with this id exist? */
  async eventExists(id: number): Promise<boolean> {
    if (!Number.isSafeInteger(id) || id < 1) return false;
    const row = await this.manager
      .createQueryBuilder()
      .select('e.id', 'id')
      .from('events', 'e')
      .where('e.id = :id', { id })
      .limit(1)
      .getRawOne<{ id: number | string }>();
    return Boolean(row);
  }

  /**
   * Every category below `ids` (and `ids` themselves), whatever the depth, in one recursive
   * query; UNION (not UNION ALL) stops on a cycle.
   */
  async withDescendants(ids: number[], manager: EntityManager = this.manager): Promise<number[]> {
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
          await this.terms(manager)
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
    if (patch.language !== undefined) await this.recountPublished(manager, [id]);
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
    await manager.query(
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
    await manager.query(
      `UPDATE terms AS t SET published_count = ${linksOfTerm('COUNT(*)', PUBLISHED)}
       WHERE t.id IN (${marks(ids.length)})`,
      ids,
    );
  }

  /**
   * Deletes a term for good: unlinks it from every event and moves its child categories up to
   * its parent (WordPress `wp_delete_term`). Runs inside the caller's transaction.
   */
  async delete(manager: EntityManager, term: TermEntity): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from('event_terms')
      .where('term_id = :id', { id: term.id })
      .execute();
    await manager.update(
      TermEntity,
      { parent: term.id, taxonomy: term.taxonomy },
      { parent: term.parent },
    );
    await manager.delete(TermEntity, { id: term.id });
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
    const terms = this.terms(this.manager);
    const rows = await (
      opts.countHere ? this.selectRecord(terms, nowUtc) : this.selectColumns(terms)
    )
      .addSelect('et.event_id', 'event_id')
      .innerJoin('event_terms', 'et', 'et.term_id = t.id')
      .where('et.event_id IN (:...eventIds)', { eventIds })
      .orderBy(this.nameOrder, 'ASC')
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
}
