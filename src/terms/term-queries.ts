import { PostStore } from '../posts/post-store.js';
import { Injectable } from '@nestjs/common';
import { invalidParam, invalidParams, t, type Text } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { buildArchive, pageOf, type Archive } from '../common/pagination/paginate.js';
import { TranslationStore } from '../posts/translation-store.js';
import type { Language } from '../config/config.js';
import { nowUtcSql } from '../database/columns.js';
import { RecordCache } from '../cache/record-cache.js';
import type { ListCategoriesQuery, ListTermsQuery } from './dto/list-terms.query.js';
import { idsOf, isDescending, parseOrderBy, type TermListFilters } from './term-filters.js';
import { matchRef, refsOf, scopeOf } from './term-refs.js';
import type { TermEntity } from './term.entity.js';
import { toTecTerm, type TecTerm, type TermRecord } from './term.mapper.js';
import { TermRefsRepository } from './term-refs.repository.js';
import { TermsRepository } from './terms.repository.js';
import { TAXONOMIES, taxonomyOf, type Taxonomy } from './taxonomy.js';

export type ListTermsInput = ListTermsQuery & Partial<Pick<ListCategoriesQuery, 'parent'>>;

/**
 * What readers of categories and tags see: the lists and single terms of the term routes and the
 * public pages, presented from the RecordCache where a payload is still current. One class for
 * both taxonomies (TEC `Term_Single_Base::get_taxonomy()`); category-only behaviour hangs on
 * `hierarchical`. Order of checks (BEHAVIOR §1.1): formats (ValidationPipe), then existence of
 * the records the request names (400), then the handler's own rules.
 */
@Injectable()
export class TermQueries {
  constructor(
    private readonly repo: TermsRepository,
    private readonly refs: TermRefsRepository,
    private readonly translations: TranslationStore,
    private readonly cache: RecordCache,
    private readonly posts: PostStore,
  ) {}

  /** `GET /categories`, `GET /tags` (BEHAVIOR §5.4). */
  async list(
    taxonomy: Taxonomy,
    query: ListTermsInput,
    ctx: RequestContext,
  ): Promise<Archive<TecTerm>> {
    const info = TAXONOMIES[taxonomy];
    // Existence checks, reported together in the plugin's declaration order.
    const invalid: Record<string, Text> = {};
    if (query.exclude && !(await this.allExist(taxonomy, query.exclude, ctx.language))) {
      invalid.exclude = t('validation.invalid');
    }
    if (query.include && !(await this.allExist(taxonomy, query.include, ctx.language))) {
      invalid.include = t('validation.invalid');
    }
    if (
      info.hierarchical &&
      query.parent !== undefined &&
      !(await this.repo.find(info.wpName, query.parent))
    ) {
      invalid.parent = t('validation.invalid');
    }
    for (const name of ['post', 'event'] as const) {
      const id = query[name];
      if (id !== undefined && (await this.posts.kindOf(id)) !== 'event') {
        invalid[name] = t('validation.invalid');
      }
    }
    if (Object.keys(invalid).length) throw invalidParams(invalid);

    const include = query.include && idsOf(query.include);
    const filters: TermListFilters = {
      taxonomy,
      language: ctx.language,
      search: query.search,
      include,
      exclude: query.exclude && idsOf(query.exclude),
      parent: info.hierarchical ? query.parent : undefined,
      eventId: query.event ?? query.post,
      slug: query.slug,
      hideEmpty: query.hide_empty ?? true,
      sort: parseOrderBy(query.orderby, !!include?.length),
      descending: isDescending(query.order),
    };
    const page = pageOf(query, ctx.config.maxPerPage);
    const readAt = this.cache.version();
    const nowUtc = nowUtcSql();
    const { ids, rows, total } = await this.repo.list(filters, page, nowUtc);
    return buildArchive({
      key: info.collection,
      // The page's records are read only for the terms whose payloads are not cached.
      items: await this.present(rows ?? ids, ctx, readAt, nowUtc),
      total,
      page,
      collectionUrl: `${ctx.restBase}/${info.collection}`,
      query: echoQuery(query, info.hierarchical),
      layout: 'terms',
    });
  }

  /** `GET /categories/{id}`, `GET /tags/{id}` (BEHAVIOR §6.3): any language. */
  async get(taxonomy: Taxonomy, id: number, ctx: RequestContext): Promise<TecTerm> {
    const readAt = this.cache.version();
    const term = await this.requireTerm(taxonomy, id);
    return this.presentOne(term.id, ctx, readAt);
  }

  /**
   * `get` of each of `ids` (terms of `taxonomy`), by id; those that are no terms of it are left
   * out. The payloads the RecordCache keeps as they are, the other terms read and built together:
   * a fixed number of queries whatever the number of ids.
   */
  async getMany(
    taxonomy: Taxonomy,
    ids: readonly number[],
    ctx: RequestContext,
  ): Promise<Map<number, TecTerm>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const readAt = this.cache.version();
    const wpName = TAXONOMIES[taxonomy].wpName;
    const terms = await this.present(unique, ctx, readAt);
    return new Map(terms.filter((term) => term.taxonomy === wpName).map((term) => [term.id, term]));
  }

  /** `id` must be an existing term of the kind, else 400 `rest_invalid_param` (not a 404). */
  async requireTerm(taxonomy: Taxonomy, id: number): Promise<TermEntity> {
    const term = await this.repo.find(TAXONOMIES[taxonomy].wpName, id);
    if (!term) throw invalidParam('id');
    return term;
  }

  /**
   * Terms in list form, with their category URLs (ancestor slugs loaded in one query) and their
   * translations (one query); from the RecordCache when built since the last write for the same
   * language and REST base, and kept there when `readAt` (RecordCache.version() before reading
   * the rows, with their counts) is given.
   */
  private async present(
    records: TermRecord[] | number[],
    ctx: RequestContext,
    readAt?: number,
    nowUtc = nowUtcSql(),
  ): Promise<TecTerm[]> {
    if (!records.length) return [];
    const variant = JSON.stringify([ctx.language, ctx.restBase]);
    const build = async (missing: TermRecord[]) => {
      if (!missing.length) return new Map<number, TecTerm>();
      const [chains, translations] = await Promise.all([
        this.repo.chains(missing.map((r) => r.parent)),
        // Members of a group share the taxonomy: the first record's names the scope.
        this.translations.load(scopeOf(taxonomyOf(missing[0].taxonomy)), missing),
      ]);
      return new Map(
        missing.map((record) => [
          record.id,
          toTecTerm(record, ancestorSlugs(record.parent, chains), ctx, translations.get(record.id)),
        ]),
      );
    };
    return this.cache.page(
      'term',
      records,
      variant,
      readAt,
      (ids) => this.repo.records(ids, nowUtc),
      build,
    );
  }

  /** One term; kept in the RecordCache only for a read (`readAt`), never for a write's answer. */
  async presentOne(id: number, ctx: RequestContext, readAt?: number): Promise<TecTerm> {
    const [record] = await this.repo.records([id], nowUtcSql());
    if (!record) throw invalidParam('id');
    const [term] = await this.present([record], ctx, readAt);
    return term;
  }

  /** Every item names an existing term of the kind: id (any language), slug or name. */
  private async allExist(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    language: Language,
  ): Promise<boolean> {
    const found = await this.refs.findRefs(TAXONOMIES[taxonomy].wpName, refsOf(items), language);
    return items.every((item) =>
      typeof item === 'number'
        ? found.some((term) => term.id === item)
        : !!matchRef(found, item, language),
    );
  }
}

/** Slugs of the ancestors of a term whose parent is `parent`, root first. */
function ancestorSlugs(
  parent: number,
  chains: Map<number, { parent: number; slug: string }>,
): string[] {
  const path: string[] = [];
  const seen = new Set<number>();
  for (let id = parent; id && !seen.has(id);) {
    const node = chains.get(id);
    if (!node) break;
    seen.add(id);
    path.unshift(node.slug);
    id = node.parent;
  }
  return path;
}

/** The filters the client gave, echoed in the links (BEHAVIOR §5.1 Service note, D3). */
function echoQuery(
  query: ListTermsInput,
  hierarchical: boolean,
): Record<string, string | number | undefined> {
  const list = (items?: Array<number | string>) => items?.join(',');
  return {
    search: query.search,
    exclude: list(query.exclude),
    include: list(query.include),
    order: query.order,
    orderby: query.orderby,
    hide_empty: query.hide_empty === undefined ? undefined : query.hide_empty ? 1 : 0,
    parent: hierarchical ? query.parent : undefined,
    post: query.post,
    event: query.event,
    slug: query.slug,
  };
}
