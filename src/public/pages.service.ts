import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { ApiError } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { NOT_STORED, httpDate } from '../common/http/conditional.js';
import { filterPostHtml } from '../common/text/index.js';
import { APP_CONFIG, LANGUAGES, type AppConfig, type Language } from '../config/config.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import { EventsService } from '../events/events.service.js';
import { isProvisionalId } from '../events/event-series.js';
import { SeriesReads } from '../events/series-reads.js';
import type {
  TecEmbeddedTerm,
  TecEvent,
  TecOrganizer,
  TecTerm,
  TecVenue,
} from '../common/payload/tec-payload.js';
import { plainText } from '../feeds/plain-text.js';
import { OrganizerQueries } from '../organizers/organizers.service.js';
import { TermQueries } from '../terms/term-queries.js';
import type { Taxonomy } from '../terms/taxonomy.js';
import { VenueQueries } from '../venues/venues.service.js';
import { eventWhen, ogLocale } from './format.js';
import { eventJsonLd, scriptJson } from './json-ld.js';
import { Views, type PageHead, type Texts } from './views.js';

/** Events per page of the public lists. */
const PAGE_SIZE = 10;
/** The highest `?page=` a public list accepts (beyond: 404). */
const MAX_PAGE = 10_000;
/** Upcoming dates an event page of a series lists (CONTRACT §9). */
const UPCOMING_DATES = 10;
/** The dated tail of an occurrence's `url`: `{YYYY-MM-DD}/` and `{n}/` (BEHAVIOR §15). */
const DATED_TAIL = /\/(\d{4}-\d\d-\d\d\/(?:\d+\/)?)$/;

export type PageResult =
  | { kind: 'html'; status: number; html: string; cacheControl?: string; lastModified?: string }
  | { kind: 'redirect'; location: string };

/** A list page: which events, and what the page says about its subject. */
interface Scope {
  /** Filters of the events list (venue, organizer, categories, tags). */
  filter: Partial<ListEventsQuery>;
  /** The page's URL without `?page=`. */
  url: string;
  heading: string;
  title: string;
  description?: string;
  intro?: string;
  details?: Array<[string, string, string?]>;
  rss: { title: string; href: string };
  calendar: { title: string; query: string };
  translations?: Partial<Record<Language, string>>;
  home?: boolean;
  image?: string;
}

/**
 * The window of the public lists and feeds: from today (the API's default start) with no
 * practical end (the API's default end is 24 months ahead).
 */
export const upcoming = () => ({
  end_date: DateTime.utc().plus({ years: 100 }).toFormat('yyyy-MM-dd'),
});

const webcal = (url: string) => url.replace(/^https?:/, 'webcal:');
const isPublic = (ctx: RequestContext, record: { status?: string }) =>
  ctx.actor.user !== undefined && ctx.actor.user !== null ? true : record.status === 'publish';

/**
 * The public pages (CONTRACT §7): every record is read through the same services as the
 * API, with the reader's RequestContext, so the pages show exactly what the API shows that
 * reader, in the same language; anything the reader may not see is a 404.
 */
@Injectable()
export class PagesService {
  constructor(
    private readonly events: EventsService,
    private readonly series: SeriesReads,
    private readonly venues: VenueQueries,
    private readonly organizers: OrganizerQueries,
    private readonly terms: TermQueries,
    private readonly views: Views,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ------------------------------------------------------------------ addresses

  private prefix(language: Language): string {
    return language === this.config.defaultLanguage ? '' : `/${language}`;
  }

  /** `{SITE_URL}{/lang}{path}`. */
  siteUrl(language: Language, path = '/'): string {
    return `${this.config.siteUrl}${this.prefix(language)}${path}`;
  }

  /** A record's `url` as a page of its language (`/hu/event/x/`). */
  localize(url: unknown, language: Language): string {
    const text = typeof url === 'string' ? url : '';
    if (!text.startsWith(`${this.config.siteUrl}/`)) return text;
    return this.siteUrl(language, text.slice(this.config.siteUrl.length));
  }

  private sitePath(): string {
    return new URL(this.config.siteUrl).pathname.replace(/\/$/, '');
  }

  // ------------------------------------------------------------------ pages

  /** PUBLIC_URL_TEMPLATE points the `url`s at another front end: the record pages are off. */
  get recordPagesOn(): boolean {
    return !this.config.publicUrlTemplate;
  }

  async eventPage(slug: string, password: string | undefined, ctx: RequestContext) {
    if (!this.recordPagesOn || !slug) return this.notFound(ctx);
    const found = await this.readOrMove(
      (c) => this.events.getBySlug(slug, password, c),
      ctx,
      (lang) => this.siteUrl(lang, `/event/${slug}/`),
    );
    return this.eventResult(found, password, ctx, this.sitePathOf(ctx.language, `/event/${slug}/`));
  }

  /**
   * `/event/{slug}/{YYYY-MM-DD}/` and `/event/{slug}/{YYYY-MM-DD}/{n}/`: one occurrence of a
   * recurring event, at the address its `url` gives (BEHAVIOR §15); the n-th of that day when
   * several start on it. A day without an occurrence, or a single event, is not found.
   */
  async occurrencePage(
    slug: string,
    day: string,
    index: number,
    password: string | undefined,
    ctx: RequestContext,
  ) {
    if (!this.recordPagesOn || !slug) return this.notFound(ctx);
    const tail = `${day}/${index > 1 ? `${index}/` : ''}`;
    const found = await this.readOrMove(
      (c) => this.events.getBySlug(slug, password, c),
      ctx,
      (lang) => this.siteUrl(lang, `/event/${slug}/${tail}`),
    );
    const action = this.sitePathOf(ctx.language, `/event/${slug}/${tail}`);
    if (found.kind !== 'found') return this.eventResult(found, password, ctx, action);
    const id = await this.series.occurrenceOn(found.record.id, day, index);
    if (id === undefined) return this.notFound(ctx);
    const occurrence = await this.read(() => this.events.get(id, password, ctx));
    return this.eventResult(occurrence, password, ctx, action);
  }

  async eventById(id: number, password: string | undefined, ctx: RequestContext) {
    if (!this.recordPagesOn) return this.notFound(ctx);
    const found = await this.read(() => this.events.get(id, password, ctx));
    const action = this.sitePathOf(ctx.language, `/?post_type=cal_events&p=${id}`);
    return this.eventResult(found, password, ctx, action);
  }

  /**
   * `{path of SITE_URL}{/lang}{path}`: where a form of a page posts to. A path, not an absolute
   * URL, so the form stays on the origin the reader sees (the CSP's `form-action 'self'`).
   */
  private sitePathOf(language: Language, path: string): string {
    return `${this.sitePath()}${this.prefix(language)}${path}`;
  }

  private async eventResult(
    found: Found<TecEvent>,
    password: string | undefined,
    ctx: RequestContext,
    action: string,
  ): Promise<PageResult> {
    if (found.kind === 'redirect') return found;
    if (found.kind === 'protected') {
      return this.html(
        ctx,
        'password',
        { wrong: password !== undefined, action },
        {
          title: this.views.t(ctx.language, 'protected_title'),
          status: password === undefined ? 200 : 403,
          cacheControl: NOT_STORED,
        },
      );
    }
    if (found.kind === 'missing' || !isPublic(ctx, found.record)) return this.notFound(ctx);
    const event = found.record;
    const language = event.language ?? ctx.language;
    const url = this.localize(event.url, language);
    const t = this.views.texts(ctx.language);
    const venue = Array.isArray(event.venue) || !event.venue.venue ? undefined : event.venue;
    const address = venue
      ? [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
          .map(plainText)
          .filter(Boolean)
          .join(', ')
      : '';
    const ics = `${ctx.restBase}/events/${event.id}.ics`;
    const view = {
      title: plainText(event.title),
      when: eventWhen(event, ctx.language, t.all_day),
      image: event.image ? event.image.url : '',
      venue: venue
        ? {
            name: plainText(venue.venue),
            href: this.localize(venue.url, language),
            address,
            // Only where the event asks for it (`show_map_link`, off unless set, as in the plugin).
            map: event.show_map_link === true ? mapLink(venue, address) : '',
          }
        : undefined,
      organizers: event.organizer.map((o) => ({
        name: plainText(o.organizer),
        href: this.localize(o.url, language),
      })),
      cost: plainText(event.cost),
      categories: await this.termLinks('category', event.categories, language, ctx),
      tags: await this.termLinks('tag', event.tags, language, ctx),
      website:
        /^https?:\/\//.test(event.website) && event.website !== event.url ? event.website : '',
      // The description as the API renders it, through the post allowlist once more.
      description: filterPostHtml(event.description),
      ics,
      webcal: webcal(ics),
      series: await this.seriesView(event, language, ctx),
    };
    const translations = await this.eventTranslations(event, ctx);
    const description = plainText(event.excerpt) || plainText(event.description).slice(0, 300);
    const unlocked = password !== undefined;
    return this.html(
      ctx,
      'event',
      { event: view },
      {
        title: view.title,
        description,
        canonical: url,
        translations,
        image: view.image,
        ogType: 'article',
        jsonLd: scriptJson(eventJsonLd(event, url, language)),
        calendars: [{ title: t.add_to_calendar, href: ics, webcal: webcal(ics) }],
        cacheControl: unlocked ? NOT_STORED : undefined,
        lastModified: unlocked ? undefined : httpDate(event.modified_utc),
      },
    );
  }

  /**
   * What the page of a recurring event (or of one of its occurrences) says of its series
   * (CONTRACT §9): the rule in words in the reader's language, the next dates, each a link to its
   * occurrence's page, and the series' own page and calendar. Undefined for a single event.
   */
  private async seriesView(event: TecEvent, language: Language, ctx: RequestContext) {
    if (!event.recurrence) return undefined;
    let seriesId = event.id;
    if (isProvisionalId(event.id)) {
      const facts = await this.series.ofOccurrences([event.id]);
      const found = facts.get(event.id);
      if (!found) return undefined;
      seriesId = found.eventId;
    }
    const t = this.views.texts(ctx.language);
    // `include` sets the dates aside (Service D2): the dates still to end, from now.
    const query = {
      include: [seriesId],
      strict_dates: 'true',
      ends_after: DateTime.utc().toFormat('yyyy-MM-dd HH:mm:ss'),
      page: 1,
      per_page: UPCOMING_DATES,
    } as unknown as ListEventsQuery;
    const next = await this.read(() => this.events.list(query, ctx, new Set(Object.keys(query))));
    const dates = next.kind === 'found' ? next.record.items : [];
    const seriesIcs = `${ctx.restBase}/events/${seriesId}.ics`;
    return {
      description: event.recurrence.description,
      dates: dates.map((o) => ({
        when: eventWhen(o, ctx.language, t.all_day),
        href: this.localize(o.url, language),
        current: o.id === event.id,
      })),
      page: this.localize(event.url.replace(DATED_TAIL, '/'), language),
      occurrence: isProvisionalId(event.id),
      ics: seriesIcs,
    };
  }

  /** Name and page of each term embedded in an event (the embedded form has no `url`). */
  private async termLinks(
    taxonomy: Taxonomy,
    embedded: readonly TecEmbeddedTerm[],
    language: Language,
    ctx: RequestContext,
  ): Promise<Array<{ name: string; href: string }>> {
    const out: Array<{ name: string; href: string }> = [];
    for (const term of embedded) {
      const found = await this.read(() => this.terms.get(taxonomy, term.id, { ...ctx, language }));
      if (found.kind !== 'found') continue;
      out.push({
        name: plainText(found.record.name),
        href: this.localize(found.record.url, language),
      });
    }
    return out;
  }

  private async eventTranslations(event: TecEvent, ctx: RequestContext) {
    const out: Partial<Record<Language, string>> = {};
    const ids = event.translations;
    // An occurrence's page: each translation's page of the same day (translations of a series
    // are series of the same dates).
    const tail = isProvisionalId(event.id) ? (DATED_TAIL.exec(event.url)?.[1] ?? '') : '';
    for (const language of LANGUAGES) {
      const id = ids[language];
      if (id === undefined) continue;
      if (id === event.id || language === event.language) {
        out[language] = this.localize(event.url, language);
        continue;
      }
      const other = await this.read(() => this.events.get(id, undefined, { ...ctx, language }));
      if (other.kind === 'found' && isPublic(ctx, other.record)) {
        // A series read by its real id shows its first occurrence's dated url: the day is this one.
        const url = other.record.recurrence
          ? other.record.url.replace(DATED_TAIL, '/')
          : other.record.url;
        out[language] = this.localize(tail && url.endsWith('/') ? `${url}${tail}` : url, language);
      }
    }
    return out;
  }

  async linkedPage(
    kind: 'venue' | 'organizer',
    slug: string,
    page: number,
    ctx: RequestContext,
  ): Promise<PageResult> {
    if (!this.recordPagesOn || !slug) return this.notFound(ctx);
    const t = this.views.texts(ctx.language);
    const load = (c: RequestContext): Promise<LinkedView> =>
      kind === 'venue'
        ? this.venues
            .getBySlug(slug, c, { edit: false })
            .then((venue) => linkedView(venue, venue.venue, venueDetails(venue, t)))
        : this.organizers
            .getBySlug(slug, c, { edit: false })
            .then((organizer) =>
              linkedView(organizer, organizer.organizer, organizerDetails(organizer, t)),
            );
    const found = await this.readOrMove(load, ctx, (lang) =>
      this.siteUrl(lang, `/${kind}/${slug}/`),
    );
    if (found.kind === 'redirect') return found;
    if (found.kind !== 'found' || !isPublic(ctx, found.record)) return this.notFound(ctx);
    const { record, name } = found.record;
    const id = record.id;
    if (id === undefined) return this.notFound(ctx);
    const details = [...found.record.details];
    if (record.website && /^https?:\/\//.test(record.website)) {
      details.push([t.website, record.website, record.website]);
    }
    const translations: Partial<Record<Language, string>> = {};
    if (record.translations?.[ctx.language] === id) {
      translations[ctx.language] = this.localize(record.url, ctx.language);
    }
    return this.listPage(ctx, page, {
      filter: kind === 'venue' ? { venue: [id] } : { organizer: [id] },
      url: this.localize(record.url, ctx.language),
      heading: name,
      title: name,
      description: plainText(record.description).slice(0, 300),
      intro: filterPostHtml(record.description ?? ''),
      details,
      rss: this.siteRss(ctx),
      calendar: {
        title: this.views.t(ctx.language, 'calendar_of', { name }),
        query: `${kind}=${id}`,
      },
      translations,
      image: record.image ? record.image.url : undefined,
    });
  }

  /** `/events/category/{path}/` and `/tag/{slug}/`. */
  async termPage(
    taxonomy: Taxonomy,
    segments: string[],
    page: number,
    ctx: RequestContext,
  ): Promise<PageResult> {
    const slug = segments[segments.length - 1];
    if (!this.recordPagesOn) return this.notFound(ctx);
    const term = await this.findTerm(taxonomy, segments, ctx);
    if (!term) return this.notFound(ctx);
    const t = this.views.texts(ctx.language);
    const name = plainText(term.name);
    const url = this.localize(term.url, ctx.language);
    const label = taxonomy === 'category' ? t.category : t.tag;
    return this.listPage(ctx, page, {
      filter: taxonomy === 'category' ? { categories: [term.id] } : { tags: [term.id] },
      url,
      heading: name,
      title: `${name} – ${label}`,
      description: plainText(term.description).slice(0, 300),
      intro: filterPostHtml(term.description),
      rss: {
        title: this.views.t(ctx.language, 'rss_title_of', { site: this.siteName(), name }),
        href: `${url}feed/`,
      },
      calendar: {
        title: this.views.t(ctx.language, 'calendar_of', { name }),
        query: `${taxonomy === 'category' ? 'categories' : 'tags'}=${term.id}`,
      },
      translations: { [ctx.language]: url },
      details: [[label, slug]],
    });
  }

  async findTerm(
    taxonomy: Taxonomy,
    segments: string[],
    ctx: RequestContext,
  ): Promise<TecTerm | undefined> {
    const slug = segments[segments.length - 1];
    if (!slug) return undefined;
    const archive = await this.read(() => this.terms.list(taxonomy, { slug, per_page: 100 }, ctx));
    if (archive.kind !== 'found') return undefined;
    const items = archive.record.items;
    const path =
      taxonomy === 'category' ? `/events/category/${segments.join('/')}/` : `/tag/${slug}/`;
    return items.find(
      (item) => item.url === `${this.config.siteUrl}${path}` || this.sameTerm(item, segments),
    );
  }

  /** With PUBLIC_URL_TEMPLATE the `url`s name no path here: a term is known by its slug. */
  private sameTerm(item: TecTerm, segments: string[]): boolean {
    return !this.recordPagesOn && item.slug === segments[segments.length - 1];
  }

  async homePage(page: number, ctx: RequestContext): Promise<PageResult> {
    const t = this.views.texts(ctx.language);
    return this.listPage(ctx, page, {
      filter: {},
      url: this.siteUrl(ctx.language),
      heading: t.site_name,
      title: t.site_name,
      description: t.home_intro,
      intro: `<p>${escapeText(t.home_intro)}</p>`,
      rss: this.siteRss(ctx),
      calendar: { title: t.calendar_all, query: '' },
      home: true,
    });
  }

  siteName(): string {
    return new URL(this.config.siteUrl).host;
  }

  private siteRss(ctx: RequestContext) {
    return {
      title: this.views.t(ctx.language, 'rss_title', { site: this.siteName() }),
      href: this.siteUrl(ctx.language, '/feed/'),
    };
  }

  private async listPage(ctx: RequestContext, page: number, scope: Scope): Promise<PageResult> {
    if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) return this.notFound(ctx);
    const query = { ...scope.filter, ...upcoming(), page, per_page: PAGE_SIZE } as ListEventsQuery;
    const archive = await this.events.list(query, ctx, new Set(Object.keys(query)));
    if (page > 1 && page > archive.totalPages) return this.notFound(ctx);
    const t = this.views.texts(ctx.language);
    const events = archive.items.map((e) => {
      const venue = e.venue;
      return {
        href: this.localize(e.url, e.language ?? ctx.language),
        title: plainText(e.title),
        when: eventWhen(e, ctx.language, t.all_day),
        venue:
          venue && !Array.isArray(venue) && venue.venue
            ? [venue.venue, venue.city].map(plainText).filter(Boolean).join(', ')
            : '',
      };
    });
    const at = (p: number) => (p === 1 ? scope.url : `${scope.url}?page=${p}`);
    const list = {
      events,
      previous: page > 1 ? at(page - 1) : '',
      next: page < archive.totalPages ? at(page + 1) : '',
      position: this.views.t(ctx.language, 'page_of', {
        page,
        pages: Math.max(1, archive.totalPages),
      }),
    };
    const ics = `${ctx.restBase}/events.ics${scope.calendar.query ? `?${scope.calendar.query}` : ''}`;
    const apiLinks = scope.home
      ? LANGUAGES.map((lang) => ({
          lang,
          href: `${this.config.siteUrl}${this.config.basePath}${this.prefix(lang)}/cal/events/v1/doc/ui`,
          label: this.views.t(ctx.language, 'api_link', {
            language: this.views.t(ctx.language, `language_${lang}`),
          }),
        }))
      : undefined;
    return this.html(
      ctx,
      'archive',
      { heading: scope.heading, intro: scope.intro, details: scope.details, list, apiLinks },
      {
        title: page > 1 ? `${scope.title} (${list.position})` : scope.title,
        description: scope.description,
        canonical: at(page),
        translations: scope.home
          ? Object.fromEntries(LANGUAGES.map((lang) => [lang, this.siteUrl(lang)]))
          : scope.translations,
        rss: scope.rss,
        image: scope.image,
        calendars: [{ title: scope.calendar.title, href: ics, webcal: webcal(ics) }],
      },
    );
  }

  notFound(ctx: RequestContext): PageResult {
    return this.html(
      ctx,
      'not-found',
      {},
      { title: this.views.t(ctx.language, 'not_found_title'), status: 404 },
    );
  }

  // ------------------------------------------------------------------ rendering

  private html(
    ctx: RequestContext,
    view: string,
    data: Record<string, unknown>,
    head: {
      title: string;
      status?: number;
      description?: string;
      canonical?: string;
      translations?: Partial<Record<Language, string>>;
      rss?: { title: string; href: string };
      calendars?: PageHead['calendars'];
      image?: string;
      ogType?: string;
      jsonLd?: string;
      cacheControl?: string;
      lastModified?: string;
    },
  ): PageResult {
    const t = this.views.texts(ctx.language);
    const translations = head.translations ?? {};
    const allEvents = `${ctx.restBase}/events.ics`;
    const og: Array<[string, string]> = [
      ['og:type', head.ogType ?? 'website'],
      ['og:site_name', t.site_name],
      ['og:title', head.title],
      ['og:locale', ogLocale(ctx.language)],
    ];
    if (head.canonical) og.push(['og:url', head.canonical]);
    if (head.description) og.push(['og:description', head.description]);
    if (head.image) og.push(['og:image', head.image]);
    for (const lang of LANGUAGES) {
      if (lang !== ctx.language && translations[lang])
        og.push(['og:locale:alternate', ogLocale(lang)]);
    }
    const page: PageHead = {
      lang: ctx.language,
      title: `${head.title} | ${t.site_name}`,
      description: head.description,
      canonical: head.canonical,
      home: this.siteUrl(ctx.language),
      stylesheet: `${this.sitePath()}/assets/cal.css`,
      alternates: [
        ...LANGUAGES.filter((lang) => translations[lang]).map((lang) => ({
          lang: lang as string,
          href: translations[lang]!,
        })),
        // The version for readers whose language has none: the default language's.
        ...(translations[this.config.defaultLanguage]
          ? [{ lang: 'x-default', href: translations[this.config.defaultLanguage]! }]
          : []),
      ],
      languages: LANGUAGES.map((lang) => ({
        lang,
        href: translations[lang] ?? this.siteUrl(lang),
        label: this.views.t(lang, 'language_name'),
        current: lang === ctx.language,
      })),
      rss: head.rss ?? this.siteRss(ctx),
      calendars: head.calendars ?? [
        { title: t.calendar_all, href: allEvents, webcal: webcal(allEvents) },
      ],
      apiRoot: `${this.config.siteUrl}/wp-json/`,
      og,
      jsonLd: head.jsonLd,
    };
    return {
      kind: 'html',
      status: head.status ?? 200,
      html: this.views.render(view, page, data),
      cacheControl: head.cacheControl,
      lastModified: head.lastModified,
    };
  }

  // ------------------------------------------------------------------ reading

  /** A service read as found / protected / missing (any 4xx is "not for this reader"). */
  private async read<T>(load: () => Promise<T>): Promise<Found<T>> {
    try {
      return { kind: 'found', record: await load() };
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        return error.code === 'event-password-protected'
          ? { kind: 'protected' }
          : { kind: 'missing' };
      }
      throw error;
    }
  }

  /**
   * A read by slug in the reader's language; a slug of another language's record moves the
   * reader to that language's page (slugs are unique per language, CONTRACT §5).
   */
  private async readOrMove<T extends { status?: string }>(
    load: (ctx: RequestContext) => Promise<T>,
    ctx: RequestContext,
    pageIn: (language: Language) => string,
  ): Promise<Found<T>> {
    const found = await this.read(() => load(ctx));
    if (found.kind !== 'missing') return found;
    for (const language of LANGUAGES) {
      if (language === ctx.language) continue;
      const other = await this.read(() => load({ ...ctx, language }));
      if (other.kind === 'protected' || (other.kind === 'found' && isPublic(ctx, other.record))) {
        return { kind: 'redirect', location: pageIn(language) };
      }
    }
    return found;
  }
}

type Found<T> =
  | { kind: 'found'; record: T }
  | { kind: 'protected' }
  | { kind: 'missing' }
  | { kind: 'redirect'; location: string };

type Detail = [label: string, text: string, href?: string];

/** A venue or organizer as its page shows it: the record, its name and its own details. */
interface LinkedView {
  status?: string;
  record: TecVenue | TecOrganizer;
  name: string;
  details: Detail[];
}

function linkedView(
  record: TecVenue | TecOrganizer,
  name: string | [] | undefined,
  details: Detail[],
): LinkedView {
  return { status: record.status, record, name: plainText(name), details };
}

function venueDetails(venue: TecVenue, t: Texts): Detail[] {
  const details: Detail[] = [];
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .map(plainText)
    .filter(Boolean)
    .join(', ');
  if (address) details.push([t.address, address]);
  if (venue.phone) details.push([t.phone, plainText(venue.phone)]);
  return details;
}

function organizerDetails(organizer: TecOrganizer, t: Texts): Detail[] {
  const details: Detail[] = [];
  if (organizer.phone) details.push([t.phone, plainText(organizer.phone)]);
  const email = plainText(organizer.email);
  if (email) details.push([t.email, email, `mailto:${email}`]);
  return details;
}

/** OpenStreetMap at the venue's coordinates, or a search for its address. */
function mapLink(venue: TecVenue, address: string): string {
  if (venue.geo_lat !== undefined && venue.geo_lng !== undefined) {
    const [lat, lng] = [venue.geo_lat, venue.geo_lng];
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
  }
  return address ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}` : '';
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
