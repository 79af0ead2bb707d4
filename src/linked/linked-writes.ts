import {
  canCreatePosts,
  canEdit,
  canPostUnfilteredHtml,
  canUpload,
  mayAttributeTo,
} from '../auth/post-policy.js';
import type { UsersService } from '../auth/users/users.service.js';
import { utcToLocal } from '../common/dates/index.js';
import {
  cannotCreateAs,
  cannotUpdateAs,
  forbidden,
  invalidParams,
  t,
  type Text,
} from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { PostColumns } from '../posts/post-columns.js';
import type { IdAhead } from '../posts/post-store.js';
import { effectiveStatus, isWritableStatus, resolveWriteStatus } from '../posts/post-status.js';
import { forceOf, notTrashed } from '../posts/force-delete.js';
import type { TrashPurger } from '../posts/purge-trash.js';
import type { TranslationStore } from '../posts/translation-store.js';
import { leaveSite, refuseTrash } from '../posts/trash-flow.js';
import { moveLanguage, savedInLanguage } from '../posts/language-move.js';
import { contentFilter } from '../common/text/index.js';
import { nowUtcSql } from '../database/columns.js';
import { lockKey } from '../database/write-lock.js';
import type { WriteScope, Writes } from '../database/writes.js';
import { UNPUBLISHED_SLUGLESS, viewerOf } from './linked-access.js';
import type { LinkedDefinition, LinkedWriteFields } from './linked-definition.js';
import { publicationDates } from './linked-inputs.js';
import type { LinkedPostRepository } from './linked-post.repository.js';
import type { LinkedQueries } from './linked-queries.js';
import { unlockOf, type Unlock } from './unlock.decorator.js';

/**
 * What authors and editors do to venues and organizers: create (or reuse a duplicate,
 * BEHAVIOR §7.4.2), update and trash, with the checks that need the database or the caller
 * before the permission check (BEHAVIOR §1.1). Answers are presented by LinkedQueries.
 */
export class LinkedWrites<
  E extends PostColumns,
  C extends LinkedWriteFields,
  U extends LinkedWriteFields,
  P extends object = object,
> {
  constructor(
    protected readonly def: LinkedDefinition<E, C, U, P>,
    protected readonly queries: LinkedQueries<E, C, U, P>,
    protected readonly repository: LinkedPostRepository<E>,
    protected readonly writes: Writes,
    protected readonly translations: TranslationStore,
    protected readonly users: UsersService,
    protected readonly purger: TrashPurger,
  ) {}

  /** `POST /{collection}`: 201 with the new record, or with an existing duplicate (§7.4.2). */
  async create(input: C, ctx: RequestContext) {
    await this.checkInput(input, ctx);
    if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
    this.authorizeAuthor(input, ctx);
    // The work answers the id: what a write rider is given (Writes.alongNextWrite, the importer).
    const id = await this.writes.run(
      async (scope) => (await this.createRecord(input, ctx, scope)).id,
    );
    return this.presentWritten(id, ctx);
  }
  /** A record as a write answers it: read again once written, unlocked by the query's password. */
  private async presentWritten(id: number, ctx: RequestContext) {
    return this.queries.presentOne(
      await this.queries.mustFindById(id),
      ctx,
      unlockOf(ctx.query),
      false,
    );
  }
  async updateById(id: number, input: U, ctx: RequestContext) {
    return this.update(await this.queries.mustFindById(id), input, ctx);
  }
  async updateBySlug(slug: string, input: U, ctx: RequestContext) {
    return this.update(await this.queries.mustFindBySlug(slug, ctx), input, ctx);
  }
  private async update(record: E, input: U, ctx: RequestContext) {
    await this.checkInput(input, ctx, record);
    if (!canEdit(ctx.actor, record)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators give a record to another author.
    if (input.author !== undefined && !mayAttributeTo(ctx.actor, input.author)) {
      throw cannotUpdateAs();
    }
    await this.translations.assertMayMoveLanguage(
      this.def.kind.translations,
      record,
      input.language,
      viewerOf(ctx),
    );
    await this.writes.run(async ({ manager, changed }) => {
      // As readers saw it: a scheduled record whose date has passed was published already.
      changed(this.def.kind.kind, record.id, 'updated', record, {
        previousStatus: effectiveStatus(record, nowUtcSql()),
      });
      // Slugs are unique per language: a moved record takes its slug along when it is free in
      // the new language, else the next free `slug-2`, ... (assigned after the save).
      const { moving, movedSlug } = moveLanguage(record, input.language);
      const needsSlug = this.applyUpdate(record, input, ctx);
      await savedInLanguage(moving, record.language, () => this.repository.save(manager, record));
      if (movedSlug) {
        await this.repository.assignSlug(manager, record.id, movedSlug, record.language);
      } else if (needsSlug) {
        await this.repository.assignSlug(manager, record.id, record.title, record.language);
      }
    });
    return this.presentWritten(record.id, ctx);
  }
  async trashById(id: number, ctx: RequestContext, unlock: Unlock) {
    return this.trash(await this.queries.mustFindById(id), ctx, unlock);
  }
  async trashBySlug(slug: string, ctx: RequestContext, unlock: Unlock) {
    return this.trash(await this.queries.mustFindBySlug(slug, ctx), ctx, unlock);
  }
  /**
   * BEHAVIOR §7.4.4: DELETE moves to trash (the slug is kept, D10), in one transaction with
   * unlinking the record from every event (D13), which the events module does when the write
   * names a trashed venue or organizer (events/linked-removal.ts); a second DELETE is 410.
   */
  private async trash(record: E, ctx: RequestContext, unlock: Unlock) {
    // WordPress checks delete rights of a trashed post against its status before the trash, which
    // for what a contributor may trash was draft/pending: so they get the 410, not a 403.
    const status = record.status === 'trash' ? 'draft' : record.status;
    const { kind } = this.def.kind;
    const mayTrash = canEdit(ctx.actor, { authorId: record.authorId, status });
    if (forceOf(ctx.query)) {
      // `?force=true`: a trashed record is deleted for good (CONTRACT §3), WordPress's answer.
      if (!mayTrash) throw forbidden(!!ctx.actor.user);
      if (record.status !== 'trash') throw notTrashed();
      const previous = this.queries.present(record, ctx, unlock, false);
      await this.purger.purgeRecords(kind, [record.id]);
      return { deleted: true, previous };
    }
    refuseTrash(mayTrash, ctx.actor, record, kind);
    await this.writes.run(async (scope) => {
      await leaveSite(scope, this.translations, record, {
        kind,
        scope: this.def.kind.translations,
        action: 'trashed',
        nowUtc: nowUtcSql(),
        remove: async () => {
          record.status = 'trash';
          this.touch(record, ctx);
          await this.repository.save(scope.manager, record);
        },
      });
    });
    return this.queries.present(record, ctx, unlock, false);
  }
  /**
   * Creates a record, or reuses a duplicate (BEHAVIOR §7.4.2): the first visible, non-trashed
   * record of the language with the same name (and description, if one is given), compared
   * case-insensitively. A reused record takes the given details (partially, CONTRACT §6) when the
   * caller may edit it, and is linked unchanged otherwise. No permission check: callers check.
   */
  /**
   * Creates the record of `input` in the write's transaction, or reuses its duplicate
   * (BEHAVIOR §7.4.2). Answers its id and, when it inserted a new record, that record as a read
   * would give it back (`inserted`): what the write's answer may embed without reading it again.
   * A new record's id takes `ahead`'s along (IdAhead: the event it is created with).
   */
  async createRecord(
    input: C,
    ctx: RequestContext,
    scope: WriteScope,
    ahead?: IdAhead,
  ): Promise<{ id: number; inserted?: E }> {
    const { manager } = scope;
    const nowUtc = nowUtcSql();
    // CONTRACT §6: HTML of writers without `unfiltered_html` is filtered to the allowlists.
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    const name = html.title(this.def.nameOf(input)!);
    const description =
      input.description === undefined ? undefined : html.content(input.description);
    // Parallel creations of one name run one after the other, so the second reuses the first
    // (the duplicate rule has no unique index to lean on).
    await lockKey(manager, `${this.def.kind.kind}:${ctx.language}:${name.toLowerCase()}`);
    // An explicit translation is always a new record: a same-named record of the language is
    // not reused for it (it would have to leave its own translations).
    const duplicate =
      input.translation_of === undefined
        ? await this.repository.findDuplicate(
            manager,
            name,
            description || undefined,
            ctx.language,
            ctx.actor,
            nowUtc,
          )
        : null;
    if (duplicate) {
      if (canEdit(ctx.actor, duplicate)) {
        if (input.image !== undefined) duplicate.imageUrl = input.image || null;
        if (input.password !== undefined) duplicate.password = input.password;
        this.def.applyDetails(duplicate, input, 'update');
        this.touch(duplicate, ctx, nowUtc);
        await this.repository.save(manager, duplicate);
        scope.changed(this.def.kind.kind, duplicate.id, 'updated', duplicate, {
          previousStatus: effectiveStatus(duplicate, nowUtc),
        });
      }
      return { id: duplicate.id };
    }

    const siteZone = ctx.config.siteTimezone;
    const record = this.def.newRecord();
    record.id = await this.repository.allocateId(manager, ahead);
    record.authorId = input.author ?? ctx.actor.user?.id ?? 0;
    record.title = name;
    record.description = description ?? '';
    record.excerpt = '';
    record.password = input.password ?? '';
    record.imageUrl = input.image || null;
    record.language = ctx.language;
    record.translationGroup = null;
    record.slug = null;
    const dates = publicationDates(input, siteZone);
    record.status = resolveWriteStatus(ctx.actor, input.status, dates?.dateUtc ?? nowUtc, nowUtc);
    record.date = dates?.date ?? utcToLocal(nowUtc, siteZone);
    // BEHAVIOR §7.1.2: drafts and pending records created without a date have no UTC date yet.
    record.dateUtc =
      dates?.dateUtc ?? (UNPUBLISHED_SLUGLESS.includes(record.status) ? null : nowUtc);
    this.touch(record, ctx, nowUtc);
    this.def.applyDetails(record, input, 'create');
    // WordPress gives drafts and pending posts no slug until they are published (§7.1.8).
    const slugged = !UNPUBLISHED_SLUGLESS.includes(record.status);
    await this.repository.insert(manager, record, slugged ? name : undefined);
    scope.changed(this.def.kind.kind, record.id, 'created', record);
    if (input.translation_of !== undefined) {
      record.translationGroup = await this.translations.join(
        manager,
        this.def.kind.translations,
        record.id,
        input.translation_of,
        record.language,
        viewerOf(ctx),
      );
    }
    return { id: record.id, inserted: this.repository.asReadBack(manager, record) };
  }
  /** Applies a partial update (CONTRACT §6); returns whether the record now needs a slug. */
  private applyUpdate(record: E, input: U, ctx: RequestContext): boolean {
    const nowUtc = nowUtcSql();
    const siteZone = ctx.config.siteTimezone;
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    const name = this.def.nameOf(input);
    if (name !== undefined) record.title = html.title(name);
    // BEHAVIOR §7.4.3: an empty description leaves it unchanged (it cannot be cleared).
    if (input.description) record.description = html.content(input.description);
    if (input.author !== undefined) record.authorId = input.author;
    if (input.password !== undefined) record.password = input.password;
    if (input.image !== undefined) record.imageUrl = input.image || null;
    const dates = publicationDates(input, siteZone);
    if (dates) {
      record.date = dates.date;
      record.dateUtc = dates.dateUtc;
    }
    // A trashed record leaves the trash only when a status is given (BEHAVIOR §7.2).
    if (input.status !== undefined || (dates && record.status !== 'trash')) {
      const requested =
        input.status ?? (isWritableStatus(record.status) ? record.status : undefined);
      record.status = resolveWriteStatus(ctx.actor, requested, record.dateUtc ?? nowUtc, nowUtc);
    }
    const published = !UNPUBLISHED_SLUGLESS.includes(record.status) && record.status !== 'trash';
    // §7.1.2: a draft published without a date is dated at its publication.
    if (published && record.dateUtc === null) {
      record.dateUtc = nowUtc;
      record.date = utcToLocal(nowUtc, siteZone);
    }
    this.def.applyDetails(record, input, 'update');
    this.touch(record, ctx, nowUtc);
    return published && !record.slug;
  }
  /**
   * CONTRACT §2: only editors and administrators create records of others; also for records
   * created inline by an event write (which writes nothing then: it runs in the transaction).
   */
  authorizeAuthor(input: LinkedWriteFields, ctx: RequestContext) {
    if (input.author !== undefined && !mayAttributeTo(ctx.actor, input.author)) {
      throw cannotCreateAs();
    }
  }
  private touch(record: E, ctx: RequestContext, nowUtc = nowUtcSql()) {
    record.modifiedUtc = nowUtc;
    record.modified = utcToLocal(nowUtc, ctx.config.siteTimezone);
  }
  /**
   * Checks that need the database or the caller, still 400s before the permission check.
   * `record` is the record an update changes (none on create).
   */
  async inputProblems(input: LinkedWriteFields, ctx: RequestContext, record?: E) {
    const problems: Record<string, Text> = {};
    if (input.author !== undefined && !(await this.users.exists(input.author))) {
      problems.author = t('validation.invalid');
    }
    // CONTRACT §6: the id of an image record links that image (its URL); an unknown id is a 400.
    input.image = (await this.repository.imageInput(input.image)) as string;
    if (input.image !== undefined && typeof input.image !== 'string') {
      problems.image = t('validation.invalid');
    }
    // BEHAVIOR §7.1.5: an image URL needs the upload right (author and above).
    if (input.image && !canUpload(ctx.actor)) problems.image = t('validation.invalid');
    // CONTRACT §5. Only the create DTO declares `translation_of`, only the update DTO `language`.
    const scope = this.def.kind.translations;
    if (input.translation_of !== undefined) {
      const problem = await this.translations.translationOfProblem(
        scope,
        input.translation_of,
        ctx.language,
        viewerOf(ctx),
      );
      if (problem) problems.translation_of = problem;
    }
    if (record && input.language !== undefined) {
      const problem = await this.translations.languageChangeProblem(
        scope,
        record,
        input.language,
        viewerOf(ctx),
      );
      if (problem) problems.language = problem;
    }
    return problems;
  }
  private async checkInput(input: LinkedWriteFields, ctx: RequestContext, record?: E) {
    const problems = await this.inputProblems(input, ctx, record);
    if (Object.keys(problems).length) throw invalidParams(problems);
  }
}
