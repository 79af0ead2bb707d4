import { Injectable } from '@nestjs/common';
import { ApiError, invalidParams, t, type Text } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { isTruthy, toBoolean } from '../common/http/transforms.js';
import { pageOf, type Page } from '../common/pagination/paginate.js';
import { PostStore } from '../posts/post-store.js';
import { listStatuses, statusEcho } from '../posts/post-status.js';
import { OrganizerEventLinks } from '../organizers/organizers.service.js';
import { EventTermLinks } from '../terms/event-term-links.js';
import { VenueEventLinks } from '../venues/venues.service.js';
import type { ListEventsQuery } from './dto/list-events.query.js';
import { ExtensionRegistry } from '../extensions/registry.js';
import { parseListParameters } from '../extensions/seams.js';
import { dateWindow, parseSearch, type EventFilters } from './event-filters.js';

/** An events list request resolved: what to select, which page, and what paging links echo. */
export interface ResolvedEventQuery {
  filters: EventFilters;
  page: Page;
  /** The filters in force, as the archive's `rest_url` and paging links carry them. */
  echo: Record<string, string | number | undefined>;
}

type ErrorDetails = NonNullable<ConstructorParameters<typeof ApiError>[2]>['details'];

/**
 * Turns the events list parameters (BEHAVIOR §5.2, CONTRACT §6 for the geofence) into repository filters, checking
 * every named record and value first: all problems in one 400, as WordPress reports them. Any
 * reader of event lists uses it (the REST list, feeds, an importer's checks), so that the same
 * query string selects the same events everywhere.
 */
@Injectable()
export class EventQueryResolver {
  constructor(
    private readonly terms: EventTermLinks,
    private readonly venues: VenueEventLinks,
    private readonly organizers: OrganizerEventLinks,
    private readonly posts: PostStore,
    private readonly extensions: ExtensionRegistry,
  ) {}

  /**
   * `presentInQuery`: the parameter names the client actually sent (date defaults depend on
   * it); `now`: the clock the window is computed on.
   */
  async resolve(
    query: ListEventsQuery,
    ctx: RequestContext,
    presentInQuery: Set<string>,
    now = new Date(),
  ): Promise<ResolvedEventQuery> {
    const errors: Record<string, Text> = {};
    const details: ErrorDetails = {};
    const filters: EventFilters = { statuses: [] };

    await this.resolveRecords(query, ctx, filters, errors);
    const statuses = listStatuses(ctx.actor, query.status);
    if (statuses) filters.statuses = statuses;
    else errors.status = t('validation.invalid');
    if (query.post_parent !== undefined) {
      if ((await this.posts.kindOf(query.post_parent)) === 'event')
        filters.postParent = query.post_parent;
      else errors.post_parent = t('validation.invalid');
    }
    this.checkTicketed(query, errors, details);
    // The list parameters of modules and of geolocation (docs/extending.md).
    const extended = parseListParameters(this.extensions, { ...ctx.query, ...query }, ctx);
    Object.assign(errors, extended.errors);
    if (Object.keys(errors).length) throw invalidParams(errors, details);
    if (extended.applied.length) filters.extensions = extended.applied;

    const window = dateWindow(query, presentInQuery, {
      siteZone: ctx.config.siteTimezone,
      now,
      include: !!query.include,
    });
    Object.assign(filters, window.bounds);
    if (query.search) filters.search = parseSearch(query.search);
    if (query.featured !== undefined) filters.featured = query.featured;
    if (query.include) filters.include = query.include;
    if (query.series === 'once') filters.seriesOnce = true;
    // checkTicketed has let only false-like scalars through.
    const ticketed = query.ticketed as string | number | boolean | undefined;

    return {
      filters,
      page: pageOf(query, ctx.config.maxPerPage),
      echo: {
        ...window.echo,
        search: query.search,
        categories: query.categories?.join(','),
        tags: query.tags?.join(','),
        venue: query.venue?.join(','),
        organizer: query.organizer?.join(','),
        // Service D16: featured=false is echoed as 0.
        featured: query.featured === undefined ? undefined : query.featured ? 1 : 0,
        // BEHAVIOR §5.2.6, with the geofence's and the modules': the filters in force, so that
        // paging keeps them.
        ...extended.echo,
        include: query.include?.join(','),
        series: filters.seriesOnce ? 'once' : undefined,
        post_parent: query.post_parent,
        ticketed: ticketed === undefined ? undefined : String(ticketed),
        status: statusEcho(ctx.actor, query.status, filters.statuses),
      },
    };
  }

  /** The terms, venues and organizers named: each must exist, else its parameter is in error. */
  private async resolveRecords(
    query: ListEventsQuery,
    ctx: RequestContext,
    filters: EventFilters,
    errors: Record<string, Text>,
  ): Promise<void> {
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
  }

  /** BEHAVIOR §5.2.7: a truthy value is rejected before the type check; false has no effect. */
  private checkTicketed(
    query: ListEventsQuery,
    errors: Record<string, Text>,
    details: ErrorDetails,
  ): void {
    if (query.ticketed === undefined) return;
    if (isTruthy(query.ticketed)) {
      const reason = t('errors.event-tickets-not-active');
      errors.ticketed = reason;
      details!.ticketed = {
        code: 'event-tickets-not-active',
        message: reason,
        data: { status: 400 },
      };
    } else if (toBoolean(query.ticketed) !== false) {
      const reason = t('validation.type', { name: 'ticketed', type: 'boolean' });
      errors.ticketed = reason;
      details!.ticketed = {
        code: 'rest_invalid_type',
        message: reason,
        data: { param: 'ticketed' },
      };
    }
  }
}
