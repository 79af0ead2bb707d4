import { Injectable } from '@nestjs/common';
import { canUpload } from '../auth/post-policy.js';
import { UsersService } from '../auth/users/users.service.js';
import { parseCostInput } from '../common/cost/cost.js';
import { invalidParams, t, type Text } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { URL_REASON } from '../common/http/validators.js';
import { isWebUrl } from '../common/http/web-url.js';
import {
  isRecurrenceProblem,
  parseRecurrence,
  type Recurrence,
} from '../common/recurrence/rules.js';
import { nowUtcSql } from '../database/columns.js';
import type { WriteScope } from '../database/writes.js';
import type { OrganizerEntity } from '../organizers/organizer.entity.js';
import { OrganizerEventLinks } from '../organizers/organizers.service.js';
import { type IdAhead, PostStore } from '../posts/post-store.js';
import { TranslationStore } from '../posts/translation-store.js';
import { EVENT_TRANSLATIONS, type TranslationViewer } from '../posts/translations.js';
import { EventTermLinks } from '../terms/event-term-links.js';
import { TAXONOMIES, type Taxonomy } from '../terms/taxonomy.js';
import type { VenueEntity } from '../venues/venue.entity.js';
import { VenueEventLinks } from '../venues/venues.service.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import type { EventEntity } from './event.entity.js';
import type { ParsedCost } from './event-write-rules.js';
import type { WrittenLinks } from './event.presenter.js';
import { EventsRepository } from './events.repository.js';
import { ExtensionRegistry } from '../extensions/registry.js';
import { validateWriteFragments, type WriteFragments } from '../extensions/seams.js';

type Plan = Awaited<ReturnType<VenueEventLinks['planReferences']>>;

/** Validated write input: everything checked before anything is written. */
export interface WritePlan {
  dto: CreateEventDto | UpdateEventDto;
  venuePlan?: Plan;
  organizerPlan?: Plan;
  categoryItems?: Array<number | string>;
  tagItems?: Array<number | string>;
  cost?: ParsedCost;
  /** The series the write sets (null: removes), when it carries `recurrence`. */
  recurrence?: Recurrence | null;
  /** The modules' fields of the write, validated (docs/extending.md). */
  extensions?: WriteFragments;
}

/** The reader a write's translation checks see. */
export const viewerOf = (ctx: RequestContext): TranslationViewer => ({
  actor: ctx.actor,
  nowUtc: nowUtcSql(),
});
/** The state an event's term links copy (status, publication date, language). */
export type LinkState = Pick<EventEntity, 'status' | 'dateUtc' | 'language'>;

/**
 * What every event write does around its row: the request checked whole before any permission
 * check or write (a WritePlan), then, in the write's transaction, the venue put into the row and
 * the organizers, terms and the terms' state copies written beside it.
 */
@Injectable()
export class EventWritePlanner {
  constructor(
    private readonly events: EventsRepository,
    private readonly translations: TranslationStore,
    private readonly posts: PostStore,
    private readonly users: UsersService,
    private readonly venues: VenueEventLinks,
    private readonly organizers: OrganizerEventLinks,
    private readonly terms: EventTermLinks,
    private readonly extensions: ExtensionRegistry,
  ) {}

  /** Everything a write is checked against, before any permission check or write (§1.1). */
  async validate(
    dto: CreateEventDto | UpdateEventDto,
    ctx: RequestContext,
    occurrence = false,
  ): Promise<WritePlan> {
    const errors: Record<string, Text> = {};
    const invalid = t('validation.invalid');
    if (dto.author !== undefined && !(await this.users.exists(dto.author))) errors.author = invalid;
    // CONTRACT §6: the id of an image record links that image (its URL).
    dto.image = await this.posts.imageInput(dto.image);
    if (dto.image !== undefined && dto.image !== '' && dto.image !== null) {
      // CONTRACT §6: a URL only (no media library), and only for roles that may upload.
      if (!isWebUrl(dto.image)) {
        errors.image =
          typeof dto.image === 'string' && !/^\d+$/.test(dto.image)
            ? t(URL_REASON, { name: 'image' })
            : invalid;
      } else if (!canUpload(ctx.actor)) errors.image = invalid;
    }
    const plan: WritePlan = { dto };
    if (dto.recurrence !== undefined) {
      const recurrence = parseRecurrence(dto.recurrence);
      if (isRecurrenceProblem(recurrence)) errors.recurrence = recurrence;
      else plan.recurrence = recurrence;
    }
    // CONTRACT §9: `single` and `upcoming` apply to an occurrence (its provisional id); a single
    // occurrence made an event of its own takes no series.
    const updateType = (dto as UpdateEventDto)._tec_update_type;
    if (updateType && updateType !== 'all' && !occurrence) {
      errors._tec_update_type = t('recurrence.not_an_occurrence', { value: updateType });
    } else if (updateType === 'single' && plan.recurrence) {
      errors.recurrence = t('recurrence.single_takes_none');
    }
    if (dto.cost !== undefined) {
      const cost = parseCostInput(dto.cost);
      if (cost) plan.cost = cost;
      else errors.cost = invalid;
    }
    // Only the create DTO declares it (the pipe strips it from updates).
    const translationOf = (dto as CreateEventDto).translation_of;
    if (translationOf !== undefined) {
      const problem = await this.translations.translationOfProblem(
        EVENT_TRANSLATIONS,
        translationOf,
        ctx.language,
        viewerOf(ctx),
      );
      if (problem) errors.translation_of = problem;
    }
    // The modules' fields, checked with the rest of the request (one 400 for all).
    const details: NonNullable<Parameters<typeof invalidParams>[1]> = {};
    const fragments = await validateWriteFragments(this.extensions, ctx.body, errors, details);
    if (fragments.length) plan.extensions = fragments;
    if (Object.keys(errors).length) throw invalidParams(errors, details);
    if (dto.categories !== undefined)
      plan.categoryItems = this.terms.validateWriteItems('categories', dto.categories);
    if (dto.tags !== undefined) plan.tagItems = this.terms.validateWriteItems('tags', dto.tags);
    if (dto.venue !== undefined) plan.venuePlan = await this.venues.planReferences(dto.venue, ctx);
    if (dto.organizer !== undefined)
      plan.organizerPlan = await this.organizers.planReferences(dto.organizer, ctx);
    return plan;
  }

  /**
   * The venue (linked or created inline) goes into the row itself: before it is written. A venue
   * created here takes the new event's id along (`ahead`), numbered before it.
   */
  async applyVenue(
    event: EventEntity,
    plan: WritePlan,
    ctx: RequestContext,
    scope: WriteScope,
    ahead?: IdAhead,
  ): Promise<VenueEntity[]> {
    if (!plan.venuePlan) return [];
    const { ids, inserted } = await this.venues.applyPlan(plan.venuePlan, ctx, scope, ahead);
    event.venueId = ids[0] ?? null;
    return inserted;
  }

  /**
   * A new event's organizers, terms and the terms' state copies, in the write's transaction (row
   * written), with its state. Answers its organizers (set now, or none) and its embedded terms
   * when it knows them (EventTermLinks.resolveListsForNewEvent).
   */
  async applyLinks(
    event: EventEntity,
    plan: WritePlan,
    ctx: RequestContext,
    scope: WriteScope,
  ): Promise<WrittenLinks> {
    const { manager } = scope;
    let organizerIds: number[] = [];
    let organizers: OrganizerEntity[] | undefined;
    if (plan.organizerPlan) {
      ({ ids: organizerIds, inserted: organizers } = await this.organizers.applyPlan(
        plan.organizerPlan,
        ctx,
        scope,
      ));
      await this.events.setOrganizers(event.id, organizerIds, manager, true);
    }
    const { ids, terms } = await this.terms.resolveListsForNewEvent(
      termLists(plan),
      event,
      scope,
      ctx,
    );
    // A created event's links of both taxonomies go in one statement.
    await this.events.addTerms(manager, event, ids.flat());
    await this.terms.linksCreated(manager, ids.flat(), event);
    return { organizerIds, terms, inserted: { organizers } };
  }

  /**
   * What an update changes of an event's links, in the write's transaction: the organizers and
   * term lists it sent, less those equal to what the event carries (a whole-form save re-sends
   * them unchanged; docs/caches.md: a write invalidates by what changed, not by what was sent).
   * Terms named by name or slug are resolved (created when new) here. `event` is in its
   * language after the write.
   */
  async linkChanges(event: EventEntity, plan: WritePlan, scope: WriteScope): Promise<LinkChanges> {
    const { manager } = scope;
    const changes: LinkChanges = { terms: [] };
    const organizers = plan.organizerPlan;
    if (organizers) {
      // Only links to existing records can be the same; an inline record is written anyway.
      const sent = organizers.every((item) => !item || 'id' in item)
        ? [...new Set(organizers.flatMap((item) => (item && 'id' in item ? [item.id] : [])))]
        : undefined;
      const carried = sent && (await this.events.organizerIds([event.id], manager)).get(event.id);
      if (sent && carried && sameList(sent, carried)) changes.organizerIds = carried;
      else changes.organizerPlan = organizers;
    }
    const lists = termLists(plan);
    if (!lists.length) return changes;
    const resolved = await this.terms.resolveListsForWrite(lists, event.language, scope);
    const carried = await this.events.termIdsByTaxonomy(manager, event.id);
    changes.carried = [...carried.values()].flat();
    for (const [i, [taxonomy]] of lists.entries()) {
      const before = carried.get(TAXONOMIES[taxonomy].wpName) ?? [];
      if (!sameSet(resolved[i], before)) changes.terms.push([taxonomy, resolved[i]]);
    }
    return changes;
  }

  /**
   * An updated event's links as they change (linkChanges), in the write's transaction (row
   * written): organizers and terms replaced where they changed, and the terms' copies of the
   * event's state and their counts taken again when the links or the state they copy (`before`)
   * changed. Answers the event's organizers when it knows them.
   */
  async applyLinkChanges(
    event: EventEntity,
    changes: LinkChanges,
    ctx: RequestContext,
    scope: WriteScope,
    before: LinkState,
  ): Promise<WrittenLinks> {
    const { manager } = scope;
    let organizerIds = changes.organizerIds;
    let organizers: OrganizerEntity[] | undefined;
    if (changes.organizerPlan) {
      let ids: number[];
      ({ ids, inserted: organizers } = await this.organizers.applyPlan(
        changes.organizerPlan,
        ctx,
        scope,
      ));
      organizerIds = ids;
      await this.events.setOrganizers(event.id, ids, manager, false);
    }
    const moved = before.status !== event.status || before.language !== event.language;
    // The links copy the event's state; terms count the links of published events: when the
    // event was or is published and its links or their state change, the counts of the terms
    // it carried and carries are taken again.
    const relinked = changes.terms.length > 0;
    const recount =
      (before.status === 'publish' || event.status === 'publish') && (moved || relinked);
    const carried = recount
      ? (changes.carried ?? (await this.events.termIdsOf(manager, event.id)))
      : [];
    for (const [taxonomy, ids] of changes.terms) {
      await this.events.setTerms(manager, event.id, TAXONOMIES[taxonomy].wpName, ids);
    }
    if (moved || before.dateUtc !== event.dateUtc || relinked) {
      await this.events.syncTermLinks(manager, event);
    }
    if (recount) {
      await this.terms.linksChanged(manager, [
        ...carried,
        ...changes.terms.flatMap(([, ids]) => ids),
      ]);
    }
    return { organizerIds, inserted: { organizers } };
  }
}

/** What an update changes of an event's links (EventWritePlanner.linkChanges). */
export interface LinkChanges {
  /** The organizers sent, when they differ from the event's (or create a record). */
  organizerPlan?: Plan;
  /** The event's organizers, in order, when the write re-sent them unchanged. */
  organizerIds?: number[];
  /** Each taxonomy whose terms change, with the ids the event carries after the write. */
  terms: Array<[Taxonomy, number[]]>;
  /** The ids of every term the event carried before, when they were read. */
  carried?: number[];
}

/** The term lists a write sends, by taxonomy. */
function termLists(plan: WritePlan): Array<[Taxonomy, Array<number | string>]> {
  const lists: Array<[Taxonomy, Array<number | string>]> = [];
  if (plan.categoryItems) lists.push(['category', plan.categoryItems]);
  if (plan.tagItems) lists.push(['tag', plan.tagItems]);
  return lists;
}

const sameList = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

const sameSet = (a: readonly number[], b: readonly number[]) => {
  const set = new Set(b);
  return new Set(a).size === set.size && a.every((id) => set.has(id));
};
