import {
  dateDetails,
  timezoneAbbr,
  toIso8601WithOffset,
  utcToIso8601WithOffset,
  ZERO_DATE,
} from '../common/dates/index.js';
import { formatCost, type CurrencyPosition } from '../common/cost/cost.js';
import { globalId } from '../common/http/links.js';
import { publicUrl } from '../common/http/public-url.js';
import type { RequestContext } from '../common/http/request-context.js';
import { imageObject } from '../posts/image.js';
import { effectiveStatus } from '../posts/post-status.js';
import { redactProtected } from '../posts/redact.js';
import { escapeHtml, renderContent, renderExcerpt, renderTitle } from '../common/text/index.js';
import { jsonLdHead } from '../posts/json-ld.js';
import type { Translations } from '../common/payload/tec-payload.js';
import { translationFields } from '../posts/translations.js';
import { nowUtcSql } from '../database/columns.js';
import type {
  JsonLd,
  TecEmbeddedTerm,
  TecEvent,
  TecOrganizer,
  TecVenue,
} from '../common/payload/tec-payload.js';
import type { EventEntity } from './event.entity.js';
import { PLUGIN_NAMESPACE } from '../common/http/links.js';
import { seriesPayload } from './series/series.mapper.js';

/** What an event shows of its linked records, loaded for a whole page at once. */
export interface EventLinks {
  venue?: TecVenue;
  organizers: TecOrganizer[];
  categories: TecEmbeddedTerm[];
  tags: TecEmbeddedTerm[];
  /** Language → id of each translation the caller may read (CONTRACT §5). */
  translations?: Translations;
  /**
   * The modules' fields (docs/extending.md) as the reader sees them: part of the payload's
   * literal, after the plugin's fields and before the service's own.
   */
  contributed?: Record<string, unknown>;
}

export interface EventMapOptions {
  /** Translates a catalogue key in the request's language (the readable rule of a series). */
  translate?: (key: string, args?: Record<string, string | number>) => string;
  /** Single reads carry `json_ld` (BEHAVIOR §4.9). */
  jsonLd: boolean;
  /** The request opened this protected event (password or context=edit). */
  unlocked: boolean;
  /** Localized "Free" for costs of 0. */
  freeLabel: string;
}

const EVENT_POST_TYPE = 'cal_events';

/** `{SITE_URL}/event/{slug}/`, or the query form for unpublished events (BEHAVIOR §1.9). */
function eventUrl(
  event: Pick<EventEntity, 'id' | 'slug' | 'status'> & Partial<Pick<EventEntity, 'language'>>,
  siteUrl: string,
  status: string,
  publicUrlTemplate?: string,
) {
  if (!event.slug || status === 'draft' || status === 'pending' || status === 'future') {
    return `${siteUrl}/?post_type=${EVENT_POST_TYPE}&p=${event.id}`;
  }
  // PUBLIC_URL_TEMPLATE may point it at the site's own front end.
  return publicUrl(
    `${siteUrl}/event/${event.slug}/`,
    { type: 'event', ...withSlug(event) },
    publicUrlTemplate,
  );
}

const withSlug = (e: { id: number; slug: string | null; language?: EventEntity['language'] }) => ({
  id: e.id,
  slug: e.slug ?? '',
  language: e.language,
});

function parseCostEntries(stored: string): string[] {
  try {
    const value: unknown = JSON.parse(stored || '[]');
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * Whether a request opens `event` (BEHAVIOR §4.11): one not protected always; a protected one with
 * its password, or for its editors asking context=edit (`editable`).
 */
export function unlockedFor(
  event: Pick<EventEntity, 'password'>,
  password: unknown,
  editable: boolean,
): boolean {
  if (!event.password) return true;
  if (typeof password === 'string' && password === event.password) return true;
  return editable;
}

/** The event object of BEHAVIOR §4.1, field by field, in the plugin's key order. */
export function toTecEvent(
  e: EventEntity,
  links: EventLinks,
  ctx: RequestContext,
  opts: EventMapOptions,
): TecEvent {
  const status = effectiveStatus(e, nowUtcSql());
  const url = eventUrl(e, ctx.siteUrl, status, ctx.config.publicUrlTemplate);
  const gid = globalId(ctx.siteUrl, e.id);
  const cost = formatCost(
    parseCostEntries(e.cost),
    e.currencySymbol,
    e.currencyPosition as CurrencyPosition,
    opts.freeLabel,
  );
  const event: TecEvent = {
    id: e.id,
    global_id: gid,
    global_id_lineage: [gid],
    author: String(e.authorId),
    status,
    date: e.date,
    date_utc: e.dateUtc ?? ZERO_DATE,
    modified: e.modified,
    modified_utc: e.modifiedUtc,
    url,
    rest_url: `${ctx.restBase}/events/${e.id}`,
    title: renderTitle(e.title),
    description: renderContent(e.description),
    excerpt: renderExcerpt(e.excerpt),
    slug: e.slug ?? '',
    image: imageObject(e.imageId, e.imageUrl) ?? false,
    all_day: e.allDay,
    start_date: e.startDate,
    start_date_details: dateDetails(e.startDate),
    end_date: e.endDate,
    end_date_details: dateDetails(e.endDate),
    utc_start_date: e.startUtc,
    utc_start_date_details: dateDetails(e.startUtc),
    utc_end_date: e.endUtc,
    utc_end_date_details: dateDetails(e.endUtc),
    timezone: e.timezone,
    timezone_abbr: e.timezone ? timezoneAbbr(e.timezone, e.startDate) : '',
    cost: cost.cost,
    cost_details: cost.cost_details,
    // Never stored → the event page; stored empty → "" (BEHAVIOR §4.1).
    website: e.website === null ? url : escapeHtml(e.website),
    show_map: e.showMap,
    show_map_link: e.showMapLink,
    hide_from_listings: e.hideFromListings,
    sticky: e.sticky,
    featured: e.featured,
    categories: links.categories,
    tags: links.tags,
    venue: links.venue ?? [],
    organizer: links.organizers,
    custom_fields: [],
    ...links.contributed,
    ...translationFields(e, links.translations),
  };
  if (opts.jsonLd) event.json_ld = eventJsonLd(e, event, links, url);
  // Our namespace shows the series (CONTRACT §9); the plugin's stays exactly Pro's payload.
  if (!ctx.restBase.endsWith(`/${PLUGIN_NAMESPACE}`)) {
    event.recurrence = seriesPayload(e, ctx.config.siteTimezone, ctx.language, opts.translate);
  }
  if (!e.password || opts.unlocked) return event;
  // The modules' fields are their protected values already, which the redaction leaves as given.
  return Object.assign(redactProtected(event), links.contributed);
}

/** schema.org Event (BEHAVIOR §4.9). */
function eventJsonLd(e: EventEntity, event: TecEvent, links: EventLinks, url: string): JsonLd {
  const ld: JsonLd = {
    ...jsonLdHead('Event', e, url),
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    // The instants the API names (a local time in a DST gap or repeated is read once, §9).
    startDate: utcToIso8601WithOffset(e.startUtc, e.timezone || 'UTC'),
    endDate: utcToIso8601WithOffset(e.endUtc, e.timezone || 'UTC'),
  };
  const venueLd = links.venue?.json_ld;
  if (venueLd) ld.location = withoutContext(venueLd);
  const organizerLd = links.organizers[0]?.json_ld;
  if (organizerLd) ld.organizer = withoutContext(organizerLd);
  const values = event.cost_details.values;
  if (values.length) {
    ld.offers = {
      '@type': 'Offer',
      price: event.cost.replace(/^Free$/, '0') || values[0],
      priceCurrency: 'USD',
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: toIso8601WithOffset(e.date, 'UTC'),
    };
  }
  ld.performer = 'Organization';
  return ld;
}

function withoutContext(ld: JsonLd): JsonLd {
  const { '@context': _context, ...rest } = ld;
  return rest;
}
