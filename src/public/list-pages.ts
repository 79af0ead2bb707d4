import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { RequestContext } from '../common/http/request-context.js';
import { filterPostHtml } from '../common/text/index.js';
import { APP_CONFIG, LANGUAGES, type AppConfig, type Language } from '../config/config.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import { EventsService } from '../events/events.service.js';
import type { TecOrganizer, TecTerm, TecVenue } from '../common/payload/tec-payload.js';
import type { LinkedKind } from '../common/records/record-kinds.js';
import { plainText } from '../feeds/plain-text.js';
import { OrganizerQueries } from '../organizers/organizers.service.js';
import { TermQueries } from '../terms/term-queries.js';
import type { Taxonomy } from '../terms/taxonomy.js';
import { VenueQueries } from '../venues/venues.service.js';
import { eventWhen } from './format.js';
import { PageFrame, webcal, type PageResult } from './page-frame.js';
import { isPublic, read, readOrMove } from './page-reads.js';
import { Views, type Texts } from './views.js';

/** Events per page of the public lists. */
const PAGE_SIZE = 10;
/** The highest `?page=` a public list accepts (beyond: 404). */
const MAX_PAGE = 10_000;

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

/**
 * The pages that list upcoming events (CONTRACT §7): the home page and the pages of a venue,
 * an organizer, a category and a tag, each a page of the events list with what it says about
 * its subject. Records are read through the same services as the API, with the reader's
 * RequestContext; anything the reader may not see is a 404.
 */
@Injectable()
export class ListPages {
  constructor(
    private readonly events: EventsService,
    private readonly venues: VenueQueries,
    private readonly organizers: OrganizerQueries,
    private readonly terms: TermQueries,
    private readonly views: Views,
    private readonly frame: PageFrame,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async linkedPage(
    kind: LinkedKind,
    slug: string,
    page: number,
    ctx: RequestContext,
  ): Promise<PageResult> {
    if (!this.frame.recordPagesOn || !slug) return this.frame.notFound(ctx);
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
    const found = await readOrMove(load, ctx, (lang) =>
      this.frame.siteUrl(lang, `/${kind}/${slug}/`),
    );
    if (found.kind === 'redirect') return found;
    if (found.kind !== 'found' || !isPublic(ctx, found.record)) return this.frame.notFound(ctx);
    const { record, name } = found.record;
    const id = record.id;
    if (id === undefined) return this.frame.notFound(ctx);
    const details = [...found.record.details];
    if (record.website && /^https?:\/\//.test(record.website)) {
      details.push([t.website, record.website, record.website]);
    }
    const translations: Partial<Record<Language, string>> = {};
    if (record.translations?.[ctx.language] === id) {
      translations[ctx.language] = this.frame.localize(record.url, ctx.language);
    }
    return this.listPage(ctx, page, {
      filter: kind === 'venue' ? { venue: [id] } : { organizer: [id] },
      url: this.frame.localize(record.url, ctx.language),
      heading: name,
      title: name,
      description: plainText(record.description).slice(0, 300),
      intro: filterPostHtml(record.description ?? ''),
      details,
      rss: this.frame.siteRss(ctx),
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
    if (!this.frame.recordPagesOn) return this.frame.notFound(ctx);
    const term = await this.findTerm(taxonomy, segments, ctx);
    if (!term) return this.frame.notFound(ctx);
    const t = this.views.texts(ctx.language);
    const name = plainText(term.name);
    const url = this.frame.localize(term.url, ctx.language);
    const label = taxonomy === 'category' ? t.category : t.tag;
    return this.listPage(ctx, page, {
      filter: taxonomy === 'category' ? { categories: [term.id] } : { tags: [term.id] },
      url,
      heading: name,
      title: `${name} – ${label}`,
      description: plainText(term.description).slice(0, 300),
      intro: filterPostHtml(term.description),
      rss: {
        title: this.views.t(ctx.language, 'rss_title_of', { site: this.frame.siteName(), name }),
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
    const archive = await read(() => this.terms.list(taxonomy, { slug, per_page: 100 }, ctx));
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
    return !this.frame.recordPagesOn && item.slug === segments[segments.length - 1];
  }

  async homePage(page: number, ctx: RequestContext): Promise<PageResult> {
    const t = this.views.texts(ctx.language);
    return this.listPage(ctx, page, {
      filter: {},
      url: this.frame.siteUrl(ctx.language),
      heading: t.site_name,
      title: t.site_name,
      description: t.home_intro,
      intro: `<p>${escapeText(t.home_intro)}</p>`,
      rss: this.frame.siteRss(ctx),
      calendar: { title: t.calendar_all, query: '' },
      home: true,
    });
  }

  private async listPage(ctx: RequestContext, page: number, scope: Scope): Promise<PageResult> {
    if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) return this.frame.notFound(ctx);
    const query = { ...scope.filter, ...upcoming(), page, per_page: PAGE_SIZE } as ListEventsQuery;
    const archive = await this.events.list(query, ctx, new Set(Object.keys(query)));
    if (page > 1 && page > archive.totalPages) return this.frame.notFound(ctx);
    const t = this.views.texts(ctx.language);
    const events = archive.items.map((e) => {
      const venue = e.venue;
      return {
        href: this.frame.localize(e.url, e.language ?? ctx.language),
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
          href: `${this.config.siteUrl}${this.config.basePath}${this.frame.prefix(lang)}/cal/events/v1/doc/ui`,
          label: this.views.t(ctx.language, 'api_link', {
            language: this.views.t(ctx.language, `language_${lang}`),
          }),
        }))
      : undefined;
    return this.frame.html(
      ctx,
      'archive',
      { heading: scope.heading, intro: scope.intro, details: scope.details, list, apiLinks },
      {
        title: page > 1 ? `${scope.title} (${list.position})` : scope.title,
        description: scope.description,
        canonical: at(page),
        translations: scope.home
          ? Object.fromEntries(LANGUAGES.map((lang) => [lang, this.frame.siteUrl(lang)]))
          : scope.translations,
        rss: scope.rss,
        image: scope.image,
        calendars: [{ title: scope.calendar.title, href: ics, webcal: webcal(ics) }],
      },
    );
  }
}

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

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
