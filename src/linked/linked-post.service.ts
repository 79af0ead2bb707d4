import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Actor } from '../auth/actor.js';
import {
  canCreatePosts,
  canEdit,
  canPostUnfilteredHtml,
  canRead,
  canUpload,
  mayAttributeTo,
} from '../auth/post-policy.js';
import type { UsersService } from '../auth/users/users.service.js';
import { utcToLocal } from '../common/dates/index.js';
import {
  ApiError,
  cannotCreateAs,
  cannotUpdateAs,
  forbidden,
  invalidParam,
  invalidParams,
  t,
  type Text,
} from '../common/errors/api-error.js';
import { RecordCache } from '../database/record-cache.js';
import { nestedLimitError } from '../common/http/validation.js';
import type { RequestContext } from '../common/http/request-context.js';
import { buildArchive, pageOf, type Archive } from '../common/pagination/paginate.js';
import type { PostColumns } from '../common/posts/post-columns.js';
import {
  effectiveStatus,
  isWritableStatus,
  listStatuses,
  resolveWriteStatus,
  statusEcho,
  type PostStatus,
  type WritableStatus,
} from '../common/posts/post-status.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import type { TranslationStore } from '../common/posts/translation-store.js';
import {
  languageTakenReason,
  translationsForbidden,
  type Translations,
  type TranslationViewer,
} from '../common/posts/translations.js';
import type { Language } from '../config/config.js';
import { contentFilter } from '../common/text/index.js';
import { nowUtcSql } from '../database/columns.js';
import type { WriteScope, Writes } from '../database/writes.js';
import { lockKey } from '../database/write-lock.js';
import type { LinkedKind } from './linked-kind.js';
import type { MapContext, MapOptions } from './linked-mapper.js';
import type { LinkedPostRepository } from './linked-post.repository.js';
import { publicationDates, searchFragments, tolerantInline } from './linked-inputs.js';
import { INVALID, parseReferences } from './linked-references.js';
import { unlockOf, type Unlock } from './unlock.decorator.js';

/** The write fields venues and organizers share (BEHAVIOR §7.4.1, §7.5; CONTRACT §6). */
export interface LinkedWriteFields {
  author?: number;
  date?: string;
  date_utc?: string;
  description?: string;
  status?: WritableStatus;
  image?: string;
  password?: string;
  /** Create only: the record this one translates (CONTRACT §5). */
  translation_of?: number;
  /** Update only: the language to move the record to (CONTRACT §5). */
  language?: Language;
}

/** The list parameters venues and organizers share (BEHAVIOR §5.3). */
export interface LinkedListQuery {
  page?: number;
  per_page?: number;
  search?: string;
  event?: number;
  has_events?: boolean;
  only_with_upcoming?: boolean;
  status?: string | string[];
}

/** Create fields validated by the service of `kind` (opaque to callers; `applyPlan` reads them). */
export interface ValidatedCreateInput {
  kind: 'venue' | 'organizer';
  fields: LinkedWriteFields;
}

/**
 * One reference of an event's `venue`/`organizer` field, checked but not yet applied: an existing
 * record to link, or validated fields to create (or reuse, §7.4.2) a record from; `null` is
 * "no record" (skipped).
 */
export type LinkedPlanItem = { id: number } | { create: ValidatedCreateInput } | null;
export type LinkedPlan = LinkedPlanItem[];

const UNPUBLISHED_SLUGLESS: PostStatus[] = ['draft', 'pending'];

/**
 * Who may read a venue or organizer may link it to an event and see it embedded in one
 * (CONTRACT §6 "Linked records"), as it may read it by id (BEHAVIOR §6.2, CONTRACT §2).
 */
const readableBy = (actor: Actor, record: PostColumns, nowUtc: string) =>
  canRead(actor, { authorId: record.authorId, status: effectiveStatus(record, nowUtc) });

const viewerOf = (ctx: RequestContext): TranslationViewer => ({
  actor: ctx.actor,
  nowUtc: nowUtcSql(),
});

/**
 * The list / read / write / trash flow shared by venues and organizers (TEC:
 * Endpoints/Linked_Post_Base.php and the Single_Venue / Single_Organizer endpoints it serves).
 * Subclasses give the kind, the repository, the kind's own fields and the mapper.
 *
 * Order of checks, as WordPress (BEHAVIOR §1.1): parameters (the DTO pipe, then the id/slug and
 * the checks that need the database or the caller: author exists, image upload right), then
 * permission (401/403), then the handler's own errors (410, 404 past the last page).
 */
export abstract class LinkedPostService<
  E extends PostColumns,
  C extends LinkedWriteFields,
  U extends LinkedWriteFields,
> {
  protected abstract readonly kind: LinkedKind;
  /** The create DTO class, to validate inline records of events like `POST /{collection}`. */
  protected abstract readonly createDto: new () => C;
  /** Venues: one per event; organizers: a list (BEHAVIOR §7.1.3). */
  protected abstract readonly multiple: boolean;

  constructor(
    protected readonly writes: Writes,
    protected readonly translations: TranslationStore,
    protected readonly repository: LinkedPostRepository<E>,
    protected readonly users: UsersService,
    protected readonly cache: RecordCache,
  ) {}

  /** The TEC object of a record (pure mapper of the kind). */
  protected abstract toTec(
    record: E,
    ctx: MapContext,
    options: MapOptions,
  ): Record<string, unknown>;
  /** A new, empty record of the kind. */
  protected abstract newRecord(): E;
  /** The name field of a write (`venue` / `organizer`). */
  protected abstract nameOf(input: C | U): string | undefined;
  /**
   * Copies the kind's own fields from a write. `create` fills defaults for omitted ones; `update`
   * touches only the fields given (CONTRACT §6).
   */
  protected abstract applyDetails(record: E, input: C | U, mode: 'create' | 'update'): void;

  // ---------------------------------------------------------------------------------------------
  // Lists and reads

  async list(query: LinkedListQuery, ctx: RequestContext): Promise<Archive> {
    const statuses = listStatuses(ctx.actor, query.status);
    const invalid: Record<string, Text> = {};
    if (query.event !== undefined && !(await this.isEvent(query.event))) {
      invalid.event = t('validation.invalid');
    }
    if (!statuses) invalid.status = t('validation.invalid');
    if (Object.keys(invalid).length) throw invalidParams(invalid);

    const page = pageOf(query, ctx.config.maxPerPage);
    const nowUtc = nowUtcSql();
    const readAt = this.cache.version();
    const [ids, total] = await this.repository.list(
      {
        language: ctx.language,
        actor: ctx.actor,
        statuses: statuses!,
        nowUtc,
        search: query.search === undefined ? undefined : searchFragments(query.search),
        event: query.event,
        hasEvents: query.has_events,
        onlyWithUpcoming: query.only_with_upcoming,
      },
      page,
    );
    if (!ids.length && page.page > 1) {
      throw new ApiError(`${this.kind.kind}-archive-page-not-found`, 404);
    }
    const items = await this.presentMany(ids, ctx, unlockOf(ctx.query), false, readAt);
    const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
    return buildArchive({
      key: this.kind.collection,
      items,
      total,
      page,
      collectionUrl: `${ctx.restBase}/${this.kind.collection}`,
      // BEHAVIOR §5.1 Service note: every filter the client gave is echoed.
      query: {
        search: query.search,
        event: query.event,
        has_events: flag(query.has_events),
        only_with_upcoming: flag(query.only_with_upcoming),
        status: statusEcho(ctx.actor, query.status, statuses!),
      },
      layout: 'posts',
    });
  }

  async getById(id: number, ctx: RequestContext, unlock: Unlock) {
    const readAt = this.cache.version();
    return this.read(await this.mustFindById(id), ctx, unlock, readAt);
  }

  async getBySlug(slug: string, ctx: RequestContext, unlock: Unlock) {
    const readAt = this.cache.version();
    return this.read(await this.mustFindBySlug(slug, ctx), ctx, unlock, readAt);
  }

  /** BEHAVIOR §6.2: 403 `{kind}-not-accessible` when unpublished and not readable; never 403 for a password. */
  private async read(record: E, ctx: RequestContext, unlock: Unlock, readAt: number) {
    if (!readableBy(ctx.actor, record, nowUtcSql())) {
      throw new ApiError(`${this.kind.kind}-not-accessible`, 403);
    }
    const [item] = await this.presentMany([record], ctx, unlock, true, readAt);
    return item;
  }

  // ---------------------------------------------------------------------------------------------
  // Writes

  /** `POST /{collection}`: 201 with the new record, or with an existing duplicate (§7.4.2). */
  async create(input: C, ctx: RequestContext) {
    await this.checkInput(input, ctx);
    if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
    this.authorizeAuthor(input, ctx);
    const id = await this.writes.run((scope) => this.createRecord(input, ctx, scope));
    return this.presentOne(await this.mustFindById(id), ctx, unlockOf(ctx.query), false);
  }

  async updateById(id: number, input: U, ctx: RequestContext) {
    return this.update(await this.mustFindById(id), input, ctx);
  }

  async updateBySlug(slug: string, input: U, ctx: RequestContext) {
    return this.update(await this.mustFindBySlug(slug, ctx), input, ctx);
  }

  private async update(record: E, input: U, ctx: RequestContext) {
    await this.checkInput(input, ctx, record);
    if (!canEdit(ctx.actor, record)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators give a record to another author.
    if (input.author !== undefined && !mayAttributeTo(ctx.actor, input.author)) {
      throw cannotUpdateAs();
    }
    if (
      input.language !== undefined &&
      !(await this.translations.mayMoveLanguage(
        this.kind.translations,
        record,
        input.language,
        viewerOf(ctx),
      ))
    ) {
      throw translationsForbidden();
    }
    await this.writes.run(async ({ manager, changed }) => {
      changed(this.kind.kind, record.id, 'updated', record);
      // Slugs are unique per language: a moved record takes its slug along when it is free in
      // the new language, else the next free `slug-2`, ... (assigned after the save).
      const moving = input.language !== undefined && input.language !== record.language;
      const movedSlug = moving ? record.slug : null;
      if (moving) {
        record.language = input.language!;
        record.slug = null;
      }
      const needsSlug = this.applyUpdate(record, input, ctx);
      try {
        await this.repository.save(manager, record);
      } catch (error) {
        // A concurrent write gave the group a member in the new language first.
        if (moving && isUniqueViolation(error)) {
          throw invalidParams({ language: languageTakenReason(record.language) });
        }
        throw error;
      }
      if (movedSlug) {
        await this.repository.assignSlug(manager, record.id, movedSlug, record.language);
      } else if (needsSlug) {
        await this.repository.assignSlug(manager, record.id, record.title, record.language);
      }
    });
    return this.presentOne(await this.mustFindById(record.id), ctx, unlockOf(ctx.query), false);
  }

  async trashById(id: number, ctx: RequestContext, unlock: Unlock) {
    return this.trash(await this.mustFindById(id), ctx, unlock);
  }

  async trashBySlug(slug: string, ctx: RequestContext, unlock: Unlock) {
    return this.trash(await this.mustFindBySlug(slug, ctx), ctx, unlock);
  }

  /**
   * BEHAVIOR §7.4.4: DELETE moves to trash (the slug is kept, D10) and unlinks the record from
   * every event (D13), in one transaction; a second DELETE is 410.
   */
  private async trash(record: E, ctx: RequestContext, unlock: Unlock) {
    // WordPress checks delete rights of a trashed post against its status before the trash, which
    // for what a contributor may trash was draft/pending: so they get the 410, not a 403.
    const status = record.status === 'trash' ? 'draft' : record.status;
    if (!canEdit(ctx.actor, { authorId: record.authorId, status })) {
      throw forbidden(!!ctx.actor.user);
    }
    if (record.status === 'trash') throw new ApiError(`${this.kind.kind}-is-in-trash`, 410);
    await this.writes.run(async ({ manager, changed }) => {
      changed(this.kind.kind, record.id, 'trashed');
      record.status = 'trash';
      this.touch(record, ctx);
      await this.repository.save(manager, record);
      await this.repository.unlinkFromEvents(manager, record.id);
      // A trashed record is no translation any more; its translations stay linked (CONTRACT §5).
      await this.translations.leave(manager, this.kind.translations, record);
    });
    return this.present(record, ctx, unlock, false);
  }

  // ---------------------------------------------------------------------------------------------
  // For the events module

  /**
   * Objects of these ids for embedding in events, in ONE query (§4.4/§4.5 shape, redacted per
   * §4.11 when password protected; with json_ld when opts.jsonLd). Missing ids are absent from
   * the map, and so are records the caller may not read (CONTRACT §6 "Linked records": a private
   * venue of a published event is shown to whoever may read it, and left out for the others).
   * Records the caller holds as a write just left them (`written`) are not read again.
   */
  async embedMany(
    ids: number[],
    ctx: RequestContext,
    opts: { jsonLd: boolean },
    written: readonly E[] = [],
  ): Promise<Map<number, Record<string, unknown>>> {
    const mapCtx: MapContext = {
      siteUrl: ctx.siteUrl,
      nowUtc: nowUtcSql(),
      publicUrlTemplate: ctx.config.publicUrlTemplate,
    };
    const wanted = new Set(ids);
    const held = written.filter((record) => wanted.has(record.id));
    held.forEach((record) => wanted.delete(record.id));
    const read = wanted.size ? await this.repository.findByIds([...wanted]) : [];
    const records = [...held, ...read].filter((record) =>
      readableBy(ctx.actor, record, mapCtx.nowUtc),
    );
    const translations = await this.translationsOf(records, ctx, mapCtx.nowUtc);
    const out = new Map<number, Record<string, unknown>>();
    for (const record of records) {
      // BEHAVIOR §4.11: records embedded in an event are redacted whenever they are protected.
      const redact = record.password !== '';
      out.set(
        record.id,
        this.toTec(record, mapCtx, {
          jsonLd: opts.jsonLd && !redact,
          redact,
          translations: translations.get(record.id),
        }),
      );
    }
    return out;
  }

  /**
   * BEHAVIOR §7.1.3 validation only — no writes. Accepts an id, a numeric string, `{id}`, an
   * object of fields to create/reuse (duplicate rule), a list of those (organizers also a
   * comma-separated id string). Throws `invalidParam(venue|organizer)`, or
   * `could-not-create-venue` for several venues. Empty input gives an empty plan.
   * CONTRACT §6 "Linked records": only records the caller may read are linked; any other id is
   * the same 400 as an id of no record, so that the answer does not tell whether it exists.
   */
  async planReferences(input: unknown, ctx: RequestContext): Promise<LinkedPlan> {
    const field = this.kind.nameField;
    const refs = parseReferences(input, { csv: this.multiple });
    if (refs === INVALID) throw invalidParam(field);
    // Service (D11): a one-element list is that element; several venues are TEC's 400.
    if (!this.multiple && refs.length > 1) {
      throw new ApiError(`could-not-create-${this.kind.kind}`, 400);
    }
    const nowUtc = nowUtcSql();
    const existing = new Set(
      (await this.repository.findByIds(refs.flatMap((r) => ('id' in r ? [r.id] : []))))
        .filter((record) => readableBy(ctx.actor, record, nowUtc))
        .map((record) => record.id),
    );
    const plan: LinkedPlan = [];
    for (const ref of refs) {
      if ('id' in ref) {
        if (!existing.has(ref.id)) throw invalidParam(field);
        plan.push({ id: ref.id });
      } else {
        const fields = await this.validateInline(ref.fields, ctx);
        plan.push({ create: { kind: this.kind.kind, fields } });
      }
    }
    return plan;
  }

  /**
   * Executes a plan inside the caller's transaction: inline records go through the same create
   * path as `POST /{collection}` (duplicate rule, contributor statuses). Returns the linked ids in
   * order, duplicates removed.
   */
  async applyPlan(plan: LinkedPlan, ctx: RequestContext, scope: WriteScope) {
    const ids: number[] = [];
    for (const item of plan) {
      if (!item) continue;
      let id: number;
      if ('id' in item) id = item.id;
      else if (item.create.kind !== this.kind.kind) {
        throw new Error(`a ${item.create.kind} plan given to the ${this.kind.kind} service`);
      } else {
        this.authorizeAuthor(item.create.fields, ctx);
        id = await this.createRecord(item.create.fields as C, ctx, scope);
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /** Which of `ids` are records of this kind (any status, any language). */
  existingIds(ids: number[]): Promise<Set<number>> {
    return this.repository.existingIds(ids);
  }

  // ---------------------------------------------------------------------------------------------
  // Internals

  /**
   * Creates a record, or reuses a duplicate (BEHAVIOR §7.4.2): the first visible, non-trashed
   * record of the language with the same name (and description, if one is given), compared
   * case-insensitively. A reused record takes the given details (partially, CONTRACT §6) when the
   * caller may edit it, and is linked unchanged otherwise. No permission check: callers check.
   */
  protected async createRecord(input: C, ctx: RequestContext, scope: WriteScope) {
    const { manager } = scope;
    const nowUtc = nowUtcSql();
    // CONTRACT §6: HTML of writers without `unfiltered_html` is filtered to the allowlists.
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    const name = html.title(this.nameOf(input)!);
    const description =
      input.description === undefined ? undefined : html.content(input.description);
    // Parallel creations of one name run one after the other, so the second reuses the first
    // (the duplicate rule has no unique index to lean on).
    await lockKey(manager, `${this.kind.kind}:${ctx.language}:${name.toLowerCase()}`);
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
        this.applyDetails(duplicate, input, 'update');
        this.touch(duplicate, ctx, nowUtc);
        await this.repository.save(manager, duplicate);
        scope.changed(this.kind.kind, duplicate.id, 'updated', duplicate);
      }
      return duplicate.id;
    }

    const siteZone = ctx.config.siteTimezone;
    const record = this.newRecord();
    record.id = await this.repository.allocateId(manager);
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
    this.applyDetails(record, input, 'create');
    // WordPress gives drafts and pending posts no slug until they are published (§7.1.8).
    const slugged = !UNPUBLISHED_SLUGLESS.includes(record.status);
    await this.repository.insert(manager, record, slugged ? name : undefined);
    scope.changed(this.kind.kind, record.id, 'created', record);
    if (input.translation_of !== undefined) {
      record.translationGroup = await this.translations.join(
        manager,
        this.kind.translations,
        record.id,
        input.translation_of,
        record.language,
        viewerOf(ctx),
      );
    }
    return record.id;
  }

  /** Applies a partial update (CONTRACT §6); returns whether the record now needs a slug. */
  private applyUpdate(record: E, input: U, ctx: RequestContext): boolean {
    const nowUtc = nowUtcSql();
    const siteZone = ctx.config.siteTimezone;
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    const name = this.nameOf(input);
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
    this.applyDetails(record, input, 'update');
    this.touch(record, ctx, nowUtc);
    return published && !record.slug;
  }

  /**
   * CONTRACT §2: only editors and administrators create records of others; also for records
   * created inline by an event write (which writes nothing then: it runs in the transaction).
   */
  private authorizeAuthor(input: LinkedWriteFields, ctx: RequestContext) {
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
  private async inputProblems(input: LinkedWriteFields, ctx: RequestContext, record?: E) {
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
    const scope = this.kind.translations;
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

  /** An inline record of an event, validated like `POST /{collection}` (any failure → 400 on the field). */
  private async validateInline(fields: Record<string, unknown>, ctx: RequestContext): Promise<C> {
    // BEHAVIOR §1.3: inline records are not held to the routes' argument types.
    const input = plainToInstance(this.createDto, tolerantInline(fields));
    const errors = await validate(input as object, {
      whitelist: true,
      forbidUnknownValues: false,
      stopAtFirstError: true,
    });
    // A field over its limit says which limit (CONTRACT §4); other problems stay TEC's bare 400.
    if (errors.length)
      throw nestedLimitError(this.kind.nameField, errors) ?? invalidParam(this.kind.nameField);
    if (Object.keys(await this.inputProblems(input, ctx)).length) {
      throw invalidParam(this.kind.nameField);
    }
    return input;
  }

  private present(
    record: E,
    ctx: RequestContext,
    unlock: Unlock,
    jsonLd: boolean,
    nowUtc = nowUtcSql(),
    translations?: Translations,
  ): Record<string, unknown> {
    const redact = this.isLocked(record, ctx, unlock);
    return this.toTec(
      record,
      { siteUrl: ctx.siteUrl, nowUtc, publicUrlTemplate: ctx.config.publicUrlTemplate },
      // BEHAVIOR §4.9: no json_ld for a record the caller has not unlocked.
      { jsonLd: jsonLd && !redact, redact, translations },
    );
  }

  /** One record with its translations. */
  private async presentOne(record: E, ctx: RequestContext, unlock: Unlock, jsonLd: boolean) {
    const [item] = await this.presentMany([record], ctx, unlock, jsonLd);
    return item;
  }

  /**
   * Records with their translations, in order: from the RecordCache when a reader like this
   * one saw them since the last write, the others built together (one translations query);
   * those kept when `readAt` (RecordCache.version() before reading the rows) is given.
   */
  private async presentMany(
    records: E[] | number[],
    ctx: RequestContext,
    unlock: Unlock,
    jsonLd: boolean,
    readAt?: number,
  ): Promise<Record<string, unknown>[]> {
    const user = ctx.actor.user;
    // What a payload depends on besides the rows: who asks (translations, unlocking), with
    // which password or context, and json_ld.
    const variant = JSON.stringify([
      ctx.language,
      user ? `${user.id}:${user.role}` : '',
      unlock.password ?? null,
      unlock.edit,
      jsonLd,
    ]);
    const build = async (missing: E[]) => {
      const nowUtc = nowUtcSql();
      const translations = await this.translationsOf(missing, ctx, nowUtc);
      return new Map(
        missing.map((r) => [
          r.id,
          this.present(r, ctx, unlock, jsonLd, nowUtc, translations.get(r.id)),
        ]),
      );
    };
    // A page of a list gives ids: rows are read only for the payloads not cached (one query).
    return this.cache.page(
      this.kind.kind,
      records,
      variant,
      readAt,
      // Read after the page's ids: a record whose visibility changed in between is left out.
      async (ids) => {
        const nowUtc = nowUtcSql();
        return (await this.repository.findByIds(ids)).filter((r) =>
          readableBy(ctx.actor, r, nowUtc),
        );
      },
      build,
    );
  }

  /** The translations of a page of records that the caller may read, in one query. */
  private translationsOf(records: E[], ctx: RequestContext, nowUtc: string) {
    return this.translations.load(this.kind.translations, records, {
      actor: ctx.actor,
      nowUtc,
    });
  }

  /** BEHAVIOR §4.11: protected, and neither the right `password` nor `context=edit` by an editor of it. */
  private isLocked(record: E, ctx: RequestContext, unlock: Unlock): boolean {
    if (!record.password) return false;
    if (unlock.password === record.password) return false;
    return !(unlock.edit && canEdit(ctx.actor, record));
  }

  private async mustFindById(id: number): Promise<E> {
    const record = await this.repository.findById(id);
    // BEHAVIOR §6.2 / §1.6: an unknown id, or one of another kind, is a bad `id` (400).
    if (!record) throw invalidParam('id');
    return record;
  }

  private async mustFindBySlug(slug: string, ctx: RequestContext): Promise<E> {
    // Slugs are stored as WordPress keeps them: non-ASCII letters percent-encoded, lower case.
    const candidates = [...new Set([slug, encodeURIComponent(slug).toLowerCase()])];
    const record = await this.repository.findBySlug(candidates, ctx.language);
    if (!record) throw invalidParam('slug');
    return record;
  }

  private async isEvent(id: number): Promise<boolean> {
    return this.repository.isEvent(id);
  }
}
