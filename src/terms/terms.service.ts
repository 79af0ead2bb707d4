import { Injectable } from '@nestjs/common';
import { VersionedCache } from '../database/versioned-cache.js';
import { WriteVersion } from '../database/write-version.js';
import { RecordCache } from '../database/record-cache.js';
import type { EntityManager } from 'typeorm';
import { canManageTerms } from '../auth/post-policy.js';
import {
  ApiError,
  forbidden,
  invalidParam,
  invalidParams,
  t,
  type Text,
} from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { buildArchive, pageOf, type Archive } from '../common/pagination/paginate.js';
import { basicInlineHtml, sanitizeTitle, termName } from '../common/text/index.js';
import type { Language } from '../config/config.js';
import { nowUtcSql } from '../database/columns.js';
import { Writes, type WriteScope } from '../database/writes.js';
import { TranslationStore } from '../common/posts/translation-store.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import {
  languageTakenReason,
  termTranslations,
  type TranslationScope,
} from '../common/posts/translations.js';
import type { ListCategoriesQuery, ListTermsQuery } from './dto/list-terms.query.js';
import type {
  CreateCategoryDto,
  CreateTagDto,
  UpdateCategoryDto,
  UpdateTagDto,
} from './dto/write-term.dto.js';
import { idsOf, isDescending, parseOrderBy, type TermListFilters } from './term-filters.js';
import { normalizeWriteItems } from './term-items.js';
import type { TermEntity } from './term.entity.js';
import {
  toEmbeddedTerm,
  toTecTerm,
  type TecEmbeddedTerm,
  type TecTerm,
  type TermRecord,
} from './term.mapper.js';
import { placeholderSlug, TermsRepository } from './terms.repository.js';
import { TAXONOMIES, taxonomyOf, type Taxonomy } from './taxonomy.js';

/** The column holds 200 characters (WordPress term names are limited alike). */
const MAX_NAME_LENGTH = 200;

type ListQuery = ListTermsQuery & Partial<Pick<ListCategoriesQuery, 'parent'>>;
type CreateInput = CreateCategoryDto | CreateTagDto;
type UpdateInput = UpdateCategoryDto | UpdateTagDto;

/** What a write's item lists are matched against. */
type TermRef = Pick<TermEntity, 'id' | 'taxonomy' | 'slug' | 'name' | 'language'>;

/** What an event list/representation needs of its terms. */
export interface EventTerms {
  categories: TecEmbeddedTerm[];
  tags: TecEmbeddedTerm[];
}

/**
 * Categories and tags: one service for both, parametrized by taxonomy (TEC
 * `Term_Single_Base::get_taxonomy()`); category-only behaviour hangs on `hierarchical`.
 * Order of checks (BEHAVIOR §1.1): formats (ValidationPipe), then existence of the records the
 * request names (400), then permission (401/403), then the handler's own rules.
 */
@Injectable()
export class TermsService {
  constructor(
    private readonly repo: TermsRepository,
    private readonly writes: Writes,
    private readonly translations: TranslationStore,
    private readonly cache: RecordCache,
    versions: WriteVersion,
  ) {
    this.resolvedFilters = new VersionedCache(versions, Infinity, { max: 1_000 });
  }

  /** Term filters of lists, resolved to ids (with descendants), until the next write. */
  private readonly resolvedFilters: VersionedCache<{ ids: number[] | null }>;

  // ---------------------------------------------------------------------------------- reads

  /** `GET /categories`, `GET /tags` (BEHAVIOR §5.4). */
  async list(taxonomy: Taxonomy, query: ListQuery, ctx: RequestContext): Promise<Archive> {
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
      if (id !== undefined && !(await this.repo.eventExists(id))) {
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

  // --------------------------------------------------------------------------------- writes

  /** `POST /categories`, `POST /tags` (BEHAVIOR §7.6): 201 with the new term. */
  async create(taxonomy: Taxonomy, body: CreateInput, ctx: RequestContext): Promise<TecTerm> {
    const info = TAXONOMIES[taxonomy];
    const parent = info.hierarchical ? (body as CreateCategoryDto).parent : undefined;
    const invalid: Record<string, Text> = {};
    if (parent !== undefined && !(await this.repo.find(info.wpName, parent))) {
      invalid.parent = t('validation.invalid');
    }
    if (body.translation_of !== undefined) {
      const problem = await this.translations.translationOfProblem(
        scopeOf(taxonomy),
        body.translation_of,
        ctx.language,
        undefined,
      );
      if (problem) invalid.translation_of = problem;
    }
    if (Object.keys(invalid).length) throw invalidParams(invalid);
    this.authorize(ctx);
    this.rejectTagParent(taxonomy, body);
    const name = this.storedName(body.name);
    const slug = body.slug === undefined ? '' : sanitizeTitle(body.slug);
    const id = await this.writes.run(async ({ manager, changed }) => {
      await this.rejectExisting(manager, taxonomy, ctx.language, name, slug, parent ?? 0);
      const term = await this.repo.insert(
        manager,
        {
          taxonomy: info.wpName,
          name,
          description: body.description === undefined ? '' : basicInlineHtml(body.description),
          parent: parent ?? 0,
          language: ctx.language,
        },
        slug || sanitizeTitle(name),
      );
      changed(taxonomy, term.id, 'created');
      if (body.translation_of !== undefined) {
        await this.translations.join(
          manager,
          scopeOf(taxonomy),
          term.id,
          body.translation_of,
          ctx.language,
        );
      }
      return term.id;
    });
    return this.presentOne(id, ctx);
  }

  /** `POST|PUT|PATCH /categories/{id}` (and tags): partial update (CONTRACT §6). */
  async update(
    taxonomy: Taxonomy,
    id: number,
    body: UpdateInput,
    ctx: RequestContext,
  ): Promise<TecTerm> {
    const info = TAXONOMIES[taxonomy];
    const term = await this.writes.run(async ({ manager, changed }) => {
      const existing = await this.repo.find(info.wpName, id, manager);
      const parent = info.hierarchical ? (body as UpdateCategoryDto).parent : undefined;
      const invalid: Record<string, Text> = {};
      if (!existing) invalid.id = t('validation.invalid');
      if (parent !== undefined && !(await this.isValidParent(id, parent, manager))) {
        invalid.parent = t('validation.invalid');
      }
      // CONTRACT §5: a translation moves only to a language its group has no member in.
      if (existing && body.language !== undefined) {
        const problem = await this.translations.languageChangeProblem(
          scopeOf(taxonomy),
          existing,
          body.language,
          undefined,
          manager,
        );
        if (problem) invalid.language = problem;
      }
      if (!existing || Object.keys(invalid).length) throw invalidParams(invalid);
      this.authorize(ctx);
      this.rejectTagParent(taxonomy, body);
      changed(taxonomy, existing.id, 'updated');

      const patch: Partial<
        Pick<TermEntity, 'name' | 'slug' | 'description' | 'parent' | 'language'>
      > = {};
      if (body.name !== undefined) patch.name = this.storedName(body.name);
      if (body.description !== undefined) patch.description = basicInlineHtml(body.description);
      const parentChanged = parent !== undefined && parent !== existing.parent;
      if (parentChanged) patch.parent = parent;
      const language = body.language ?? existing.language;
      const moving = language !== existing.language;
      if (moving) patch.language = language;
      let resetSlug: string | undefined;
      if (body.slug !== undefined) {
        // WordPress wp_update_term: an empty (sanitized) slug is derived from the name; a slug
        // taken by another term is an error unless the slug was derived or the parent changed,
        // in which case it is made unique. Slugs are unique per language: a moving term is
        // checked against its new language.
        let slug = sanitizeTitle(body.slug);
        const derived = slug === '';
        if (derived) slug = sanitizeTitle(patch.name ?? existing.name);
        if (slug !== existing.slug || moving) {
          const taken = slug
            ? await this.repo.findBySlug(manager, existing.taxonomy, language, slug)
            : null;
          if (taken && taken.id !== existing.id) {
            if (!derived && !parentChanged) throw duplicateSlug(slug);
            resetSlug = slug;
          } else if (slug) {
            patch.slug = slug;
          } else {
            resetSlug = '';
          }
        }
      } else if (moving) {
        // The term takes its slug along when it is free in the new language, else `slug-2`, ...
        resetSlug = existing.slug;
      }
      // Until the slug is settled, a placeholder keeps the language write from clashing with
      // a term of the new language that has the old slug.
      if (moving && resetSlug !== undefined) patch.slug = placeholderSlug();
      try {
        await this.repo.update(manager, existing.id, patch);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // A concurrent writer took the slug, or gave the group a member in the new language,
        // between the check and the write.
        if (patch.slug !== undefined && resetSlug === undefined) throw duplicateSlug(patch.slug);
        throw invalidParams({ language: languageTakenReason(language) });
      }
      if (resetSlug !== undefined) {
        await this.repo.assignUniqueSlug(manager, { ...existing, language }, resetSlug);
      }
      return existing;
    });
    return this.presentOne(term.id, ctx);
  }

  /**
   * `DELETE /categories/{id}` (and tags): removed for good (CONTRACT §3); answers the term as
   * it was, with its old count; unlinked from every event; child categories move up to its
   * parent. A second DELETE is a 400 (the id no longer exists). `force` is ignored.
   */
  async delete(taxonomy: Taxonomy, id: number, ctx: RequestContext): Promise<TecTerm> {
    const term = await this.requireTerm(taxonomy, id);
    this.authorize(ctx);
    const before = await this.presentOne(term.id, ctx);
    await this.writes.run(async ({ manager, changed }) => {
      const current = await this.repo.find(term.taxonomy, term.id, manager);
      if (!current) throw invalidParam('id');
      changed(taxonomy, current.id, 'deleted');
      // Its translations stay linked to each other (CONTRACT §5).
      await this.translations.leave(manager, scopeOf(taxonomy), current);
      await this.repo.delete(manager, current);
    });
    return before;
  }

  // ------------------------------------------------------------------- for the events module

  /**
   * Categories and tags of each event (embedded form, ordered by name) in one query, and one
   * for the counts not cached; `justWritten` events (a write's answer) in one query in all.
   */
  async embeddedTermsForEvents(
    eventIds: number[],
    ctx: Pick<RequestContext, 'siteUrl' | 'restBase'>,
    opts: { justWritten?: boolean } = {},
  ): Promise<Map<number, EventTerms>> {
    const result = new Map<number, EventTerms>(
      eventIds.map((id) => [id, { categories: [], tags: [] }]),
    );
    const rows = await this.repo.termsOfEvents([...new Set(eventIds)], nowUtcSql(), {
      countHere: opts.justWritten,
    });
    for (const { eventId, term } of rows) {
      const entry = result.get(eventId);
      if (!entry) continue;
      const list = term.taxonomy === TAXONOMIES.category.wpName ? entry.categories : entry.tags;
      list.push(toEmbeddedTerm(term, ctx));
    }
    return result;
  }

  /**
   * Keeps the terms' counts of published events in step with an event's links, in the event
   * write's transaction: a new event's links with `status` (only `publish` counts), or a recount
   * of `termIds` after links were changed or removed or the state they copy changed.
   */
  linksCreated(
    manager: EntityManager,
    termIds: number[],
    event: { status: string; language: string },
  ): Promise<void> {
    if (event.status !== 'publish') return Promise.resolve();
    return this.repo.addPublished(manager, termIds, event.language);
  }

  linksChanged(manager: EntityManager, termIds: number[]): Promise<void> {
    return this.repo.recountPublished(manager, termIds);
  }

  /**
   * BEHAVIOR §7.1.4 validation only (no writes): a list or a comma-separated string; an item
   * that is neither a number nor a string → `invalidParam(field)`. `null`, `""` and `[]` give
   * `[]` ("no terms"). Returns the normalized items (digit-only strings become numbers).
   */
  validateWriteItems(field: 'categories' | 'tags', input: unknown): Array<number | string> {
    return normalizeWriteItems(field, input);
  }

  /**
   * BEHAVIOR §7.1.4, inside the caller's transaction, for each taxonomy's item list: a number is
   * the existing term of that taxonomy with that id (any language; skipped if none); a string is
   * the existing term of `language` whose slug or (case-insensitive) name equals it, else a new
   * term with that name (no term capability needed). Answers each list's term ids in item order,
   * duplicates removed. The existing terms of every list are looked up in one query.
   */
  async resolveListsForWrite(
    lists: ReadonlyArray<readonly [Taxonomy, Array<number | string>]>,
    language: Language,
    scope: WriteScope,
  ): Promise<number[][]> {
    const named = this.namedLists(lists);
    const found = named.length
      ? await this.repo.findRefsOfTaxonomies(named, language, scope.manager)
      : [];
    return this.idsOfLists(lists, found, language, scope);
  }

  /**
   * resolveListsForWrite for the links of a new event in `event`'s language, with the terms its
   * answer embeds when every linked term existed before: their counts as the look-up found
   * them, plus the event itself where its links count (a published event, a term of its
   * language; see linksCreated), in the order of embedded terms. The look-up stays one query and
   * the answer needs none (`terms` is undefined when the write created a term: it reads them).
   */
  async resolveListsForNewEvent(
    lists: ReadonlyArray<readonly [Taxonomy, Array<number | string>]>,
    event: { status: string; language: Language },
    scope: WriteScope,
    ctx: Pick<RequestContext, 'siteUrl' | 'restBase'>,
  ): Promise<{ ids: number[][]; terms?: EventTerms }> {
    const named = this.namedLists(lists);
    const records = named.length
      ? await this.repo.findRefRecords(named, event.language, scope.manager, nowUtcSql())
      : [];
    const byId = [...records].sort((a, b) => a.id - b.id);
    const ids = await this.idsOfLists(lists, byId, event.language, scope);
    const linked = new Set(ids.flat());
    const existing = new Set(records.map((record) => record.id));
    if ([...linked].some((id) => !existing.has(id))) return { ids };
    const terms: EventTerms = { categories: [], tags: [] };
    for (const record of records) {
      if (!linked.has(record.id)) continue;
      const counted = event.status === 'publish' && record.language === event.language;
      const embedded = toEmbeddedTerm({ ...record, count: record.count + (counted ? 1 : 0) }, ctx);
      if (record.taxonomy === TAXONOMIES.category.wpName) terms.categories.push(embedded);
      else terms.tags.push(embedded);
    }
    return { ids, terms };
  }

  /** The lists that name terms, as the repository's look-up takes them. */
  private namedLists(lists: ReadonlyArray<readonly [Taxonomy, Array<number | string>]>) {
    return lists
      .filter(([, items]) => items.length)
      .map(([taxonomy, items]) => ({
        wpTaxonomy: TAXONOMIES[taxonomy].wpName,
        refs: refsOf(items),
      }));
  }

  /** Each list's term ids, given the existing terms they may name (`found`, by id). */
  private async idsOfLists(
    lists: ReadonlyArray<readonly [Taxonomy, Array<number | string>]>,
    found: ReadonlyArray<TermRef>,
    language: Language,
    scope: WriteScope,
  ): Promise<number[][]> {
    const out: number[][] = [];
    for (const [taxonomy, items] of lists) {
      const ofTaxonomy = found.filter((term) => term.taxonomy === TAXONOMIES[taxonomy].wpName);
      out.push(await this.termsForItems(taxonomy, items, ofTaxonomy, language, scope));
    }
    return out;
  }

  /** resolveListsForWrite of one taxonomy's items. */
  async resolveForWrite(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    language: Language,
    scope: WriteScope,
  ): Promise<number[]> {
    const [ids] = await this.resolveListsForWrite([[taxonomy, items]], language, scope);
    return ids;
  }

  /** One list of resolveListsForWrite, given the existing terms it may name (`found`). */
  private async termsForItems(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    found: TermRef[],
    language: Language,
    scope: WriteScope,
  ): Promise<number[]> {
    const ids: number[] = [];
    const created = new Map<string, number>();
    for (const item of items) {
      if (typeof item === 'number') {
        const byId = found.find((term) => term.id === item);
        if (byId) ids.push(byId.id);
        continue;
      }
      const match = matchRef(found, item, language);
      if (match) {
        ids.push(match.id);
        continue;
      }
      const name = [...termName(item)].slice(0, MAX_NAME_LENGTH).join('');
      if (!name) continue;
      const key = name.toLowerCase();
      let id = created.get(key);
      if (id === undefined) {
        const term = await this.repo.insert(
          scope.manager,
          { taxonomy: TAXONOMIES[taxonomy].wpName, name, description: '', parent: 0, language },
          sanitizeTitle(name),
        );
        id = term.id;
        created.set(key, id);
        scope.changed(taxonomy, id, 'created');
      }
      ids.push(id);
    }
    return [...new Set(ids)];
  }

  /**
   * The events list `categories`/`tags` filter (BEHAVIOR §5.2.1, §5.2.6): each item is resolved
   * as a slug (request language), then as an id (any language), then as a name (request
   * language, case-insensitive) — a name-only match passes validation but selects nothing.
   * Returns null when an item matches no term (the caller answers 400), else the term ids to
   * filter on; categories include all their descendants. An empty result with a non-empty
   * `items` means "no event matches", not "no filter".
   */
  async resolveFilter(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    language: Language,
  ): Promise<number[] | null> {
    if (!items.length) return [];
    // Terms and their parents change only with a write: a filter resolved since the last one
    // is resolved again without its two queries.
    const key = JSON.stringify([taxonomy, items, language]);
    const version = this.resolvedFilters.version();
    const hit = this.resolvedFilters.get(key);
    if (hit) return hit.ids;
    const ids = await this.lookUpFilter(taxonomy, items, language);
    this.resolvedFilters.set(key, version, { ids });
    return ids;
  }

  private async lookUpFilter(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    language: Language,
  ): Promise<number[] | null> {
    const info = TAXONOMIES[taxonomy];
    const found = await this.repo.findRefs(info.wpName, refsOf(items), language);
    const ids: number[] = [];
    for (const item of items) {
      const text = String(item);
      const bySlug = found.find(
        (term) => term.language === language && term.slug === sanitizeTitle(text),
      );
      const byId = /^\d+$/.test(text) ? found.find((term) => term.id === Number(text)) : undefined;
      if (bySlug ?? byId) ids.push((bySlug ?? byId)!.id);
      else if (!matchRef(found, text, language)) return null;
    }
    const unique = [...new Set(ids)];
    return info.hierarchical ? this.repo.withDescendants(unique) : unique;
  }

  // -------------------------------------------------------------------------------- helpers

  /** `id` must be an existing term of the kind, else 400 `rest_invalid_param` (not a 404). */
  private async requireTerm(taxonomy: Taxonomy, id: number): Promise<TermEntity> {
    const term = await this.repo.find(TAXONOMIES[taxonomy].wpName, id);
    if (!term) throw invalidParam('id');
    return term;
  }

  /** CONTRACT §2: only editors and administrators manage categories and tags. */
  private authorize(ctx: RequestContext): void {
    if (!canManageTerms(ctx.actor)) throw forbidden(!!ctx.actor.user);
  }

  /** A `parent` sent to a tag route reaches the WordPress terms controller, which refuses it. */
  private rejectTagParent(taxonomy: Taxonomy, body: object): void {
    const parent = (body as { parent?: unknown }).parent;
    if (!TAXONOMIES[taxonomy].hierarchical && parent !== undefined && parent !== null) {
      throw new ApiError('rest_taxonomy_not_hierarchical', 400);
    }
  }

  /** The name as stored (BEHAVIOR §7.6); nothing left, or too long, is a 400 (never a 500). */
  private storedName(raw: string): string {
    const name = termName(raw);
    if (!name || [...name].length > MAX_NAME_LENGTH) throw invalidParam('name');
    return name;
  }

  /** An existing category that is neither the term itself nor one of its descendants. */
  private async isValidParent(
    id: number,
    parent: number,
    manager: EntityManager,
  ): Promise<boolean> {
    if (parent === id) return false;
    if (!(await this.repo.find(TAXONOMIES.category.wpName, parent, manager))) return false;
    return !(await this.repo.chains([parent], manager)).has(id);
  }

  /**
   * WordPress `wp_insert_term` duplicate rules (BEHAVIOR §7.6): a term of the same name
   * (case-insensitive) — for categories under the same parent — is a `term_exists` error unless a
   * different, free slug was asked for. Categories need the exact name among the siblings, or
   * the asked slug taken by a sibling.
   */
  private async rejectExisting(
    manager: EntityManager,
    taxonomy: Taxonomy,
    language: Language,
    name: string,
    slug: string,
    parent: number,
  ): Promise<void> {
    const info = TAXONOMIES[taxonomy];
    const sameName = await this.repo.sameName(manager, info.wpName, language, name, parent);
    const nameMatch = sameName.find((term) => term.name.toLowerCase() === name.toLowerCase());
    if (!nameMatch) return;
    const slugProvided = slug !== '';
    const slugMatch = slugProvided
      ? await this.repo.findBySlug(manager, info.wpName, language, slug)
      : null;
    if (slugProvided && nameMatch.slug !== slug && !slugMatch) return;
    if (!info.hierarchical) throw termExists(nameMatch.id, false);
    if ((!slugProvided || nameMatch.slug === slug) && sameName.some((term) => term.name === name)) {
      throw termExists(nameMatch.id, true);
    }
    if (slugMatch && slugMatch.parent === parent) throw termExists(slugMatch.id, true);
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
        this.translations.load(scopeOf(taxonomyOf(missing[0]!.taxonomy)), missing),
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
  private async presentOne(id: number, ctx: RequestContext, readAt?: number): Promise<TecTerm> {
    const [record] = await this.repo.records([id], nowUtcSql());
    if (!record) throw invalidParam('id');
    const [term] = await this.present([record], ctx, readAt);
    return term!;
  }

  /** Every item names an existing term of the kind: id (any language), slug or name. */
  private async allExist(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    language: Language,
  ): Promise<boolean> {
    const found = await this.repo.findRefs(TAXONOMIES[taxonomy].wpName, refsOf(items), language);
    return items.every((item) =>
      typeof item === 'number'
        ? found.some((term) => term.id === item)
        : !!matchRef(found, item, language),
    );
  }
}

/** Where the terms of a taxonomy are, for the translation helpers. */
const scopeOf = (taxonomy: Taxonomy): TranslationScope =>
  termTranslations(taxonomy, TAXONOMIES[taxonomy].wpName);

/** What `findRefs` looks for: numbers as ids, strings as slugs and names. */
function refsOf(items: Array<number | string>) {
  const texts = items.map(String);
  return {
    ids: texts.filter((s) => /^\d{1,15}$/.test(s)).map(Number),
    slugs: texts.map((s) => sanitizeTitle(s)),
    names: texts.map((s) => termName(s)),
  };
}

/** The term of `language` whose slug, else (case-insensitive, stored) name, is `text`. */
function matchRef(found: TermRef[], text: string, language: Language): TermRef | undefined {
  const slug = sanitizeTitle(text);
  const name = termName(text).toLowerCase();
  const inLanguage = found.filter((term) => term.language === language);
  return (
    (slug ? inLanguage.find((term) => term.slug === slug) : undefined) ??
    (name ? inLanguage.find((term) => term.name.toLowerCase() === name) : undefined)
  );
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
  query: ListQuery,
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

function termExists(termId: number, withParent: boolean): ApiError {
  return new ApiError(
    'term_exists',
    400,
    { term_id: termId },
    withParent ? t('errors.term_exists_parent') : t('errors.term_exists'),
  );
}

function duplicateSlug(slug: string): ApiError {
  return new ApiError('duplicate_term_slug', 400, {}, t('errors.duplicate_term_slug', { slug }));
}
