import { Inject, Injectable } from '@nestjs/common';
import { canEdit, canPostUnfilteredHtml, mayAttributeTo } from '../auth/post-policy.js';
import { cannotUpdateAs, forbidden, invalidParams } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { contentFilter } from '../common/text/index.js';
import { nowUtcSql } from '../database/columns.js';
import { Writes, type WriteScope } from '../database/writes.js';
import { effectiveStatus } from '../posts/post-status.js';
import { savedInLanguage } from '../posts/language-move.js';
import { TranslationStore } from '../posts/translation-store.js';
import { EVENT_TRANSLATIONS } from '../posts/translations.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import type { EventEntity } from './event.entity.js';
import type { WrittenEvent } from './event.presenter.js';
import { EventWritePlanner, viewerOf, type LinkState, type WritePlan } from './event-write-plan.js';
import { applyUpdate, clockAt, slugBase, type WriteClock } from './event-write-rules.js';
import { EventsRepository } from './events.repository.js';
import { listedChange } from './listed-change.js';
import { OccurrencesRepository } from './series/occurrences.repository.js';
import { SeriesWrites } from './series/series-writes.js';
import { saveWriteFragments } from '../extensions/seams.js';

/**
 * The update of an existing event (BEHAVIOR §7.2, CONTRACT §5): the checks after validation
 * (`checkUpdate`) and the write of the row and its links in the caller's transaction
 * (`writeUpdate`); `updateEvent` is the two in a write of its own. Each answers what was written,
 * which the caller presents once (EventPresenter.presentWritten). An update addressed to an
 * occurrence takes its own way first (series/occurrence-writes.ts) and comes here with the event
 * it updates.
 */
@Injectable()
export class EventUpdates {
  constructor(
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
    private readonly writes: Writes,
    private readonly plans: EventWritePlanner,
    private readonly series: SeriesWrites,
    private readonly translations: TranslationStore,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'siteTimezone'>,
  ) {}

  /** Updates `existing` as `dto` says, once `plan` validated it; answers the event as written. */
  async updateEvent(
    existing: EventEntity,
    dto: UpdateEventDto,
    plan: WritePlan,
    ctx: RequestContext,
  ): Promise<WrittenEvent> {
    await this.checkUpdate(existing, dto, ctx);
    const clock = clockAt(this.config);
    let written: WrittenEvent | undefined;
    await this.writes.run(async (scope) => {
      written = await this.writeUpdate(scope, existing.id, dto, plan, ctx, clock);
    });
    return written!;
  }

  /** The checks of an update after its validation, in WordPress' order (a 400 before a 403). */
  async checkUpdate(existing: EventEntity, dto: UpdateEventDto, ctx: RequestContext) {
    // CONTRACT §5: a translation moves only to a language its group has no member in (a 400,
    // still before the permission check).
    if (dto.language !== undefined) {
      const problem = await this.translations.languageChangeProblem(
        EVENT_TRANSLATIONS,
        existing,
        dto.language,
        viewerOf(ctx),
      );
      if (problem) throw invalidParams({ language: problem });
    }
    if (!canEdit(ctx.actor, existing)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators give a record to another author.
    if (dto.author !== undefined && !mayAttributeTo(ctx.actor, dto.author)) throw cannotUpdateAs();
    await this.translations.assertMayMoveLanguage(
      EVENT_TRANSLATIONS,
      existing,
      dto.language,
      viewerOf(ctx),
    );
  }

  /**
   * The update of the event `id` in the write's transaction; answers the row as written, its
   * links and its first occurrence (the answer is built from them, not read back).
   */
  async writeUpdate(
    scope: WriteScope,
    id: number,
    dto: UpdateEventDto,
    plan: WritePlan,
    ctx: RequestContext,
    clock: WriteClock,
  ): Promise<WrittenEvent> {
    const { manager } = scope;
    // Re-read inside the transaction, the row locked until the commit, so that concurrent
    // updates never mix and what it was before this write is what the lists held.
    const event = (await this.events.findForUpdate(id, manager))!;
    const was: Readonly<EventEntity> = { ...event };
    const before: LinkState = {
      status: event.status,
      dateUtc: event.dateUtc,
      language: event.language,
    };
    const writer = { actor: ctx.actor, html: contentFilter(canPostUnfilteredHtml(ctx.actor)) };
    const { moving, movedSlug, reexpand } = applyUpdate(event, dto, plan, writer, clock);
    // As readers saw it: a scheduled event whose date has passed was published already.
    const previousStatus = effectiveStatus(before, nowUtcSql(clock.now));
    // A new series, or new dates of a series, give new occurrences (a 400 over a bound rolls the
    // whole write back); the translations that shared a changed series follow it.
    const mayEdit = (member: EventEntity) => canEdit(ctx.actor, member);
    await this.series.afterUpdate(
      scope,
      event,
      { reexpand, previous: was.recurrence, mayEdit },
      clock,
    );
    const venues = await this.plans.applyVenue(event, plan, ctx, scope);
    await savedInLanguage(moving, event.language, () => this.events.save(manager, event));
    await saveWriteFragments(plan.extensions, manager, event.id, false);
    // What of the links it sent changes: a whole-form save re-sends them as they are.
    const linkChanges = await this.plans.linkChanges(event, plan, scope);
    scope.changed('event', event.id, 'updated', event, {
      previousStatus,
      listed: listedChange(was, event, linkChanges),
    });
    const base = slugBase(event, dto.slug ?? movedSlug);
    if (base !== undefined) event.slug = await this.events.assignSlug(manager, event, base);
    const links = await this.plans.applyLinkChanges(event, linkChanges, ctx, scope, before);
    links.inserted = { ...links.inserted, venues };
    const first = event.recurrence ? await this.occurrences.firstOccurrence(id, manager) : null;
    return { event, links, first };
  }
}
