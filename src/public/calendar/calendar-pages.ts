import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context.js';
import type { TecEvent } from '../../common/payload/tec-payload.js';
import type { DatedItem } from '../../events/event-reads.js';
import { APP_CONFIG, LANGUAGES, type AppConfig, type Language } from '../../config/config.js';
import { plainText } from '../../feeds/plain-text.js';
import { eventWhen } from '../format.js';
import { ExtensionRegistry } from '../../extensions/registry.js';
import { adjustJsonLd } from '../../extensions/seams.js';
import { eventSummaryJsonLd, scriptJson } from '../json-ld.js';
import { PageFrame, webcal, type PageResult } from '../page-frame.js';
import { Views } from '../views.js';
import { BoundedMemo, keptWith } from '../../common/bounded-memo.js';
import { Turns } from '../../common/turns.js';
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

/**
 * What the views make of an event's payload, kept with it (the RecordCache hands every request
 * the same payload object until a write changes the event): its title as text, and its JSON-LD
 * summary by address (a language's, an embed's).
 */
interface Made {
  title: string;
  jsonLd: Map<string, string>;
}
const madeOf = keptWith((event: TecEvent): Made => ({
  title: plainText(event.title),
  jsonLd: new Map(),
}));
/** The addresses (a language's, an embed's, a site's) one payload's summary is kept for. */
const JSON_LD_VARIANTS = 6;

/** The cells' plural messages ("+3 more"), by language and arguments: a month repeats them. */
const MAX_MESSAGES = 10_000;
const messages = new BoundedMemo<string>(MAX_MESSAGES);

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
  /** An embedded view opens an event in the page around it, not in its frame. */
  target?: string;
}

/** What every part of one view's answer reads: the request, its period and its language. */
interface ViewState {
  address: ViewAddress;
  scope: CalendarScope;
  request: ViewRequest;
  ctx: RequestContext;
  today: string;
  /** The day the view is about (the list's first day). */
  day: string;
  period: Period;
  locale: CalendarLocale;
  t: Record<string, string>;
}

/** A view's own part: its template data and the events it shows (in the list's order). */
interface ViewBody {
  data: Record<string, unknown>;
  shown: TecEvent[];
  page: number;
  /** The list's neighbours (its pages); the grids' are their periods'. */
  previous?: string;
  next?: string;
}

/**
 * Grids read and written at once in a process. A week's grid builds the payloads of every event it
 * shows (up to MAX_VIEW_EVENTS, 10-20 MB until its page is written): ten uncomputed week views at
 * once took a server from 190 to 370 MB (issue 53). The others wait their turn.
 */
const gridTurns = new Turns(2);

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
    private readonly extensions: ExtensionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async view(
    address: ViewAddress,
    scope: CalendarScope,
    request: ViewRequest,
    ctx: RequestContext,
  ): Promise<PageResult> {
    const today = todayIn(ctx.config.siteTimezone);
    const day = address.day ?? (address.view === 'list' ? (request.listDay ?? today) : today);
    const state: ViewState = {
      address,
      scope,
      request,
      ctx,
      today,
      day,
      period: periodOf(address.view, day, ctx.language),
      locale: new CalendarLocale(ctx.language),
      t: this.views.texts(ctx.language),
    };
    if (address.view === 'list') {
      const body = await this.listBody(state);
      return body ? this.answer(state, body) : this.frame.notFound(ctx);
    }
    return gridTurns.run(async () => {
      const body = await this.gridBody(state);
      return body ? this.answer(state, body) : this.frame.notFound(ctx);
    });
  }

  /** The list view's page of events from its first day on; undefined: no such page. */
  private async listBody(v: ViewState): Promise<ViewBody | undefined> {
    const { ctx, request, day, period } = v;
    const page = request.page;
    if (!Number.isInteger(page) || page < 1 || page > MAX_LIST_PAGE) return undefined;
    const found = await this.reads.from(day, v.scope.filter, page, LIST_PAGE_SIZE, ctx);
    if (!found || (page > 1 && page > found.pages)) return undefined;
    const url = (d: string, p = 1) => this.urlIn(v, 'list', d, ctx.language, p);
    return {
      data: {
        list: found.events.map((e) => ({
          ...this.shown(e, v),
          when: eventWhen(e, ctx.language, v.t.all_day),
        })),
        position: this.views.t(ctx.language, 'page_of', {
          page,
          pages: Math.max(1, found.pages),
        }),
      },
      shown: found.events,
      page,
      // Earlier: the page before, or the month before from the first page; later: the next
      // page, or the month after from the last one.
      previous: page > 1 ? url(day, page - 1) : url(period.previous),
      next: page < found.pages ? url(day, page + 1) : url(period.next),
    };
  }

  /**
   * A month's, a week's or a day's grid: each day's events (a month's first few and "+N more").
   * The JSON-LD lists the events the grid shows, in the list's order.
   */
  private async gridBody(v: ViewState): Promise<ViewBody | undefined> {
    const { period, ctx } = v;
    const found = await this.reads.window(period.first, period.last, v.scope.filter, ctx);
    if (!found) return undefined;
    const cap = v.address.view === 'month' ? MONTH_CELL_EVENTS : Number.POSITIVE_INFINITY;
    const days = [...placeByDay(found.items, period.first, period.last)].map(
      ([d, items]) => [d, items.slice(0, cap), items.length] as const,
    );
    // Payloads only for what the grid lists: a busy month's "+N more" hide most of its events.
    const listed = new Set<DatedItem>();
    for (const [, items] of days) for (const item of items) listed.add(item);
    const shownItems = found.items.filter((item) => listed.has(item));
    const payloads = await found.present(shownItems);
    const payloadsOf = (items: readonly DatedItem[]) =>
      items.flatMap((item) => payloads.get(item.id) ?? []);
    const cells = days.map(([d, items, count]) =>
      this.cell(v, d, payloadsOf(items), count - items.length),
    );
    const weeks: Array<typeof cells> = [];
    for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
    const truncated =
      found.total > MAX_VIEW_EVENTS
        ? this.views.t(ctx.language, 'cal_truncated', {
            shown: MAX_VIEW_EVENTS,
            count: found.total,
          })
        : '';
    return {
      data: { weekdays: v.locale.weekdays(), weeks, days: cells, truncated },
      shown: payloadsOf(shownItems),
      page: 1,
    };
  }

  /** A day of a grid: its date, link, the events it lists and how many more it holds. */
  private cell(v: ViewState, d: string, events: readonly TecEvent[], more: number) {
    const { ctx, locale } = v;
    const label = locale.longDay(d);
    return {
      day: d,
      number: locale.dayOfMonth(d),
      label,
      href: this.urlIn(v, 'day', d),
      today: d === v.today,
      outside: v.address.view === 'month' && d.slice(0, 7) !== v.period.day.slice(0, 7),
      events: events.map((e) => this.shown(e, v, d)),
      more: more > 0 ? this.message(ctx.language, 'cal_more', more) : '',
      moreLabel: more > 0 ? this.message(ctx.language, 'cal_more_on', more, label) : '',
    };
  }

  /** A cell's plural message `key` for `count` (and `day`), translated once. */
  private message(language: Language, key: string, count: number, day = ''): string {
    const id = `${language}\n${key}\n${count}\n${day}`;
    return messages.get(id, () => this.views.t(language, key, { count, day }));
  }

  /**
   * The page around a view's body: heading, navigation, the other views, the subscription, the
   * embed snippets, the translations and the JSON-LD of what it shows.
   */
  private answer(v: ViewState, body: ViewBody): PageResult {
    const { address, scope, ctx, period, t } = v;
    const heading = this.heading(period, v.locale, t);
    const ics = this.icsUrl(period, scope, ctx, address.view === 'list');
    // An embed's canonical page is the site's own view.
    const canonical = this.viewUrl(scope, false, ctx.language, address.view, period.day, body.page);
    const data = {
      ...body.data,
      ...this.navigation(v, body),
      ...this.snippets(v, body.page),
      view: address.view,
      heading,
      subject: scope.subject,
      embed: v.request.embed,
      subscribe: { title: t.cal_subscribe, href: ics, webcal: webcal(ics) },
      empty: body.shown.length === 0,
    };
    const translations = Object.fromEntries(
      LANGUAGES.filter((lang) => scope.everyLanguage || lang === ctx.language).map((lang) => [
        lang,
        this.urlIn(v, address.view, period.day, lang, body.page),
      ]),
    );
    const title = scope.subject ? `${heading} – ${scope.subject}` : heading;
    return this.frame.html(ctx, 'calendar', data, {
      title,
      canonical,
      translations,
      calendars: [{ title: t.cal_subscribe, href: ics, webcal: webcal(ics) }],
      jsonLd: this.itemList(body.shown, ctx, title, canonical),
    });
  }

  /** Previous, next and today, and the other views of the same period. */
  private navigation(v: ViewState, body: ViewBody) {
    const { address, period, t } = v;
    return {
      nav: {
        previous: {
          href: body.previous ?? this.urlIn(v, address.view, period.previous),
          label: t[`cal_previous_${address.view}`],
        },
        next: {
          href: body.next ?? this.urlIn(v, address.view, period.next),
          label: t[`cal_next_${address.view}`],
        },
        today: { href: this.urlIn(v, address.view, v.today), label: t.cal_today },
      },
      views: CALENDAR_VIEWS.map((view) => ({
        label: t[`cal_view_${view}`],
        href: this.urlIn(v, view, period.day),
        current: view === address.view,
      })),
    };
  }

  /** The iframe and the embed.js snippets a site copies to show this view. */
  private snippets(v: ViewState, page: number) {
    const { ctx } = v;
    const embedUrl = this.viewUrl(v.scope, true, ctx.language, v.address.view, v.period.day, page);
    return {
      snippet: `<iframe src="${embedUrl}" title="${this.views.t(ctx.language, 'cal_embed_title')}" width="100%" height="800" style="border:0" loading="lazy"></iframe>`,
      script: `<div data-cal-embed="${embedUrl}"></div>\n<script src="${this.config.siteUrl}/embed.js" async></script>`,
    };
  }

  /** A view's address in this view's scope and framing (its language unless told). */
  private urlIn(
    v: ViewState,
    view: CalendarView,
    day: string,
    language = v.ctx.language,
    page = 1,
  ): string {
    return this.viewUrl(v.scope, v.request.embed, language, view, day, page);
  }

  /** An event as a view links it: to its `url` (an occurrence's dated one) in its language. */
  private shown(event: TecEvent, v: ViewState, day?: string): ShownEvent {
    const allDay = !!event.all_day;
    const starts = event.start_date.slice(0, 10);
    return {
      href: this.frame.localize(event.url, event.language ?? v.ctx.language),
      title: madeOf(event).title,
      time: allDay
        ? v.t.all_day
        : day === undefined || day === starts
          ? v.locale.time(event.start_date)
          : '',
      allDay,
      target: v.request.embed ? '_top' : undefined,
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

  /**
   * schema.org ItemList of the events a view shows (the first JSON_LD_EVENTS of them), serialized
   * (scriptJson): each event's summary (with the modules' properties: an online event's
   * attendance mode and VirtualLocation) is written once per payload and address.
   */
  private itemList(events: readonly TecEvent[], ctx: RequestContext, name: string, url: string) {
    const items = events.slice(0, JSON_LD_EVENTS).map((event, i) => {
      const language = event.language ?? ctx.language;
      const href = this.frame.localize(event.url, language);
      const kept = madeOf(event).jsonLd;
      let json = kept.get(href);
      if (json === undefined) {
        json = scriptJson(adjustJsonLd(this.extensions, eventSummaryJsonLd(event, href), event));
        if (kept.size < JSON_LD_VARIANTS) kept.set(href, json);
      }
      return `{"@type":"ListItem","position":${i + 1},"item":${json}}`;
    });
    const head = scriptJson({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name,
      url,
      numberOfItems: events.length,
    });
    return `${head.slice(0, -1)},"itemListElement":[${items.join(',')}]}`;
  }
}
