import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context.js';
import type { TecEvent } from '../../common/payload/tec-payload.js';
import { APP_CONFIG, LANGUAGES, type AppConfig, type Language } from '../../config/config.js';
import { plainText } from '../../feeds/plain-text.js';
import { eventWhen } from '../format.js';
import { eventJsonLd, scriptJson } from '../json-ld.js';
import { PageFrame, webcal, type PageResult } from '../page-frame.js';
import { Views } from '../views.js';
import {
  CALENDAR_VIEWS,
  CalendarLocale,
  periodOf,
  todayIn,
  type CalendarView,
  type Period,
  type ViewAddress,
} from './calendar-dates.js';
import {
  CalendarReads,
  MAX_VIEW_EVENTS,
  placeByDay,
  windowQuery,
  type ViewFilter,
} from './calendar-reads.js';

/** Events a month's cell lists before "+N more" (the day view lists them all). */
const MONTH_CELL_EVENTS = 3;
/** Events per page of the list view (the plugin's default). */
const LIST_PAGE_SIZE = 12;
/** The highest `?page=` of the list view. */
const MAX_LIST_PAGE = 1_000;
/** Events the JSON-LD of a view lists at most (its `numberOfItems` says how many it shows). */
const JSON_LD_EVENTS = 100;

/** What a view is narrowed to, and where its addresses start. */
export interface CalendarScope {
  filter: ViewFilter;
  /** The path the views' tails follow: `/events/`, `/events/category/{path}/`, `/events/tag/{slug}/`. */
  base: string;
  /** `?venue=…&organizer=…&search=…` as the view keeps it in its links ('' when none). */
  query: Record<string, string>;
  /** A category's or tag's name, shown above the view. */
  subject?: string;
  /** Whether the other languages have the same scope (not a term of one language). */
  everyLanguage: boolean;
}

/** How a view is asked for beyond its address. */
export interface ViewRequest {
  embed: boolean;
  /** `?page=` of the list view (NaN: not a page number). */
  page: number;
  /** `?tribe-bar-date=` of the list view. */
  listDay?: string;
}

interface ShownEvent {
  href: string;
  title: string;
  time: string;
  allDay: boolean;
}

/**
 * The calendar views (CONTRACT §7): month, week, day and list at the plugin's addresses, each
 * reading its window of the events list as the API answers the reader, laid out by the events'
 * own local dates in the site's calendar, with its neighbours, the other views of the same
 * period, the subscription to what it shows and its JSON-LD.
 */
@Injectable()
export class CalendarPages {
  constructor(
    private readonly reads: CalendarReads,
    private readonly views: Views,
    private readonly frame: PageFrame,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async view(
    address: ViewAddress,
    scope: CalendarScope,
    request: ViewRequest,
    ctx: RequestContext,
  ): Promise<PageResult> {
    const zone = ctx.config.siteTimezone;
    const today = todayIn(zone);
    const day = address.day ?? (address.view === 'list' ? (request.listDay ?? today) : today);
    const period = periodOf(address.view, day, ctx.language);
    const locale = new CalendarLocale(ctx.language);
    const t = this.views.texts(ctx.language);
    const url = (view: CalendarView, d: string, language = ctx.language, page = 1) =>
      this.viewUrl(scope, request.embed, language, view, d, page);

    let body: Record<string, unknown>;
    let shown: TecEvent[];
    let total: number;
    let page = 1;
    if (address.view === 'list') {
      page = request.page;
      if (!Number.isInteger(page) || page < 1 || page > MAX_LIST_PAGE) {
        return this.frame.notFound(ctx);
      }
      const found = await this.reads.from(day, scope.filter, page, LIST_PAGE_SIZE, ctx);
      if (!found || (page > 1 && page > found.pages)) return this.frame.notFound(ctx);
      shown = found.events;
      total = found.total;
      body = {
        list: shown.map((e) => ({
          ...this.shown(e, ctx, locale, t, request.embed),
          when: eventWhen(e, ctx.language, t.all_day),
        })),
        // Earlier: the page before, or the month before from the first page; later: the next
        // page, or the month after from the last one.
        previous:
          page > 1 ? url('list', day, ctx.language, page - 1) : url('list', period.previous),
        next:
          page < found.pages ? url('list', day, ctx.language, page + 1) : url('list', period.next),
        position: this.views.t(ctx.language, 'page_of', {
          page,
          pages: Math.max(1, found.pages),
        }),
      };
    } else {
      const found = await this.reads.window(period.first, period.last, scope.filter, ctx);
      if (!found) return this.frame.notFound(ctx);
      shown = found.events;
      total = found.total;
      const byDay = placeByDay(shown, period.first, period.last);
      const cells = [...byDay].map(([d, events]) => {
        const cap = address.view === 'month' ? MONTH_CELL_EVENTS : events.length;
        return {
          day: d,
          number: locale.dayOfMonth(d),
          label: locale.longDay(d),
          href: url('day', d),
          today: d === today,
          outside: address.view === 'month' && d.slice(0, 7) !== period.day.slice(0, 7),
          events: events.slice(0, cap).map((e) => this.shown(e, ctx, locale, t, request.embed, d)),
          more:
            events.length > cap
              ? this.views.t(ctx.language, 'cal_more', { count: events.length - cap })
              : '',
          moreLabel:
            events.length > cap
              ? this.views.t(ctx.language, 'cal_more_on', {
                  count: events.length - cap,
                  day: locale.longDay(d),
                })
              : '',
        };
      });
      const weeks: Array<typeof cells> = [];
      for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
      body = {
        weekdays: locale.weekdays(),
        weeks,
        days: cells,
        truncated:
          total > MAX_VIEW_EVENTS
            ? this.views.t(ctx.language, 'cal_truncated', {
                shown: MAX_VIEW_EVENTS,
                count: total,
              })
            : '',
      };
    }

    const heading = this.heading(period, locale, t);
    const ics = this.icsUrl(period, scope, ctx, address.view === 'list');
    // An embed's canonical page is the site's own view.
    const canonical = this.viewUrl(scope, false, ctx.language, address.view, period.day, page);
    const embedUrl = this.viewUrl(scope, true, ctx.language, address.view, period.day, page);
    const snippet = `<iframe src="${embedUrl}" title="${this.views.t(ctx.language, 'cal_embed_title')}" width="100%" height="800" style="border:0" loading="lazy"></iframe>`;
    const script = `<div data-cal-embed="${embedUrl}"></div>\n<script src="${this.config.siteUrl}/embed.js" async></script>`;
    const label = (view: CalendarView) => t[`cal_view_${view}`];
    const data = {
      ...body,
      view: address.view,
      heading,
      subject: scope.subject,
      embed: request.embed,
      nav: {
        previous: {
          href: body.previous ?? url(address.view, period.previous),
          label: t[`cal_previous_${address.view}`],
        },
        next: {
          href: body.next ?? url(address.view, period.next),
          label: t[`cal_next_${address.view}`],
        },
        today: { href: url(address.view, today), label: t.cal_today },
      },
      views: CALENDAR_VIEWS.map((view) => ({
        label: label(view),
        href: url(view, period.day),
        current: view === address.view,
      })),
      subscribe: { title: t.cal_subscribe, href: ics, webcal: webcal(ics) },
      snippet,
      script,
      empty: shown.length === 0,
    };
    const translations = Object.fromEntries(
      LANGUAGES.filter((lang) => scope.everyLanguage || lang === ctx.language).map((lang) => [
        lang,
        url(address.view, period.day, lang, page),
      ]),
    );
    const title = scope.subject ? `${heading} – ${scope.subject}` : heading;
    return this.frame.html(ctx, 'calendar', data, {
      title,
      canonical,
      translations,
      calendars: [{ title: t.cal_subscribe, href: ics, webcal: webcal(ics) }],
      jsonLd: scriptJson(this.itemList(shown, total, ctx, title, canonical)),
    });
  }

  /** An event as a view links it: to its `url` (an occurrence's dated one) in its language. */
  private shown(
    event: TecEvent,
    ctx: RequestContext,
    locale: CalendarLocale,
    t: Record<string, string>,
    embed: boolean,
    day?: string,
  ): ShownEvent & { target?: string } {
    const allDay = !!event.all_day;
    const starts = event.start_date.slice(0, 10);
    return {
      href: this.frame.localize(event.url, event.language ?? ctx.language),
      title: plainText(event.title),
      time: allDay
        ? t.all_day
        : day === undefined || day === starts
          ? locale.time(event.start_date)
          : '',
      allDay,
      // An embedded view opens an event in the page around it, not in its frame.
      target: embed ? '_top' : undefined,
    };
  }

  private heading(period: Period, locale: CalendarLocale, t: Record<string, string>): string {
    if (period.view === 'month') return locale.month(period.day);
    if (period.view === 'week') return locale.range(period.first, period.last);
    if (period.view === 'day') return locale.longDay(period.day);
    return t.cal_list_heading.replace('{day}', locale.longDay(period.day));
  }

  /** The address of a view: `{SITE_URL}{/lang}{/embed}{base}{tail}{?query}`. */
  viewUrl(
    scope: CalendarScope,
    embed: boolean,
    language: Language,
    view: CalendarView,
    day: string,
    page = 1,
  ): string {
    const tail =
      view === 'month'
        ? `month/${day.slice(0, 7)}/`
        : view === 'week'
          ? `week/${day}/`
          : view === 'day'
            ? `${day}/`
            : 'list/';
    const params = new URLSearchParams(scope.query);
    if (view === 'list') {
      params.set('tribe-bar-date', day);
      if (page > 1) params.set('page', String(page));
    }
    const query = params.toString();
    return this.frame.siteUrl(
      language,
      `${embed ? '/embed' : ''}${scope.base}${tail}${query ? `?${query}` : ''}`,
    );
  }

  /**
   * The iCalendar feed of exactly what the view shows: the same window (the list's: from its
   * first day on) and filters of the events list.
   */
  private icsUrl(period: Period, scope: CalendarScope, ctx: RequestContext, open: boolean): string {
    const params = new URLSearchParams(
      windowQuery(period.first, open ? undefined : period.last, ctx.config.siteTimezone),
    );
    const filter = scope.filter;
    for (const name of ['categories', 'tags', 'venue', 'organizer'] as const) {
      const ids = filter[name];
      if (ids?.length) params.set(name, ids.join(','));
    }
    if (filter.search) params.set('search', filter.search);
    return `${ctx.restBase}/events.ics?${params.toString()}`;
  }

  /** schema.org ItemList of the view's events (the first JSON_LD_EVENTS of them). */
  private itemList(
    events: readonly TecEvent[],
    total: number,
    ctx: RequestContext,
    name: string,
    url: string,
  ) {
    return {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name,
      url,
      numberOfItems: Math.min(total, events.length),
      itemListElement: events.slice(0, JSON_LD_EVENTS).map((event, i) => {
        const language = event.language ?? ctx.language;
        const { '@context': _context, ...item } = eventJsonLd(
          event,
          this.frame.localize(event.url, language),
          language,
        );
        return { '@type': 'ListItem', position: i + 1, item };
      }),
    };
  }
}
