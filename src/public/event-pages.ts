import { ExtensionRegistry } from '../extensions/registry.js';
import { adjustJsonLd, pageDetailsOf } from '../extensions/seams.js';
import { Injectable } from '@nestjs/common';
import { keptWith } from '../common/bounded-memo.js';
import { DateTime } from 'luxon';
import type { RequestContext } from '../common/http/request-context.js';
import { NOT_STORED, httpDate } from '../common/http/conditional.js';
import { filterPostHtml } from '../common/text/index.js';
import { asContinuation } from '../common/recurrence/describe.js';
import { LANGUAGES, type Language } from '../config/config.js';
import type { ListEventsQuery } from '../events/dto/list-events.query.js';
import { EventsService } from '../events/events.service.js';
import { isProvisionalId } from '../events/series/series-rules.js';
import { SeriesReads } from '../events/series/series-reads.js';
import type { TecEmbeddedTerm, TecEvent, TecVenue } from '../common/payload/tec-payload.js';
import { plainText } from '../feeds/plain-text.js';
import { TermQueries } from '../terms/term-queries.js';
import type { Taxonomy } from '../terms/taxonomy.js';
import { eventWhen } from './format.js';
import { eventJsonLd, scriptJson } from './json-ld.js';
import { PageFrame, webcal, type PageResult } from './page-frame.js';
import { isPublic, read, readOrMove, type Found } from './page-reads.js';
import { Views } from './views.js';

/** Upcoming dates an event page of a series lists (CONTRACT §9). */
const UPCOMING_DATES = 10;
/** The dated tail of an occurrence's `url`: `{YYYY-MM-DD}/` and `{n}/` (BEHAVIOR §15). */
const DATED_TAIL = /\/(\d{4}-\d\d-\d\d\/(?:\d+\/)?)$/;

/**
 * The page of an event (CONTRACT §7), of one occurrence of a series, and the password form of
 * a protected one: the event is read through the same services as the API, with the reader's
 * RequestContext, so the page shows exactly what the API shows that reader, in the same
 * language; anything the reader may not see is a 404.
 */
@Injectable()
export class EventPages {
  constructor(
    private readonly events: EventsService,
    private readonly series: SeriesReads,
    private readonly terms: TermQueries,
    private readonly views: Views,
    private readonly frame: PageFrame,
    private readonly extensions: ExtensionRegistry,
  ) {}

  async eventPage(slug: string, password: string | undefined, ctx: RequestContext) {
    if (!this.frame.recordPagesOn || !slug) return this.frame.notFound(ctx);
    const found = await readOrMove(
      (c) => this.events.getBySlug(slug, password, c),
      ctx,
      (lang) => this.frame.siteUrl(lang, `/event/${slug}/`),
    );
    return this.eventResult(
      found,
      password,
      ctx,
      this.frame.sitePathOf(ctx.language, `/event/${slug}/`),
    );
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
    if (!this.frame.recordPagesOn || !slug) return this.frame.notFound(ctx);
    const tail = `${day}/${index > 1 ? `${index}/` : ''}`;
    const found = await readOrMove(
      (c) => this.events.getBySlug(slug, password, c),
      ctx,
      (lang) => this.frame.siteUrl(lang, `/event/${slug}/${tail}`),
    );
    const action = this.frame.sitePathOf(ctx.language, `/event/${slug}/${tail}`);
    if (found.kind === 'protected' && !(await this.series.occursOn(slug, ctx.language, day, index)))
      return this.frame.notFound(ctx);
    if (found.kind !== 'found') return this.eventResult(found, password, ctx, action);
    const id = await this.series.occurrenceOn(found.record.id, day, index);
    if (id === undefined) return this.frame.notFound(ctx);
    const occurrence = await read(() => this.events.get(id, password, ctx));
    return this.eventResult(occurrence, password, ctx, action);
  }

  async eventById(id: number, password: string | undefined, ctx: RequestContext) {
    if (!this.frame.recordPagesOn) return this.frame.notFound(ctx);
    const found = await read(() => this.events.get(id, password, ctx));
    const action = this.frame.sitePathOf(ctx.language, `/?post_type=cal_events&p=${id}`);
    return this.eventResult(found, password, ctx, action);
  }

  private async eventResult(
    found: Found<TecEvent>,
    password: string | undefined,
    ctx: RequestContext,
    action: string,
  ): Promise<PageResult> {
    if (found.kind === 'redirect') return found;
    if (found.kind === 'protected') {
      return this.frame.html(
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
    if (found.kind === 'missing' || !isPublic(ctx, found.record)) return this.frame.notFound(ctx);
    const event = found.record;
    const language = event.language ?? ctx.language;
    const url = this.frame.localize(event.url, language);
    const t = this.views.texts(ctx.language);
    const view = await this.eventView(event, language, ctx);
    const translations = await this.eventTranslations(event, ctx);
    const description = plainText(event.excerpt) || plainText(event.description).slice(0, 300);
    const unlocked = password !== undefined;
    return this.frame.html(
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
        // The modules' schema.org properties (an online event's VirtualLocation).
        jsonLd: scriptJson(adjustJsonLd(this.extensions, eventJsonLd(event, url, language), event)),
        calendars: [{ title: t.add_to_calendar, href: view.ics, webcal: view.webcal }],
        cacheControl: unlocked ? NOT_STORED : undefined,
        lastModified: unlocked ? undefined : httpDate(event.modified_utc),
      },
    );
  }

  /** What the event template shows of `event`, as its payload shows the page's reader. */
  private async eventView(event: TecEvent, language: Language, ctx: RequestContext) {
    const t = this.views.texts(ctx.language);
    const venue = Array.isArray(event.venue) || !event.venue.venue ? undefined : event.venue;
    const address = venue
      ? [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
          .map(plainText)
          .filter(Boolean)
          .join(', ')
      : '';
    const ics = `${ctx.restBase}/events/${event.id}.ics`;
    return {
      title: plainText(event.title),
      when: eventWhen(event, ctx.language, t.all_day),
      image: event.image ? event.image.url : '',
      venue: venue
        ? {
            name: plainText(venue.venue),
            href: this.frame.localize(venue.url, language),
            address,
            // Only where the event asks for it (`show_map_link`, off unless set, as in the plugin).
            map: event.show_map_link === true ? mapLink(venue, address) : '',
          }
        : undefined,
      organizers: event.organizer.map((o) => ({
        name: plainText(o.organizer),
        href: this.frame.localize(o.url, language),
      })),
      cost: plainText(event.cost),
      categories: await this.termLinks('category', event.categories, language, ctx),
      tags: await this.termLinks('tag', event.tags, language, ctx),
      website:
        /^https?:\/\//.test(event.website) && event.website !== event.url ? event.website : '',
      // The modules' lines (an online event's link), from what the payload shows this reader.
      details: pageDetailsOf(this.extensions, event, ctx.language),
      // The description as the API renders it, through the post allowlist once more.
      description: pageDescription(event),
      ics,
      webcal: webcal(ics),
      series: await this.seriesView(event, language, ctx),
    };
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
    const next = await read(() => this.events.list(query, ctx, new Set(Object.keys(query))));
    const dates = next.kind === 'found' ? next.record.items : [];
    const seriesIcs = `${ctx.restBase}/events/${seriesId}.ics`;
    return {
      // After the label "Repeats:" the description continues the sentence.
      description: asContinuation(event.recurrence.description, ctx.language),
      dates: dates.map((o) => ({
        when: eventWhen(o, ctx.language, t.all_day),
        href: this.frame.localize(o.url, language),
        current: o.id === event.id,
      })),
      page: this.frame.localize(event.url.replace(DATED_TAIL, '/'), language),
      occurrence: isProvisionalId(event.id),
      ics: seriesIcs,
    };
  }

  /**
   * Name and page of each term embedded in an event (the embedded form has no `url`), in the
   * event's order: the terms of one taxonomy in one read (TermQueries.getMany: from the
   * RecordCache, or built together), not one query per term. A term gone since is left out.
   */
  private async termLinks(
    taxonomy: Taxonomy,
    embedded: readonly TecEmbeddedTerm[],
    language: Language,
    ctx: RequestContext,
  ): Promise<Array<{ name: string; href: string }>> {
    if (!embedded.length) return [];
    const found = await this.terms.getMany(
      taxonomy,
      embedded.map((term) => term.id),
      { ...ctx, language },
    );
    const out: Array<{ name: string; href: string }> = [];
    for (const { id } of embedded) {
      const term = found.get(id);
      if (term)
        out.push({ name: plainText(term.name), href: this.frame.localize(term.url, language) });
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
        out[language] = this.frame.localize(event.url, language);
        continue;
      }
      const other = await read(() => this.events.get(id, undefined, { ...ctx, language }));
      if (other.kind === 'found' && isPublic(ctx, other.record)) {
        // A series read by its real id shows its first occurrence's dated url: the day is this one.
        const url = other.record.recurrence
          ? other.record.url.replace(DATED_TAIL, '/')
          : other.record.url;
        out[language] = this.frame.localize(
          tail && url.endsWith('/') ? `${url}${tail}` : url,
          language,
        );
      }
    }
    return out;
  }
}

/**
 * The description a page shows, by payload: the RecordCache hands every reader the same payload
 * object until a write changes the event, and sanitize-html's parse was the largest part of an
 * event page's allocations (82 MB of 965 MB in issue 53's memory scenario, sampled). Kept while
 * the payload is; a payload built for one reader is filtered once and dropped with it.
 */
const pageDescription = keptWith((event: TecEvent) => filterPostHtml(event.description));

/** OpenStreetMap at the venue's coordinates, or a search for its address. */
function mapLink(venue: TecVenue, address: string): string {
  if (venue.geo_lat !== undefined && venue.geo_lng !== undefined) {
    const [lat, lng] = [venue.geo_lat, venue.geo_lng];
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
  }
  return address ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}` : '';
}
