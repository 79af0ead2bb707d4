import { Injectable } from '@nestjs/common';
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
import { TranslationStore } from '../posts/translation-store.js';
import { leaveSite } from '../posts/trash-flow.js';
import { moveLanguage, savedInLanguage } from '../posts/language-move.js';
import { basicInlineHtml, sanitizeTitle, termName } from '../common/text/index.js';
import type { Language } from '../config/config.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { Writes } from '../database/writes.js';
import type {
  CreateCategoryDto,
  CreateTagDto,
  UpdateCategoryDto,
  UpdateTagDto,
} from './dto/write-term.dto.js';
import { TermQueries } from './term-queries.js';
import { MAX_NAME_LENGTH, scopeOf } from './term-refs.js';
import type { TermEntity } from './term.entity.js';
import type { TecTerm } from './term.mapper.js';
import { placeholderSlug, TermsRepository } from './terms.repository.js';
import { TAXONOMIES, type Taxonomy } from './taxonomy.js';

type CreateInput = CreateCategoryDto | CreateTagDto;
type UpdateInput = UpdateCategoryDto | UpdateTagDto;

/**
 * What editors do to categories and tags: create, update and delete, with WordPress's term rules
 * (names, slugs per language, parents, duplicates) and the permission check after the existence
 * checks (BEHAVIOR §1.1). Answers are presented by TermQueries, never cached.
 */
@Injectable()
export class TermWrites {
  constructor(
    private readonly repo: TermsRepository,
    private readonly queries: TermQueries,
    private readonly writes: Writes,
    private readonly translations: TranslationStore,
  ) {}

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
    return this.queries.presentOne(id, ctx);
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
      const moved = { language: existing.language, slug: existing.slug };
      const { moving, movedSlug } = moveLanguage(moved, body.language);
      const language = moved.language;
      if (moving) patch.language = language;
      const resetSlug = await this.settleSlug(manager, existing, body.slug, patch, {
        language,
        movedSlug,
        parentChanged,
      });
      // Until the slug is settled, a placeholder keeps the language write from clashing with
      // a term of the new language that has the old slug.
      if (moving && resetSlug !== undefined) patch.slug = placeholderSlug();
      // A concurrent writer took the slug, or gave the group a member in the new language,
      // between the check and the write.
      await savedInLanguage(moving, language, async () => {
        try {
          await this.repo.update(manager, existing.id, patch);
        } catch (error) {
          const slugTaken = patch.slug !== undefined && resetSlug === undefined;
          if (slugTaken && isUniqueViolation(error)) throw duplicateSlug(patch.slug!);
          throw error;
        }
      });
      if (resetSlug !== undefined) {
        await this.repo.assignUniqueSlug(manager, { ...existing, language }, resetSlug);
      }
      return existing;
    });
    return this.queries.presentOne(term.id, ctx);
  }

  /**
   * WordPress wp_update_term's slug rules for an update: sets `patch.slug` when the slug can be
   * written as asked, or answers the slug to make unique after the write (`''`: derive it).
   */
  private async settleSlug(
    manager: EntityManager,
    existing: TermEntity,
    requested: string | undefined,
    patch: Partial<Pick<TermEntity, 'name' | 'slug'>>,
    to: {
      language: TermEntity['language'];
      movedSlug: string | undefined;
      parentChanged: boolean;
    },
  ): Promise<string | undefined> {
    const { language, movedSlug, parentChanged } = to;
    const moving = movedSlug !== undefined;
    let resetSlug: string | undefined;
    if (requested !== undefined) {
      // WordPress wp_update_term: an empty (sanitized) slug is derived from the name; a slug
      // taken by another term is an error unless the slug was derived or the parent changed,
      // in which case it is made unique. Slugs are unique per language: a moving term is
      // checked against its new language.
      let slug = sanitizeTitle(requested);
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
      resetSlug = movedSlug;
    }
    return resetSlug;
  }

  /**
   * `DELETE /categories/{id}` (and tags): removed for good (CONTRACT §3); answers the term as
   * it was, with its old count; unlinked from every event; child categories move up to its
   * parent. A second DELETE is a 400 (the id no longer exists). `force` is ignored.
   */
  async delete(taxonomy: Taxonomy, id: number, ctx: RequestContext): Promise<TecTerm> {
    const term = await this.queries.requireTerm(taxonomy, id);
    this.authorize(ctx);
    const before = await this.queries.presentOne(term.id, ctx);
    await this.writes.run(async (scope) => {
      const current = await this.repo.find(term.taxonomy, term.id, scope.manager);
      if (!current) throw invalidParam('id');
      await leaveSite(scope, this.translations, current, {
        kind: taxonomy,
        scope: scopeOf(taxonomy),
        action: 'deleted',
        remove: () => this.repo.delete(scope.manager, current),
      });
    });
    return before;
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
