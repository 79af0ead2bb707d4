import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestContext } from '../../common/http/request-context.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { plainText } from '../../feeds/plain-text.js';
import { ListPages } from '../list-pages.js';
import { PageFrame, type PageResult } from '../page-frame.js';
import { dayParam, parseViewPath, viewTailLength } from './calendar-dates.js';
import { CalendarPages, type CalendarScope } from './calendar-pages.js';
import type { ViewFilter } from './calendar-reads.js';

/** The longest `?search=` a view takes (longer: not found). */
const MAX_SEARCH = 200;
/** `?venue=` and `?organizer=`: an id, or a few separated by commas. */
const IDS = /^\d{1,15}(,\d{1,15}){0,9}$/;

/**
 * The addresses of the calendar views (CONTRACT §7): `/events/{view}`, nested under
 * `/events/category/{path}/` and `/events/tag/{slug}/`, with `/embed` in front for the embeds;
 * `?venue=`, `?organizer=` and `?search=` filter any of them. Anything else there is not found.
 */
@Injectable()
export class CalendarRoutes {
  constructor(
    private readonly pages: CalendarPages,
    private readonly lists: ListPages,
    private readonly frame: PageFrame,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether the segments after `events/category/` end in a view's tail. */
  endsInView(segments: readonly string[]): boolean {
    return viewTailLength(segments, this.config.defaultView) > 0;
  }

  /**
   * The view at `segments` (the path's segments after `events`, as stored slugs), asked by
   * `req`, embedded or not.
   */
  async answer(
    segments: readonly string[],
    req: Request,
    ctx: RequestContext,
    embed: boolean,
  ): Promise<PageResult> {
    const query = req.query as Record<string, unknown>;
    const filter = filterOf(query);
    const page = pageOf(query.page);
    const listDay =
      query['tribe-bar-date'] === undefined ? undefined : dayParam(query['tribe-bar-date']);
    if (!filter || (query['tribe-bar-date'] !== undefined && !listDay)) {
      return this.frame.notFound(ctx);
    }
    const scope = await this.scopeOf(segments, filter, ctx);
    if (!scope) return this.frame.notFound(ctx);
    const address = parseViewPath(scope.tail, this.config.defaultView);
    if (!address) return this.frame.notFound(ctx);
    return this.pages.view(address, scope.scope, { embed, page, listDay }, ctx);
  }

  /** What the segments narrow the calendar to, and the view's tail after it. */
  private async scopeOf(
    segments: readonly string[],
    filter: { filter: ViewFilter; query: Record<string, string> },
    ctx: RequestContext,
  ): Promise<{ scope: CalendarScope; tail: readonly string[] } | undefined> {
    const [kind] = segments;
    if (kind !== 'category' && kind !== 'tag') {
      return {
        scope: { ...filter, base: '/events/', everyLanguage: true },
        tail: segments,
      };
    }
    if (!this.frame.recordPagesOn) return undefined;
    const rest = segments.slice(1);
    const tailLength =
      kind === 'tag'
        ? rest.length - 1
        : viewTailLength(rest, this.config.defaultView) || (rest.length > 0 ? 0 : -1);
    if (tailLength < 0 || tailLength >= rest.length) return undefined;
    const path = rest.slice(0, rest.length - tailLength);
    if (path.some((segment) => !segment)) return undefined;
    const term = await this.lists.findTerm(kind, path, ctx);
    if (!term) return undefined;
    const ids = [term.id];
    return {
      scope: {
        filter: {
          ...filter.filter,
          ...(kind === 'category' ? { categories: ids } : { tags: ids }),
        },
        query: filter.query,
        base: `/events/${kind}/${path.join('/')}/`,
        subject: plainText(term.name),
        everyLanguage: false,
      },
      tail: rest.slice(rest.length - tailLength),
    };
  }
}

/** `?page=`: 1 when absent, NaN when not a plain number. */
function pageOf(raw: unknown): number {
  if (raw === undefined) return 1;
  return typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
}

/**
 * `?venue=`, `?organizer=` and `?search=` as the list's filters and as the view's links keep
 * them; undefined when one is not what it may be.
 */
function filterOf(
  query: Record<string, unknown>,
): { filter: ViewFilter; query: Record<string, string> } | undefined {
  const filter: ViewFilter = {};
  const kept: Record<string, string> = {};
  for (const name of ['venue', 'organizer'] as const) {
    const raw = query[name];
    if (raw === undefined) continue;
    if (typeof raw !== 'string' || !IDS.test(raw)) return undefined;
    filter[name] = raw.split(',').map(Number);
    kept[name] = raw;
  }
  const search = query.search;
  if (search !== undefined) {
    if (typeof search !== 'string' || search.length > MAX_SEARCH) return undefined;
    if (search.trim()) {
      filter.search = search;
      kept.search = search;
    }
  }
  return { filter, query: kept };
}
