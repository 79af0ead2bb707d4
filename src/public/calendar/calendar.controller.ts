import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CachedReads } from '../../cache/cached-reads.js';
import { Rendered } from '../../common/http/body-bytes.adapter.js';
import { buildRequestContext } from '../../common/http/request-context.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { VIEWS_DIR } from '../../config/paths.js';
import { PageFrame, pageAnswer, type PageResult } from '../page-frame.js';
import { MAX_CATEGORY_DEPTH, slugOf } from '../page-reads.js';
import { CalendarRoutes } from './calendar-routes.js';

const EMBED_SCRIPT = readFileSync(join(VIEWS_DIR, 'embed.js'));

/**
 * The segments of a path after its first `skip` ones as stored slugs (lower case, percent-encoded:
 * read from the raw path), without empty ones (a trailing slash); none beyond the deepest a view
 * has (a category's path and the view's tail), which names nothing.
 */
function segmentsOf(req: Request, skip: number): string[] | undefined {
  const parts = req.path
    .split('/')
    .slice(skip + 1)
    .filter(Boolean);
  return parts.length > MAX_CATEGORY_DEPTH + 3 ? undefined : parts.map(slugOf);
}

/**
 * The calendar views for visitors (CONTRACT §7) at `/events/…` and their embeds at
 * `/embed/events/…` (language prefix first: `/hu/embed/events/month/`), plus `/embed.js`.
 * `/events/category/{path}/` without a view's tail stays the category's page (PagesController,
 * whose route comes first).
 */
@ApiExcludeController()
// Tracked as the other pages: a view depends on its window of the events list (its dates and
// filters), the payloads it shows and the term it is about.
@CachedReads({ tracked: true })
@Controller()
export class CalendarController {
  constructor(
    private readonly routes: CalendarRoutes,
    private readonly frame: PageFrame,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('embed.js')
  script(@Res({ passthrough: true }) res: Response): Rendered {
    res.type('text/javascript; charset=utf-8');
    return new Rendered(200, EMBED_SCRIPT);
  }

  @Get(['events', 'events/*path'])
  async view(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    return pageAnswer(res, await this.answer(req, 1, false));
  }

  @Get(['embed/events', 'embed/events/*path'])
  async embed(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Rendered> {
    return pageAnswer(res, await this.answer(req, 2, true));
  }

  private answer(req: Request, skip: number, embed: boolean): Promise<PageResult> {
    const ctx = buildRequestContext(req, this.config);
    const segments = segmentsOf(req, skip);
    if (!segments) return Promise.resolve(this.frame.notFound(ctx));
    return this.routes.answer(segments, req, ctx, embed);
  }
}
