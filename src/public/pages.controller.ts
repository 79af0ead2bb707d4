import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { noRoute } from '../common/errors/api-error.js';
import type { TermKind } from '../common/records/record-kinds.js';
import { Rendered } from '../common/http/body-bytes.adapter.js';
import { CachedReads } from '../cache/cached-reads.js';
import { buildRequestContext, type RequestContext } from '../common/http/request-context.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import { EventsService } from '../events/events.service.js';
import { newestModified } from '../feeds/calendar-response.js';
import { VIEWS_DIR } from '../config/paths.js';
import { EventPages } from './event-pages.js';
import { ListPages, upcoming } from './list-pages.js';
import { PageFrame, pageAnswer as answer, type PageResult } from './page-frame.js';
import { MAX_CATEGORY_DEPTH, slugOf } from './page-reads.js';
import { CalendarRoutes } from './calendar/calendar-routes.js';
import { buildRss } from './rss.js';
import { Views } from './views.js';

const STYLESHEET = readFileSync(join(VIEWS_DIR, 'cal.css'));

/** `?page=N` of a public list: 1 when absent, NaN (→ 404) when not a plain number. */
function pageParam(req: Request): number {
  const raw = (req.query as Record<string, unknown>).page;
  if (raw === undefined) return 1;
  return typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
}

/**
 * The slug in the address as the records store it: WordPress keeps non-ASCII slugs
 * percent-encoded in lower case (`%d0%ba…`), and Express decodes route parameters, so the slug
 * is read from the raw path. Anything else than a stored slug could hold names no record.
 */
function rawSlug(req: Request, index: number): string {
  return slugOf(req.path.split('/')[index] ?? '');
}

/** The password a reader typed into the form of a protected event (POST), if any. */
function typedPassword(req: Request): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' ? body.post_password : undefined;
  return typeof value === 'string' && value !== '' && value.length <= 255 ? value : undefined;
}

/**
 * The public pages behind every `url` of the payloads, the home page and
 * the RSS feeds (CONTRACT §7). Outside the REST namespace and its OpenAPI document; BASE_PATH does not
 * apply to them (the `url`s are `{SITE_URL}/event/{slug}/`, configure-app.ts).
 */
@ApiExcludeController()
// Tracked: a page and a feed read through the same services as the API, whose reads say what
// they depend on (the records and their embeds, the lists' windows and tags): each answer is
// computed once per change of what it shows.
@CachedReads({ tracked: true })
@Controller()
export class PagesController {
  constructor(
    private readonly eventPages: EventPages,
    private readonly lists: ListPages,
    private readonly frame: PageFrame,
    private readonly events: EventsService,
    private readonly views: Views,
    private readonly calendar: CalendarRoutes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private ctx(req: Request): RequestContext {
    return buildRequestContext(req, this.config);
  }

  @Get('assets/cal.css')
  stylesheet(@Res({ passthrough: true }) res: Response): Rendered {
    res.type('text/css; charset=utf-8');
    return new Rendered(200, STYLESHEET);
  }

  @Get()
  async home(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    const query = req.query as Record<string, unknown>;
    // `/?rest_route=…` is the REST API's (answered before any controller when it is served).
    if (query.rest_route !== undefined) throw noRoute();
    // `/?post_type=cal_events&p=ID`: the `url` of an event without a public address.
    if (query.p !== undefined) return answer(res, await this.eventById(req, undefined));
    return answer(res, await this.lists.homePage(pageParam(req), this.ctx(req)));
  }

  /** The password form of `/?post_type=cal_events&p=ID` posts back to that address. */
  @Post()
  async unlockById(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    const query = req.query as Record<string, unknown>;
    if (query.rest_route !== undefined || query.p === undefined) throw noRoute();
    return answer(res, await this.eventById(req, typedPassword(req) ?? ''));
  }

  private async eventById(req: Request, password: string | undefined): Promise<PageResult> {
    const query = req.query as Record<string, unknown>;
    const id = typeof query.p === 'string' && /^\d{1,15}$/.test(query.p) ? Number(query.p) : 0;
    return id > 0 && (query.post_type === undefined || query.post_type === 'cal_events')
      ? this.eventPages.eventById(id, password, this.ctx(req))
      : this.frame.notFound(this.ctx(req));
  }

  @Get('event/:slug')
  async event(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    return answer(res, await this.eventPages.eventPage(rawSlug(req, 2), undefined, this.ctx(req)));
  }

  @Post('event/:slug')
  async unlock(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    const password = typedPassword(req) ?? '';
    return answer(res, await this.eventPages.eventPage(rawSlug(req, 2), password, this.ctx(req)));
  }

  @Get('event/:slug/:day')
  async occurrence(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    return answer(res, await this.occurrencePage(req, undefined));
  }

  @Get('event/:slug/:day/:index')
  async nthOccurrence(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    return answer(res, await this.occurrencePage(req, undefined));
  }

  @Post('event/:slug/:day')
  async unlockOccurrence(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    return answer(res, await this.occurrencePage(req, typedPassword(req) ?? ''));
  }

  @Post('event/:slug/:day/:index')
  async unlockNthOccurrence(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    return answer(res, await this.occurrencePage(req, typedPassword(req) ?? ''));
  }

  /**
   * `/event/{slug}/{YYYY-MM-DD}/` and `/event/{slug}/{YYYY-MM-DD}/{n}/` (n ≥ 2): an occurrence of
   * a recurring event at Pro's dated address (BEHAVIOR §15); anything else there is not found.
   */
  private occurrencePage(req: Request, password: string | undefined): Promise<PageResult> {
    const [day, index] = req.path.split('/').slice(3, 5);
    const ctx = this.ctx(req);
    const n = index === undefined || index === '' ? 1 : Number(index);
    if (!/^\d{4}-\d\d-\d\d$/.test(day ?? '') || !/^(\d{1,3})?$/.test(index ?? '') || n < 1) {
      return Promise.resolve(this.frame.notFound(ctx));
    }
    // `/1/` is not an address Pro gives: the first of a day has none.
    if (index !== undefined && index !== '' && n === 1) {
      return Promise.resolve(this.frame.notFound(ctx));
    }
    return this.eventPages.occurrencePage(rawSlug(req, 2), day, n, password, ctx);
  }

  @Get('venue/:slug')
  async venue(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    const slug = rawSlug(req, 2);
    return answer(res, await this.lists.linkedPage('venue', slug, pageParam(req), this.ctx(req)));
  }

  @Get('organizer/:slug')
  async organizer(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    const slug = rawSlug(req, 2);
    return answer(
      res,
      await this.lists.linkedPage('organizer', slug, pageParam(req), this.ctx(req)),
    );
  }

  @Get('tag/:slug/feed')
  async tagFeed(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    return this.rss('tag', [rawSlug(req, 2)], req, res);
  }

  @Get('tag/:slug')
  async tag(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    const slug = rawSlug(req, 2);
    return answer(res, await this.lists.termPage('tag', [slug], pageParam(req), this.ctx(req)));
  }

  @Get('events/category/*path')
  async category(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    // The path is split once: each segment looked up in the whole path again was quadratic.
    const parts = req.path.split('/').slice(3).filter(Boolean);
    // The deepest category with a feed's or a view's tail (`month/2030-03`) after it.
    if (parts.length > MAX_CATEGORY_DEPTH + 2)
      return answer(res, this.frame.notFound(this.ctx(req)));
    const segments = parts.map(slugOf);
    if (segments.length > 1 && segments[segments.length - 1] === 'feed') {
      return this.rss('category', segments.slice(0, -1), req, res);
    }
    // `/events/category/{path}/month/…`: the category's calendar (CONTRACT §7).
    if (this.calendar.endsInView(segments)) {
      const ctx = this.ctx(req);
      return answer(res, await this.calendar.answer(['category', ...segments], req, ctx, false));
    }
    return answer(
      res,
      await this.lists.termPage('category', segments, pageParam(req), this.ctx(req)),
    );
  }

  @Get('feed')
  async feed(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    return this.rss(undefined, [], req, res);
  }

  /** RSS 2.0 of the upcoming events, of the whole calendar or of one category or tag. */
  private async rss(
    taxonomy: TermKind | undefined,
    segments: string[],
    req: Request,
    res: Response,
  ): Promise<Rendered> {
    const ctx = this.ctx(req);
    const query = { ...upcoming(), page: 1, per_page: ctx.config.maxPerPage } as ListEventsQuery;
    let title = this.views.t(ctx.language, 'rss_title', { site: this.frame.siteName() });
    let link = this.frame.siteUrl(ctx.language);
    if (taxonomy) {
      const term = await this.lists.findTerm(taxonomy, segments, ctx);
      if (!term) return answer(res, this.frame.notFound(ctx));
      if (taxonomy === 'category') query.categories = [term.id];
      else query.tags = [term.id];
      title = this.views.t(ctx.language, 'rss_title_of', {
        site: this.frame.siteName(),
        name: term.name,
      });
      link = this.frame.localize(term.url, ctx.language);
    }
    const archive = await this.events.list(query, ctx, new Set(Object.keys(query)));
    const events = archive.items;
    const rss = buildRss(events, {
      title,
      link,
      self: this.frame.siteUrl(
        ctx.language,
        taxonomy === 'category'
          ? `/events/category/${segments.join('/')}/feed/`
          : taxonomy === 'tag'
            ? `/tag/${segments[0]}/feed/`
            : '/feed/',
      ),
      description: this.views.t(ctx.language, 'home_intro'),
      language: ctx.language,
      allDayLabel: this.views.t(ctx.language, 'all_day'),
      localize: (url, language) => this.frame.localize(url, language),
    });
    const lastModified = newestModified(events.slice(0, rss.count));
    if (lastModified) res.setHeader('Last-Modified', lastModified);
    res.type('application/rss+xml; charset=utf-8');
    return new Rendered(200, rss.bytes);
  }
}
