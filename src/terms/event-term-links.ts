import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RequestContext } from '../common/http/request-context.js';
import { sanitizeTitle, termName } from '../common/text/index.js';
import type { Language } from '../config/config.js';
import { nowUtcSql } from '../database/columns.js';
import { Caches } from '../cache/caches.js';
import { dependsOn } from '../cache/dependencies.js';
import type { VersionedCache } from '../cache/versioned-cache.js';
import type { WriteScope } from '../database/writes.js';
import { normalizeWriteItems } from './term-items.js';
import { MAX_NAME_LENGTH, matchRef, refsOf, type TermRef } from './term-refs.js';
import { toEmbeddedTerm, type TecEmbeddedTerm } from './term.mapper.js';
import { EventTermsRepository } from './event-terms.repository.js';
import { TermRefsRepository } from './term-refs.repository.js';
import { TermsRepository } from './terms.repository.js';
import { TAXONOMIES, type Taxonomy } from './taxonomy.js';

/** What an event list/representation needs of its terms. */
export interface EventTerms {
  categories: TecEmbeddedTerm[];
  tags: TecEmbeddedTerm[];
}

/**
 * The events module's door into categories and tags: the terms an event embeds, the terms its
 * write names (found or created in the write's transaction, with the kept counts in step), and
 * the events list's term filters resolved to ids. Nothing here answers a term route.
 */
@Injectable()
export class EventTermLinks {
  constructor(
    private readonly repo: TermsRepository,
    private readonly eventTerms: EventTermsRepository,
    private readonly refs: TermRefsRepository,
    caches: Caches,
  ) {
    this.resolvedFilters = caches.untilChanged('term_filters', 1_000);
  }

  /** Term filters of lists, resolved to ids (with descendants), until the next write. */
  private readonly resolvedFilters: VersionedCache<{ ids: number[] | null }>;

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
    const rows = await this.eventTerms.termsOfEvents([...new Set(eventIds)], nowUtcSql(), {
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
    return this.eventTerms.addPublished(manager, termIds, event.language);
  }

  linksChanged(manager: EntityManager, termIds: number[]): Promise<void> {
    return this.eventTerms.recountPublished(manager, termIds);
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
      ? await this.refs.findRefsOfTaxonomies(named, language, scope.manager)
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
      ? await this.refs.findRefRecords(named, event.language, scope.manager, nowUtcSql())
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
    // Terms and their parents change only with a term write (created, renamed, moved, deleted):
    // a filter resolved since the last one is resolved again without its two queries.
    const key = JSON.stringify([taxonomy, items, language]);
    const tags = ['terms'];
    dependsOn(tags);
    const version = this.resolvedFilters.version();
    const hit = this.resolvedFilters.get(key);
    if (hit) return hit.ids;
    const ids = await this.lookUpFilter(taxonomy, items, language);
    this.resolvedFilters.set(key, version, { ids }, Date.now(), tags);
    return ids;
  }

  private async lookUpFilter(
    taxonomy: Taxonomy,
    items: Array<number | string>,
    language: Language,
  ): Promise<number[] | null> {
    const info = TAXONOMIES[taxonomy];
    const found = await this.refs.findRefs(info.wpName, refsOf(items), language);
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
    return info.hierarchical ? this.eventTerms.withDescendants(unique) : unique;
  }
}
