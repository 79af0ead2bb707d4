import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { I18nService } from 'nestjs-i18n';
import { DataSource, EntityManager } from 'typeorm';
import {
  canCreatePosts,
  canEdit,
  canPostUnfilteredHtml,
  canRead,
  canUpload,
  mayAttributeTo,
} from '../auth/post-policy.js';
import { UsersService } from '../auth/users/users.service.js';
import { parseCostInput } from '../common/cost/cost.js';
import { eventWallClock, localToUtc, utcToLocal } from '../common/dates/index.js';
import {
  ApiError,
  cannotCreateAs,
  cannotUpdateAs,
  forbidden,
  invalidParams,
  t,
  type Text,
} from '../common/errors/api-error.js';
import { isTruthy, toBoolean } from '../common/http/transforms.js';
import type { RequestContext } from '../common/http/request-context.js';
import { isHttpUrl } from '../common/http/validators.js';
import { contentFilter } from '../common/text/index.js';
import { buildArchive, pageOf, type Archive } from '../common/pagination/paginate.js';
import { imageIdFor } from '../common/posts/images.js';
import { resolveImageInput } from '../common/posts/image-ids.js';
import { allocatePostId, postKindOf } from '../common/posts/post-ids.js';
import {
  effectiveStatus,
  listStatuses,
  resolveWriteStatus,
  statusEcho,
} from '../common/posts/post-status.js';
import { assignUniqueSlug, isUniqueViolation } from '../common/posts/slugs.js';
import {
  EVENT_TRANSLATIONS,
  joinTranslations,
  languageChangeProblem,
  languageTakenReason,
  leaveTranslations,
  loadTranslations,
  mayMoveLanguage,
  translationOfProblem,
  translationsForbidden,
  type TranslationViewer,
} from '../common/posts/translations.js';
import { nowUtcSql } from '../database/columns.js';
import { writeTransaction } from '../database/transaction.js';
import { OrganizersService } from '../organizers/organizers.service.js';
import { TermsService } from '../terms/terms.service.js';
import { VenuesService } from '../venues/venues.service.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import type { ListEventsQuery } from './dto/list-events.query.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import { EventEntity } from './event.entity.js';
import { dateWindow, parseCoordinate, parseSearch, type EventFilters } from './event-filters.js';
import type { Geofence } from './geofence.js';
import { toTecEvent, type EventLinks } from './event.mapper.js';
import { EventsRepository } from './events.repository.js';

type Plan = Awaited<ReturnType<VenuesService['planReferences']>>;

/** Validated write input: everything checked before anything is written. */
interface WritePlan {
  dto: CreateEventDto | UpdateEventDto;
  venuePlan?: Plan;
  organizerPlan?: Plan;
  categoryItems?: Array<number | string>;
  tagItems?: Array<number | string>;
  cost?: ReturnType<typeof parseCostInput>;
}

const notFound = (id: number) =>
  new ApiError('rest-event-not-found', 404, {}, t('errors.rest-event-not-found', { id }));
const notAnEvent = () => new ApiError('rest-invalid-event-id', 400);
const viewerOf = (ctx: RequestContext): TranslationViewer => ({
  actor: ctx.actor,
  nowUtc: nowUtcSql(),
});

/**
 * The events of BEHAVIOR §5.2, §6.1 and §7.1-7.3 under CONTRACT.md: validate, authorize, apply
 * the plugin's rules, write in one transaction, map.
 */
@Injectable()
export class EventsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly events: EventsRepository,
    private readonly users: UsersService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly terms: TermsService,
    private readonly i18n: I18nService,
  ) {}

  // ---------------------------------------------------------------- lists

  async list(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
  ): Promise<Archive> {
    const errors: Record<string, Text> = {};
    const details: NonNullable<ConstructorParameters<typeof ApiError>[2]>['details'] = {};
    const filters: EventFilters = { statuses: [] };

    if (query.categories) {
      const ids = await this.terms.resolveFilter('category', query.categories, ctx.language);
      if (ids) filters.categoryIds = ids;
      else errors.categories = t('validation.invalid');
    }
    if (query.tags) {
      const ids = await this.terms.resolveFilter('tag', query.tags, ctx.language);
      if (ids) filters.tagIds = ids;
      else errors.tags = t('validation.invalid');
    }
    if (query.venue) {
      const found = await this.venues.existingIds(query.venue);
      if (query.venue.every((id) => found.has(id))) filters.venueIds = query.venue;
      else errors.venue = t('validation.invalid');
    }
    if (query.organizer) {
      const found = await this.organizers.existingIds(query.organizer);
      if (query.organizer.every((id) => found.has(id))) filters.organizerIds = query.organizer;
      else errors.organizer = t('validation.invalid');
    }
    const statuses = listStatuses(ctx.actor, query.status);
    if (statuses) filters.statuses = statuses;
    else errors.status = t('validation.invalid');
    if (query.post_parent !== undefined) {
      if ((await postKindOf(this.ds.manager, query.post_parent)) === 'event')
        filters.postParent = query.post_parent;
      else errors.post_parent = t('validation.invalid');
    }
    if (query.ticketed !== undefined) {
      // BEHAVIOR §5.2.7: a truthy value is rejected before the type check; false has no effect.
      if (isTruthy(query.ticketed)) {
        const reason = t('errors.event-tickets-not-active');
        errors.ticketed = reason;
        details.ticketed = {
          code: 'event-tickets-not-active',
          message: reason,
          data: { status: 400 },
        };
      } else if (toBoolean(query.ticketed) !== false) {
        const reason = t('validation.type', { name: 'ticketed', type: 'boolean' });
        errors.ticketed = reason;
        details.ticketed = {
          code: 'rest_invalid_type',
          message: reason,
          data: { param: 'ticketed' },
        };
      }
    }
    const geofence = this.geofenceOf(query, ctx, errors);
    if (Object.keys(errors).length) throw invalidParams(errors, details);
    if (query.geoloc) filters.hasGeo = true;
    if (geofence) filters.geofence = geofence;

    const now = new Date();
    const window = dateWindow(query, presentInQuery, {
      siteZone: ctx.config.siteTimezone,
      now,
      include: !!query.include,
    });
    Object.assign(filters, window.bounds);
    if (query.search) filters.search = parseSearch(query.search);
    if (query.featured !== undefined) filters.featured = query.featured;
    if (query.include) filters.include = query.include;

    const page = pageOf(query, ctx.config.maxPerPage);
    const { rows, total } = await this.events.list(
      filters,
      page,
      ctx.actor,
      ctx.language,
      nowUtcSql(now),
    );
    if (!rows.length && page.page > 1) throw new ApiError('event-archive-page-not-found', 404);

    const items = await this.mapMany(rows, ctx, { jsonLd: false, password: ctx.query.password });
    return buildArchive({
      key: 'events',
      items,
      total,
      page,
      layout: 'posts',
      collectionUrl: `${ctx.restBase}/events`,
      query: {
        ...window.echo,
        search: query.search,
        categories: query.categories?.join(','),
        tags: query.tags?.join(','),
        venue: query.venue?.join(','),
        organizer: query.organizer?.join(','),
        // Service D16: featured=false is echoed as 0.
        featured: query.featured === undefined ? undefined : query.featured ? 1 : 0,
        // BEHAVIOR §5.2.6 with issue 20: the filters in force, so that paging keeps them.
        geoloc: query.geoloc ? 1 : undefined,
        geoloc_lat: geofence?.lat,
        geoloc_lng: geofence?.lng,
        include: query.include?.join(','),
        post_parent: query.post_parent,
        ticketed: query.ticketed === undefined ? undefined : String(query.ticketed),
        status: statusEcho(ctx.actor, query.status, filters.statuses),
      },
    });
  }

  /**
   * `geoloc_lat` + `geoloc_lng` (issue 20): both or neither, each a number within ±90 / ±180;
   * the fence's radius is the GEOFENCE_RADIUS setting. Problems go to `errors`.
   */
  private geofenceOf(
    query: ListEventsQuery,
    ctx: RequestContext,
    errors: Record<string, Text>,
  ): Geofence | undefined {
    const names = { geoloc_lat: 'geoloc_lng', geoloc_lng: 'geoloc_lat' } as const;
    const limits = { geoloc_lat: 90, geoloc_lng: 180 } as const;
    const values: Partial<Record<keyof typeof names, number>> = {};
    for (const name of ['geoloc_lat', 'geoloc_lng'] as const) {
      const raw = query[name];
      if (raw === undefined) {
        if (query[names[name]] !== undefined)
          errors[name] = t('validation.coordinate_pair', { name, other: names[name] });
        continue;
      }
      const value = parseCoordinate(raw);
      if (value === undefined) errors[name] = t('validation.type', { name, type: 'number' });
      else if (Math.abs(value) > limits[name])
        errors[name] = t('validation.coordinate_range', { name, max: limits[name] });
      else values[name] = value;
    }
    if (values.geoloc_lat === undefined || values.geoloc_lng === undefined) return undefined;
    return {
      lat: values.geoloc_lat,
      lng: values.geoloc_lng,
      radiusKm: ctx.config.geofence.radiusKm,
    };
  }

  // ---------------------------------------------------------------- reads

  async get(id: number, password: string | undefined, ctx: RequestContext) {
    const event = await this.loadEvent(id);
    if (!event) throw notFound(id);
    return this.readable(event, password, ctx);
  }

  async getBySlug(slug: string, password: string | undefined, ctx: RequestContext) {
    const event = await this.events.findBySlug(slug, ctx.language);
    if (!event) throw invalidParams({ slug: t('validation.invalid') });
    return this.readable(event, password, ctx);
  }

  /** BEHAVIOR §6.1, checked in this order. */
  private async readable(event: EventEntity, password: string | undefined, ctx: RequestContext) {
    const status = effectiveStatus(event, nowUtcSql());
    if (status === 'trash') throw new ApiError('event-no-longer-available', 403);
    if (!canRead(ctx.actor, { authorId: event.authorId, status }))
      throw new ApiError('event-not-accessible', 403);
    if (!this.unlocked(event, password, ctx)) throw new ApiError('event-password-protected', 403);
    const [item] = await this.mapMany([event], ctx, { jsonLd: true, password });
    return item;
  }

  // ---------------------------------------------------------------- writes

  async create(dto: CreateEventDto, ctx: RequestContext) {
    const plan = await this.validate(dto, ctx);
    if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
    // CONTRACT §2: only editors and administrators create records of others.
    if (dto.author !== undefined && !mayAttributeTo(ctx.actor, dto.author)) throw cannotCreateAs();
    // CONTRACT §6: HTML of writers without `unfiltered_html` is filtered to the allowlists.
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    const eventId = await writeTransaction(this.ds, async (manager) => {
      const id = await allocatePostId(manager, 'event');
      const event = manager.create(EventEntity, {
        id,
        authorId: dto.author ?? ctx.actor.user!.id,
        language: ctx.language,
        title: html.title(dto.title),
        description: html.content(dto.description ?? ''),
        excerpt: html.content(dto.excerpt ?? ''),
        password: dto.password ?? '',
        slug: null,
        imageUrl: typeof dto.image === 'string' && dto.image ? dto.image : null,
        timezone: '',
        allDay: dto.all_day ?? false,
        cost: '[]',
        currencySymbol: '',
        currencyPosition: '',
        // Absent website: nothing stored, so it reads back as the event url (§7.1.7).
        website: dto.website === undefined ? null : dto.website,
        showMap: dto.show_map ?? false,
        showMapLink: dto.show_map_link ?? false,
        hideFromListings: dto.hide_from_listings ?? false,
        sticky: dto.sticky ?? false,
        featured: dto.featured ?? false,
        venueId: null,
        postParent: 0,
        translationGroup: null,
      });
      this.applyDates(event, dto, ctx, true);
      this.applyCost(event, plan);
      this.applyStatus(event, dto, ctx, true);
      event.imageId = await imageIdFor(manager, event.imageUrl);
      await manager.insert(EventEntity, event);
      if (dto.translation_of !== undefined) {
        await joinTranslations(
          manager,
          EVENT_TRANSLATIONS,
          id,
          dto.translation_of,
          event.language,
          viewerOf(ctx),
        );
      }
      await this.applySlug(event, dto.slug, manager);
      await this.applyLinks(event, plan, ctx, manager);
      return id;
    });
    return this.written(eventId, dto.password, ctx);
  }

  async update(id: number, dto: UpdateEventDto, ctx: RequestContext) {
    const kind = await postKindOf(this.ds.manager, id);
    if (kind && kind !== 'event') throw notAnEvent();
    const plan = await this.validate(dto, ctx);
    const existing = kind ? await this.events.findById(id) : null;
    if (!existing) {
      // The permission check falls back to the general capability for a missing id (§7.2).
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    return this.applyUpdate(existing, dto, plan, ctx);
  }

  async updateBySlug(slug: string, dto: UpdateEventDto, ctx: RequestContext) {
    const plan = await this.validate(dto, ctx);
    const existing = await this.events.findBySlug(slug, ctx.language);
    if (!existing) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(0);
    }
    return this.applyUpdate(existing, dto, plan, ctx);
  }

  private async applyUpdate(
    existing: EventEntity,
    dto: UpdateEventDto,
    plan: WritePlan,
    ctx: RequestContext,
  ) {
    // CONTRACT §5: a translation moves only to a language its group has no member in (a 400,
    // still before the permission check).
    if (dto.language !== undefined) {
      const problem = await languageChangeProblem(
        this.ds.manager,
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
    if (
      dto.language !== undefined &&
      !(await mayMoveLanguage(
        this.ds.manager,
        EVENT_TRANSLATIONS,
        existing,
        dto.language,
        viewerOf(ctx),
      ))
    ) {
      throw translationsForbidden();
    }
    const html = contentFilter(canPostUnfilteredHtml(ctx.actor));
    await writeTransaction(this.ds, async (manager) => {
      // Re-read inside the transaction so that concurrent updates never mix.
      const event = (await this.events.findById(existing.id, manager))!;
      // Partial update on every method (CONTRACT §6): only what the request carries changes.
      if (dto.title !== undefined) event.title = html.title(dto.title);
      if (dto.description !== undefined) event.description = html.content(dto.description);
      if (dto.excerpt !== undefined) event.excerpt = html.content(dto.excerpt);
      if (dto.author !== undefined) event.authorId = dto.author;
      if (dto.password !== undefined) event.password = dto.password;
      if (dto.image !== undefined)
        event.imageUrl = typeof dto.image === 'string' && dto.image ? dto.image : null;
      if (dto.website !== undefined) event.website = dto.website;
      if (dto.show_map !== undefined) event.showMap = dto.show_map;
      if (dto.show_map_link !== undefined) event.showMapLink = dto.show_map_link;
      if (dto.hide_from_listings !== undefined) event.hideFromListings = dto.hide_from_listings;
      if (dto.sticky !== undefined) event.sticky = dto.sticky;
      if (dto.featured !== undefined) event.featured = dto.featured;
      // Slugs are unique per language: a moved event takes its slug along when it is free in
      // the new language, else the next free `slug-2`, ... (assigned after the save).
      const moving = dto.language !== undefined && dto.language !== event.language;
      const movedSlug = moving ? (event.slug ?? undefined) : undefined;
      if (moving) {
        event.language = dto.language!;
        event.slug = null;
      }
      this.applyDates(event, dto, ctx, false);
      this.applyCost(event, plan);
      this.applyStatus(event, dto, ctx, false);
      event.imageId = await imageIdFor(manager, event.imageUrl);
      try {
        await manager.save(EventEntity, event);
      } catch (error) {
        // A concurrent write gave the group a member in the new language first.
        if (moving && isUniqueViolation(error)) {
          throw invalidParams({ language: languageTakenReason(event.language) });
        }
        throw error;
      }
      await this.applySlug(event, dto.slug ?? movedSlug, manager);
      await this.applyLinks(event, plan, ctx, manager);
    });
    return this.written(existing.id, dto.password, ctx);
  }

  async remove(id: number, ctx: RequestContext) {
    const kind = await postKindOf(this.ds.manager, id);
    if (kind && kind !== 'event') throw notAnEvent();
    const event = kind ? await this.events.findById(id) : null;
    if (!event) {
      if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
      throw notFound(id);
    }
    return this.trash(event, ctx);
  }

  async removeBySlug(slug: string, ctx: RequestContext) {
    const event = await this.events.findBySlug(slug, ctx.language);
    // Unknown slug: 400 before the permission check (§7.3).
    if (!event) throw invalidParams({ slug: t('validation.invalid') });
    return this.trash(event, ctx);
  }

  /** DELETE moves to trash and answers the record; a second DELETE is 410 (CONTRACT §3). */
  private async trash(event: EventEntity, ctx: RequestContext) {
    if (!canEdit(ctx.actor, event)) throw forbidden(!!ctx.actor.user);
    if (event.status === 'trash') throw new ApiError('event-is-in-trash', 410);
    const now = new Date();
    await writeTransaction(this.ds, async (manager) => {
      await manager.update(
        EventEntity,
        { id: event.id },
        { status: 'trash', modified: this.siteNow(now, ctx), modifiedUtc: nowUtcSql(now) },
      );
      await this.terms.syncEventState({ ...event, status: 'trash' }, manager);
      // A trashed event is no translation any more; its translations stay linked (CONTRACT §5).
      await leaveTranslations(manager, EVENT_TRANSLATIONS, event);
    });
    return this.written(event.id, ctx.query.password, ctx);
  }

  // ---------------------------------------------------------------- rules

  /** Everything a write is checked against, before any permission check or write (§1.1). */
  private async validate(
    dto: CreateEventDto | UpdateEventDto,
    ctx: RequestContext,
  ): Promise<WritePlan> {
    const errors: Record<string, Text> = {};
    const invalid = t('validation.invalid');
    if (dto.author !== undefined && !(await this.users.exists(dto.author))) errors.author = invalid;
    // CONTRACT §6: the id of an image record links that image (its URL).
    dto.image = await resolveImageInput(this.ds.manager, dto.image);
    if (dto.image !== undefined && dto.image !== '' && dto.image !== null) {
      // CONTRACT §6: a URL only (no media library), and only for roles that may upload.
      if (!isHttpUrl(dto.image) || !canUpload(ctx.actor)) errors.image = invalid;
    }
    const plan: WritePlan = { dto };
    if (dto.cost !== undefined) {
      plan.cost = parseCostInput(dto.cost);
      if (!plan.cost) errors.cost = invalid;
    }
    // Only the create DTO declares it (the pipe strips it from updates).
    const translationOf = (dto as CreateEventDto).translation_of;
    if (translationOf !== undefined) {
      const problem = await translationOfProblem(
        this.ds.manager,
        EVENT_TRANSLATIONS,
        translationOf,
        ctx.language,
        viewerOf(ctx),
      );
      if (problem) errors.translation_of = problem;
    }
    if (Object.keys(errors).length) throw invalidParams(errors);
    if (dto.categories !== undefined)
      plan.categoryItems = this.terms.validateWriteItems('categories', dto.categories);
    if (dto.tags !== undefined) plan.tagItems = this.terms.validateWriteItems('tags', dto.tags);
    if (dto.venue !== undefined) plan.venuePlan = await this.venues.planReferences(dto.venue, ctx);
    if (dto.organizer !== undefined)
      plan.organizerPlan = await this.organizers.planReferences(dto.organizer, ctx);
    return plan;
  }

  /** §7.1.2: local wall clocks in the event zone, UTC derived, all-day spans, end ≥ start. */
  private applyDates(
    event: EventEntity,
    dto: CreateEventDto | UpdateEventDto,
    ctx: RequestContext,
    creating: boolean,
  ) {
    const site = ctx.config.siteTimezone;
    if (dto.timezone !== undefined) event.timezone = dto.timezone || site;
    else if (creating) event.timezone = site;
    const zone = event.timezone || site;
    const wall = (value: string | number) => eventWallClock(value, zone)!;
    if (dto.start_date !== undefined) event.startDate = wall(dto.start_date);
    if (dto.end_date !== undefined) event.endDate = wall(dto.end_date);
    if (dto.all_day !== undefined) event.allDay = dto.all_day;
    if (
      event.allDay &&
      (dto.all_day || dto.start_date !== undefined || dto.end_date !== undefined)
    ) {
      event.startDate = `${event.startDate.slice(0, 10)} 00:00:00`;
      event.endDate = `${event.endDate.slice(0, 10)} 23:59:59`;
    }
    // End before start is not an error: the end becomes the start (and so does the UTC end, D6).
    if (event.endDate < event.startDate) event.endDate = event.startDate;
    event.startUtc = localToUtc(event.startDate, zone);
    event.endUtc = localToUtc(event.endDate, zone);

    // Publication dates (§7.1.2): `date` is read in the event zone and keeps that wall clock (the
    // plugin formats it back in the same zone, Single_Event::prepare_postarr), `date_utc` is read
    // as UTC; one given alone derives the other with the site zone, as wp_insert_post does, and
    // both given are stored as given.
    const now = new Date();
    if (dto.date !== undefined || dto.date_utc !== undefined) {
      const date = dto.date !== undefined ? eventWallClock(dto.date, zone)! : null;
      const dateUtc = dto.date_utc !== undefined ? eventWallClock(dto.date_utc, 'UTC')! : null;
      event.date = date ?? utcToLocal(dateUtc!, site);
      event.dateUtc = dateUtc ?? localToUtc(date!, site);
    } else if (creating) {
      event.date = this.siteNow(now, ctx);
      event.dateUtc = nowUtcSql(now);
    }
    event.modified = this.siteNow(now, ctx);
    event.modifiedUtc = nowUtcSql(now);
  }

  private applyCost(event: EventEntity, plan: WritePlan) {
    if (!plan.cost) return;
    event.cost = JSON.stringify(plan.cost.entries);
    // Service D7: an update keeps the symbol/position unless the new cost carries its own.
    if (plan.cost.symbol || !event.currencySymbol || !plan.cost.entries.length) {
      event.currencySymbol = plan.cost.symbol;
      event.currencyPosition = plan.cost.position;
    }
  }

  /** §7.1.6 with CONTRACT §3; drafts and pending records created without a date have none. */
  private applyStatus(
    event: EventEntity,
    dto: CreateEventDto | UpdateEventDto,
    ctx: RequestContext,
    creating: boolean,
  ) {
    const now = new Date();
    const nowUtc = nowUtcSql(now);
    const dated = dto.date !== undefined || dto.date_utc !== undefined;
    if (dto.status !== undefined || creating) {
      event.status = resolveWriteStatus(ctx.actor, dto.status, event.dateUtc, nowUtc);
    } else if (event.status === 'publish' && event.dateUtc && event.dateUtc > nowUtc) {
      event.status = 'future';
    } else if (event.status === 'future' && event.dateUtc && event.dateUtc <= nowUtc) {
      event.status = 'publish';
    }
    const unpublished = event.status === 'draft' || event.status === 'pending';
    if (creating && unpublished && !dated) {
      event.dateUtc = null;
    } else if (!unpublished && event.status !== 'trash' && event.dateUtc === null) {
      // Publishing a record that never had a date dates it now (WordPress wp_insert_post).
      event.date = this.siteNow(now, ctx);
      event.dateUtc = nowUtc;
    }
  }

  /** Given slug, else (for records that are or become public) one from the title (§7.1.8). */
  private async applySlug(
    event: EventEntity,
    requested: string | undefined,
    manager: EntityManager,
  ) {
    let base: string | undefined = requested;
    if (
      base === undefined &&
      !event.slug &&
      !['draft', 'pending', 'trash'].includes(event.status)
    ) {
      base = event.title;
    }
    if (base === undefined) return;
    event.slug = await assignUniqueSlug(manager, EventEntity, event.id, base, event.language);
  }

  private async applyLinks(
    event: EventEntity,
    plan: WritePlan,
    ctx: RequestContext,
    manager: EntityManager,
  ) {
    if (plan.venuePlan) {
      const [venueId] = await this.venues.applyPlan(plan.venuePlan, ctx, manager);
      event.venueId = venueId ?? null;
      await manager.update(EventEntity, { id: event.id }, { venueId: event.venueId });
    }
    if (plan.organizerPlan) {
      const ids = await this.organizers.applyPlan(plan.organizerPlan, ctx, manager);
      await this.events.setOrganizers(event.id, ids, manager);
    }
    if (plan.categoryItems) {
      const ids = await this.terms.resolveForWrite(
        'category',
        plan.categoryItems,
        event.language,
        manager,
      );
      await this.terms.setEventTerms(event.id, 'category', ids, manager);
    }
    if (plan.tagItems) {
      const ids = await this.terms.resolveForWrite('tag', plan.tagItems, event.language, manager);
      await this.terms.setEventTerms(event.id, 'tag', ids, manager);
    }
    await this.terms.syncEventState(event, manager);
  }

  // ---------------------------------------------------------------- mapping

  private async written(id: number, password: unknown, ctx: RequestContext) {
    const event = (await this.events.findById(id))!;
    const [item] = await this.mapMany([event], ctx, { jsonLd: false, password });
    return item;
  }

  private async loadEvent(id: number): Promise<EventEntity | null> {
    const kind = await postKindOf(this.ds.manager, id);
    if (kind && kind !== 'event') throw notAnEvent();
    return kind ? this.events.findById(id) : null;
  }

  /** A protected event is open with its password, or to its editors asking context=edit (§4.11). */
  private unlocked(event: EventEntity, password: unknown, ctx: RequestContext): boolean {
    if (!event.password) return true;
    if (typeof password === 'string' && password === event.password) return true;
    return ctx.query.context === 'edit' && canEdit(ctx.actor, event);
  }

  /** Maps a page of events with their linked records in a fixed number of queries. */
  async mapMany(
    rows: EventEntity[],
    ctx: RequestContext,
    opts: { jsonLd: boolean; password: unknown },
  ): Promise<Record<string, unknown>[]> {
    if (!rows.length) return [];
    const ids = rows.map((e) => e.id);
    const venueIds = [
      ...new Set(rows.map((e) => e.venueId).filter((v): v is number => v !== null)),
    ];
    // Every lookup runs at once; the organizers follow their links.
    const [venues, [organizerIds, organizers], terms, translations] = await Promise.all([
      this.venues.embedMany(venueIds, ctx, { jsonLd: opts.jsonLd }),
      this.events.organizerIds(ids).then(async (links) => {
        const unique = [...new Set([...links.values()].flat())];
        const embedded = await this.organizers.embedMany(unique, ctx, { jsonLd: opts.jsonLd });
        return [links, embedded] as const;
      }),
      this.terms.embeddedTermsForEvents(ids, ctx),
      loadTranslations(this.ds.manager, EVENT_TRANSLATIONS, rows, {
        actor: ctx.actor,
        nowUtc: nowUtcSql(),
      }),
    ]);
    const freeLabel = String(this.i18n.translate('events.cost.free', { lang: ctx.language }));
    return rows.map((e) => {
      const links: EventLinks = {
        venue: e.venueId !== null ? venues.get(e.venueId) : undefined,
        organizers: (organizerIds.get(e.id) ?? [])
          .map((o) => organizers.get(o))
          .filter((o) => !!o) as Record<string, unknown>[],
        categories: terms.get(e.id)?.categories ?? [],
        tags: terms.get(e.id)?.tags ?? [],
        translations: translations.get(e.id),
      };
      return toTecEvent(e, links, ctx, {
        jsonLd: opts.jsonLd,
        unlocked: this.unlocked(e, opts.password, ctx),
        freeLabel,
      });
    });
  }

  private siteNow(now: Date, ctx: RequestContext): string {
    return utcToLocal(nowUtcSql(now), ctx.config.siteTimezone);
  }
}
