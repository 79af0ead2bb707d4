import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { dependsOn, recordTag } from '../cache/dependencies.js';
import { ApiError, invalidParam } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { nestedLimitError } from '../common/http/validation.js';
import type { PostColumns } from '../posts/post-columns.js';
import type { IdAhead } from '../posts/post-store.js';
import { nowUtcSql } from '../database/columns.js';
import type { WriteScope } from '../database/writes.js';
import { readableBy } from './linked-access.js';
import type { LinkedDefinition, LinkedPlan, LinkedWriteFields } from './linked-definition.js';
import { tolerantInline } from './linked-inputs.js';
import type { MapContext } from './linked-mapper.js';
import type { LinkedEventUsage } from './linked-event-usage.js';
import type { LinkedPostRepository } from './linked-post.repository.js';
import type { LinkedQueries } from './linked-queries.js';
import { INVALID, parseReferences } from './linked-references.js';
import type { LinkedWrites } from './linked-writes.js';

/**
 * The events module's door into venues and organizers: the records an event embeds, the
 * references an event write names (checked first, then applied in the write's transaction through
 * the same create path as `POST /{collection}`), and the existence checks of the list filters.
 */
export class LinkedEventLinks<
  E extends PostColumns,
  C extends LinkedWriteFields,
  U extends LinkedWriteFields,
  P extends object = object,
> {
  constructor(
    protected readonly def: LinkedDefinition<E, C, U, P>,
    protected readonly queries: LinkedQueries<E, C, U, P>,
    protected readonly writer: LinkedWrites<E, C, U, P>,
    protected readonly repository: LinkedPostRepository<E>,
  ) {}

  /** Called once by the events module: its answer to this kind's list filters on events. */
  usedByEvents(usage: LinkedEventUsage): void {
    this.repository.usedByEvents(usage);
  }

  /**
   * Objects of these ids for embedding in events, in ONE query (§4.4/§4.5 shape, redacted per
   * §4.11 when password protected; with json_ld when opts.jsonLd). Missing ids are absent from
   * the map, and so are records the caller may not read (CONTRACT §6 "Linked records": a private
   * venue of a published event is shown to whoever may read it, and left out for the others).
   * `written`: records of these ids that a write which just committed inserted, as a read gives
   * them back (createRecord's `inserted`): not read again.
   */
  async embedMany(
    ids: number[],
    ctx: RequestContext,
    opts: { jsonLd: boolean },
    written: readonly E[] = [],
  ): Promise<Map<number, P>> {
    // An event's payload shows these records as they are: it depends on each (docs/caches.md).
    dependsOn(ids.map((id) => recordTag(this.def.kind.kind, id)));
    const mapCtx: MapContext = {
      siteUrl: ctx.siteUrl,
      nowUtc: nowUtcSql(),
      publicUrlTemplate: ctx.config.publicUrlTemplate,
    };
    const known = written.filter((record) => ids.includes(record.id));
    const unknown = [...new Set(ids)].filter((id) => !known.some((record) => record.id === id));
    const read = [...known, ...(await this.repository.findByIds(unknown))];
    const records = read.filter((record) => readableBy(ctx.actor, record, mapCtx.nowUtc));
    const translations = await this.queries.translationsOf(records, ctx, mapCtx.nowUtc);
    const out = new Map<number, P>();
    for (const record of records) {
      // BEHAVIOR §4.11: records embedded in an event are redacted whenever they are protected.
      const redact = record.password !== '';
      out.set(
        record.id,
        this.def.toTec(record, mapCtx, {
          jsonLd: opts.jsonLd && !redact,
          redact,
          translations: translations.get(record.id),
        }),
      );
    }
    // The modules' fields, as the venue's or organizer's own payload shows them.
    await this.queries.contribute(
      out,
      records,
      ctx,
      (record) => record.password !== '',
      ctx.query.context === 'edit',
    );
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
    const field = this.def.kind.nameField;
    const refs = parseReferences(input, { csv: this.def.multiple });
    if (refs === INVALID) throw invalidParam(field);
    // Service (D11): a one-element list is that element; several venues are TEC's 400.
    if (!this.def.multiple && refs.length > 1) {
      throw new ApiError(`could-not-create-${this.def.kind.kind}`, 400);
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
        plan.push({ create: { kind: this.def.kind.kind, fields } });
      }
    }
    return plan;
  }
  /**
   * Executes a plan inside the caller's transaction: inline records go through the same create
   * path as `POST /{collection}` (duplicate rule, contributor statuses). Returns the linked ids in
   * order, duplicates removed, and the records it inserted as a read gives them back
   * (`inserted`, for the write's answer: embedMany's `written`). The first record it inserts
   * takes `ahead`'s id along (IdAhead).
   */
  async applyPlan(
    plan: LinkedPlan,
    ctx: RequestContext,
    scope: WriteScope,
    ahead?: IdAhead,
  ): Promise<{ ids: number[]; inserted: E[] }> {
    const ids: number[] = [];
    const inserted: E[] = [];
    for (const item of plan) {
      if (!item) continue;
      let id: number;
      if ('id' in item) id = item.id;
      else if (item.create.kind !== this.def.kind.kind) {
        throw new Error(`a ${item.create.kind} plan given to the ${this.def.kind.kind} service`);
      } else {
        this.writer.authorizeAuthor(item.create.fields, ctx);
        const created = await this.writer.createRecord(item.create.fields as C, ctx, scope, ahead);
        id = created.id;
        if (created.inserted) inserted.push(created.inserted);
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return { ids, inserted };
  }
  /** Which of `ids` are records of this kind (any status, any language). */
  existingIds(ids: number[]): Promise<Set<number>> {
    return this.repository.existingIds(ids);
  }
  /** An inline record of an event, validated like `POST /{collection}` (any failure → 400 on the field). */
  private async validateInline(fields: Record<string, unknown>, ctx: RequestContext): Promise<C> {
    // BEHAVIOR §1.3: inline records are not held to the routes' argument types.
    const input = plainToInstance(this.def.createDto, tolerantInline(fields));
    const errors = await validate(input as object, {
      whitelist: true,
      forbidUnknownValues: false,
      stopAtFirstError: true,
    });
    // A field over its limit says which limit (CONTRACT §4); other problems stay TEC's bare 400.
    if (errors.length)
      throw (
        nestedLimitError(this.def.kind.nameField, errors) ?? invalidParam(this.def.kind.nameField)
      );
    if (Object.keys(await this.writer.inputProblems(input, ctx)).length) {
      throw invalidParam(this.def.kind.nameField);
    }
    return input;
  }
}
