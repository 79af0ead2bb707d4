import { ExtensionRegistry } from '../extensions/registry.js';
import { calendarLinesOf } from '../extensions/seams.js';
import { Controller, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import type { Rendered } from '../common/http/body-bytes.adapter.js';
import { NAMESPACE } from '../common/http/links.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { CachedReads } from '../cache/cached-reads.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { doc } from '../common/i18n/doc-key.js';
import { APP_CONFIG, withoutTrailingSlashes, type AppConfig } from '../config/config.js';
import { Endpoint } from '../docs/endpoint.js';
import { EventsService } from '../events/events.service.js';
import { SeriesReads } from '../events/series/series-reads.js';
import { calendarAnswer, lastModifiedOf } from './calendar-response.js';
import { FeedEventQuery, FeedListQuery } from './dto/feed.query.js';
import { EventSource } from './event-source.js';
import { CalendarWriter } from './ics.js';
import { SeriesFeed, type FeedEntry } from './series-feed.js';

const ID = { name: 'id', type: 'integer', description: doc('feeds.id') } as const;

/**
 * iCalendar feeds (CONTRACT §7) under the REST namespace: the events list with the same
 * filters, and one event. `GET /events` with `Accept: text/calendar` is routed here too
 * (calendarNegotiation). Anonymous feeds are kept by the response cache like the JSON reads.
 */
@ApiTags('events')
@ApiBasicAuth('basic')
@ApiProduces('text/calendar')
// Tracked: each feed depends on the lists and records it shows (EventsService, SeriesReads).
@CachedReads({ tracked: true })
@Controller(NAMESPACE)
export class FeedsController {
  constructor(
    private readonly source: EventSource,
    private readonly events: EventsService,
    private readonly seriesReads: SeriesReads,
    private readonly i18n: I18nService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly extensions: ExtensionRegistry,
  ) {}

  /**
   * Every event of the query up to MAX_FEED_EVENTS and MAX_FEED_BYTES, or one page of it with
   * `page`/`per_page`; X-TEC-Total says how many the query matches (CONTRACT §7). A series is one
   * VEVENT with its rules, and an event that replaced one of its occurrences an instance of it
   * when both are in the feed, unless `occurrences` asks for one VEVENT per occurrence: the
   * series of each page's occurrences and changed occurrences are read with the page (at most
   * three queries more per page).
   */
  @Endpoint('GET', 'events.ics', { summary: doc('feeds.list') })
  async list(
    @Query() query: FeedListQuery,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    const { occurrences, ...listQuery } = query;
    const present = new Set(Object.keys(req.query));
    present.delete('occurrences');
    const writer = this.writer(ctx);
    const series = occurrences ? undefined : new SeriesFeed(ctx.config.siteTimezone);
    const feed = await this.source.feed(listQuery, ctx, present, async (events) => {
      if (!series) return events.every((event) => writer.add(event));
      const ids = events.map((event) => event.id);
      const [facts, changed] = await Promise.all([
        this.seriesReads.ofOccurrences(ids),
        this.seriesReads.changedOf(ids),
      ]);
      return series
        .take(events, facts, changed)
        .every((entry) => writer.add(entry.event, entry.series, entry.changed));
    });
    res.setHeader('X-TEC-Total', String(feed.total));
    if (feed.totalPages !== undefined) res.setHeader('X-TEC-TotalPages', String(feed.totalPages));
    return calendarAnswer(res, writer.finish().bytes, 'events.ics', lastModifiedOf(writer));
  }

  /**
   * One event: a recurring event's real id is its series (one VEVENT with its rules, or its
   * first occurrence with `occurrences`); a provisional id is that occurrence.
   */
  @Endpoint('GET', 'events/:id.ics', { summary: doc('feeds.get'), param: ID })
  async get(
    @Param('id', RouteIdPipe) id: number,
    @Query() query: FeedEventQuery,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Rendered> {
    const event = await this.events.get(id, query.password, ctx);
    const slug = event.slug || `event-${id}`;
    const writer = this.writer(ctx);
    const entries: FeedEntry[] = query.occurrences
      ? [{ event }]
      : new SeriesFeed(ctx.config.siteTimezone).take(
          [event],
          await this.seriesReads.ofEvents([event.id]),
        );
    // A series' own calendar carries its changed occurrences the reader may see, each as a
    // VEVENT of the series' UID with RECURRENCE-ID (CONTRACT §7); the series then does not
    // exclude their starts.
    const series = entries[0]?.series;
    const changed = series ? await this.changedOccurrences(entries[0].event.id, ctx) : [];
    for (const entry of entries) writer.add(entry.event, entry.series);
    for (const { event: one, start } of changed) {
      writer.add(one, undefined, { seriesId: entries[0].event.id, start, series: series! });
    }
    return calendarAnswer(res, writer.finish().bytes, `${slug}.ics`, lastModifiedOf(writer));
  }

  /**
   * The events split off series `seriesId` as changed occurrences that `ctx`'s reader may see
   * (read as a list of those ids: one list query), each with the local start it replaces; at most
   * a page of MAX_PER_PAGE.
   */
  private async changedOccurrences(seriesId: number, ctx: RequestContext) {
    const rows = await this.seriesReads.changedOccurrences(seriesId, ctx.config.maxPerPage);
    if (!rows.length) return [];
    const query = { include: rows.map((r) => r.id), page: 1, per_page: rows.length };
    const list = await this.events.list(query, ctx, new Set(Object.keys(query)));
    const startOf = new Map(rows.map((r) => [r.id, r.seriesStart]));
    return list.items.flatMap((event) => {
      const start = startOf.get(event.id);
      return start === undefined ? [] : [{ event, start }];
    });
  }

  private writer(ctx: RequestContext): CalendarWriter {
    const site = new URL(this.config.siteUrl);
    return new CalendarWriter({
      name: this.i18n.t('feeds.calendar_name', { lang: ctx.language, args: { site: site.host } }),
      uidDomain: `${site.host}${withoutTrailingSlashes(site.pathname)}`,
      language: ctx.language,
      extraLines: (event) => calendarLinesOf(this.extensions, event),
    });
  }
}
