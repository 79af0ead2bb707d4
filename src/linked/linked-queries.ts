import { canEdit } from '../auth/post-policy.js';
import { ApiError, invalidParams, t, type Text } from '../common/errors/api-error.js';
import { invalidParam } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { buildArchive, pageOf, type Archive } from '../common/pagination/paginate.js';
import type { PostColumns } from '../posts/post-columns.js';
import { listStatuses, statusEcho } from '../posts/post-status.js';
import type { TranslationStore } from '../posts/translation-store.js';
import type { Translations } from '../common/payload/tec-payload.js';
import { nowUtcSql } from '../database/columns.js';
import type { RecordCache } from '../cache/record-cache.js';
import type { ExtensionRegistry } from '../extensions/registry.js';
import { contributePayloads } from '../extensions/seams.js';
import { readableBy } from './linked-access.js';
import type { LinkedDefinition, LinkedListQuery, LinkedWriteFields } from './linked-definition.js';
import { searchFragments } from './linked-inputs.js';
import type { LinkedPostRepository } from './linked-post.repository.js';
import { unlockOf, type Unlock } from './unlock.decorator.js';

/**
 * What readers of venues and organizers see (TEC: Endpoints/Linked_Post_Base.php and the
 * Single_Venue / Single_Organizer endpoints): lists and single records, presented from the
 * RecordCache while a payload is current, redacted while protected. Order of checks, as WordPress
 * (BEHAVIOR §1.1): parameters, then the checks that need the database, then permission, then the
 * handler's own errors (404 past the last page).
 */
export class LinkedQueries<
  E extends PostColumns,
  C extends LinkedWriteFields = LinkedWriteFields,
  U extends LinkedWriteFields = LinkedWriteFields,
  P extends object = object,
> {
  constructor(
    protected readonly def: LinkedDefinition<E, C, U, P>,
    protected readonly repository: LinkedPostRepository<E>,
    protected readonly translations: TranslationStore,
    protected readonly cache: RecordCache,
    /** The modules' payload fields of the kind (tribe_rest_venue_data, tribe_rest_organizer_data). */
    protected readonly extensions: ExtensionRegistry,
  ) {}

  async list(query: LinkedListQuery, ctx: RequestContext): Promise<Archive<P>> {
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
      throw new ApiError(`${this.def.kind.kind}-archive-page-not-found`, 404);
    }
    const items = await this.presentMany(ids, ctx, unlockOf(ctx.query), false, readAt);
    const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
    return buildArchive({
      key: this.def.kind.collection,
      items,
      total,
      page,
      collectionUrl: `${ctx.restBase}/${this.def.kind.collection}`,
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
      throw new ApiError(`${this.def.kind.kind}-not-accessible`, 403);
    }
    const [item] = await this.presentMany([record], ctx, unlock, true, readAt);
    return item;
  }
  present(
    record: E,
    ctx: RequestContext,
    unlock: Unlock,
    jsonLd: boolean,
    nowUtc = nowUtcSql(),
    translations?: Translations,
  ): P {
    const redact = this.isLocked(record, ctx, unlock);
    return this.def.toTec(
      record,
      { siteUrl: ctx.siteUrl, nowUtc, publicUrlTemplate: ctx.config.publicUrlTemplate },
      // BEHAVIOR §4.9: no json_ld for a record the caller has not unlocked.
      { jsonLd: jsonLd && !redact, redact, translations },
    );
  }
  /** One record with its translations. */
  async presentOne(record: E, ctx: RequestContext, unlock: Unlock, jsonLd: boolean) {
    const [item] = await this.presentMany([record], ctx, unlock, jsonLd);
    return item;
  }
  /**
   * Records with their translations, in order: from the RecordCache when a reader like this
   * one saw them since the last write, the others built together (one translations query);
   * those kept when `readAt` (RecordCache.version() before reading the rows) is given.
   */
  async presentMany(
    records: E[] | number[],
    ctx: RequestContext,
    unlock: Unlock,
    jsonLd: boolean,
    readAt?: number,
  ): Promise<P[]> {
    // A page of a list gives ids: rows are read only for the payloads not cached (one query).
    return this.cache.page<E, P>(
      this.def.kind.kind,
      records,
      this.variantOf(ctx, unlock, jsonLd),
      readAt,
      (ids) => this.readableRows(ids, ctx),
      (missing) => this.build(missing, ctx, unlock, jsonLd),
    );
  }
  /**
   * `getById` of each of `ids` for one reader, by id: those the reader may not read (missing,
   * of another kind, not readable) are left out. The payloads the RecordCache keeps as they
   * are, the others read and built together: a fixed number of queries, whatever the number.
   */
  async getMany(
    ids: readonly number[],
    ctx: RequestContext,
    unlock: Unlock,
  ): Promise<Map<number, P>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const readAt = this.cache.version();
    const payloads = await this.cache.payloads(
      this.def.kind.kind,
      unique,
      this.variantOf(ctx, unlock, true),
      readAt,
      async (missing) => this.build(await this.readableRows(missing, ctx), ctx, unlock, true),
    );
    const out = new Map<number, P>();
    unique.forEach((id, i) => {
      const payload = payloads[i];
      if (payload !== undefined) out.set(id, payload);
    });
    return out;
  }
  /** The records `ids` that exist and the reader may read, read now (one query). */
  private async readableRows(ids: number[], ctx: RequestContext): Promise<E[]> {
    // Read after a page's ids: a record whose visibility changed in between is left out.
    const nowUtc = nowUtcSql();
    return (await this.repository.findByIds(ids)).filter((r) => readableBy(ctx.actor, r, nowUtc));
  }
  /** The payloads of `records`, with their translations (one query). */
  private async build(records: E[], ctx: RequestContext, unlock: Unlock, jsonLd: boolean) {
    const nowUtc = nowUtcSql();
    const translations = await this.translationsOf(records, ctx, nowUtc);
    const built = new Map(
      records.map((r) => [
        r.id,
        this.present(r, ctx, unlock, jsonLd, nowUtc, translations.get(r.id)),
      ]),
    );
    await this.contribute(built, records, ctx, (r) => this.isLocked(r, ctx, unlock), unlock.edit);
    return built;
  }
  /**
   * The modules' fields of the payloads `built` of `records` (docs/extending.md), for the whole
   * page at once: a locked record shows the protected values; `edit`: the reader asked for
   * `context=edit` (an editors-only field shows to a reader who may edit the record).
   */
  async contribute(
    built: Map<number, P>,
    records: readonly E[],
    ctx: RequestContext,
    locked: (record: E) => boolean,
    edit: boolean,
  ): Promise<void> {
    const byId = new Map(records.map((r) => [r.id, r]));
    await contributePayloads(
      this.extensions,
      this.def.kind.kind,
      built,
      {
        locked: (id) => locked(byId.get(id)!),
        editing: (id) => edit && canEdit(ctx.actor, byId.get(id)!),
      },
      ctx,
    );
  }
  /** The cache variant; a module's field of one namespace makes the namespace part of it. */
  private variantOf(ctx: RequestContext, unlock: Unlock, jsonLd: boolean): string {
    const perNamespace = this.extensions
      .payload(this.def.kind.kind)
      .some((c) =>
        Object.values(c.fields as Record<string, { namespaces?: unknown }>).some(
          (f) => f.namespaces,
        ),
      );
    return variantOf(ctx, unlock, jsonLd, perNamespace);
  }
  /** The translations of a page of records that the caller may read, in one query. */
  translationsOf(records: E[], ctx: RequestContext, nowUtc: string) {
    return this.translations.load(this.def.kind.translations, records, {
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
  async mustFindById(id: number): Promise<E> {
    const record = await this.repository.findById(id);
    // BEHAVIOR §6.2 / §1.6: an unknown id, or one of another kind, is a bad `id` (400).
    if (!record) throw invalidParam('id');
    return record;
  }
  async mustFindBySlug(slug: string, ctx: RequestContext): Promise<E> {
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

/**
 * What a payload depends on besides the rows: the language, who asks (translations, unlocking),
 * with which password or context, and json_ld.
 */
function variantOf(
  ctx: RequestContext,
  unlock: Unlock,
  jsonLd: boolean,
  perNamespace: boolean,
): string {
  const user = ctx.actor.user;
  return JSON.stringify([
    perNamespace ? ctx.restBase : '',
    ctx.language,
    user ? `${user.id}:${user.role}` : '',
    unlock.password ?? null,
    unlock.edit,
    jsonLd,
  ]);
}
