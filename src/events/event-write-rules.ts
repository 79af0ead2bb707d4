import type { Actor } from '../common/actor.js';
import type { parseCostInput } from '../common/cost/cost.js';
import {
  eventWallClock,
  localToUtc,
  placeSpan,
  seriesWallClock,
  utcToLocal,
} from '../common/dates/index.js';
import { resolveWriteStatus } from '../posts/post-status.js';
import type { ContentFilter } from '../common/text/index.js';
import type { Recurrence } from '../common/recurrence/rules.js';
import type { AppConfig, Language } from '../config/config.js';
import { nowUtcSql } from '../database/columns.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import { EventEntity } from './event.entity.js';
import { moveLanguage } from '../posts/language-move.js';

/**
 * The rules an event write follows (BEHAVIOR §7.1 under CONTRACT.md), as pure functions of the
 * record, the request's fields and the clock: no database, no framework. EventsService validates
 * and authorizes, then applies these to the record it writes.
 */

export type EventInput = CreateEventDto | UpdateEventDto;
export type ParsedCost = NonNullable<ReturnType<typeof parseCostInput>>;

/**
 * The time of a write on the site's clock: what the rules date a write by. It is the site's
 * (its configured zone), not the request's: who writes is asked where a rule depends on it.
 */
export interface WriteClock {
  /** The site's zone (SITE_TIMEZONE): events without a zone of their own use it. */
  siteZone: string;
  now: Date;
}

/** The site's clock for a write at `now` (taken once before the write: a retry keeps it). */
export const clockAt = (config: Pick<AppConfig, 'siteTimezone'>, now = new Date()): WriteClock => ({
  siteZone: config.siteTimezone,
  now,
});

/** A new record with the create defaults; dates, cost and status are applied after. */
export function newEvent(
  id: number,
  dto: CreateEventDto,
  authorId: number,
  language: Language,
  html: ContentFilter,
): EventEntity {
  const event = new EventEntity();
  Object.assign(event, {
    id,
    authorId,
    language,
    title: html.title(dto.title),
    description: html.content(dto.description ?? ''),
    excerpt: html.content(dto.excerpt ?? ''),
    password: dto.password ?? '',
    slug: null,
    imageUrl: imageUrlOf(dto.image),
    imageId: null,
    timezone: '',
    allDay: dto.all_day ?? false,
    cost: '[]',
    currencySymbol: '',
    currencyPosition: '',
    // Absent website: nothing stored, so it reads back as the event url (§7.1.7).
    website: dto.website === undefined ? null : dto.website,
    showMap: dto.show_map ?? false,
    showMapLink: dto.show_map_link ?? false,
    hideFromListings: dto.hide_from_listings ?? false,
    sticky: dto.sticky ?? false,
    featured: dto.featured ?? false,
    venueId: null,
    postParent: 0,
    translationGroup: null,
    recurrence: null,
    occurrencesUntil: null,
    seriesId: null,
    seriesStart: null,
  });
  return event;
}

/** Partial update (CONTRACT §6): only the fields the request carries change. */
export function applyFields(event: EventEntity, dto: UpdateEventDto, html: ContentFilter): void {
  if (dto.title !== undefined) event.title = html.title(dto.title);
  if (dto.description !== undefined) event.description = html.content(dto.description);
  if (dto.excerpt !== undefined) event.excerpt = html.content(dto.excerpt);
  if (dto.author !== undefined) event.authorId = dto.author;
  if (dto.password !== undefined) event.password = dto.password;
  if (dto.image !== undefined) event.imageUrl = imageUrlOf(dto.image);
  if (dto.website !== undefined) event.website = dto.website;
  if (dto.show_map !== undefined) event.showMap = dto.show_map;
  if (dto.show_map_link !== undefined) event.showMapLink = dto.show_map_link;
  if (dto.hide_from_listings !== undefined) event.hideFromListings = dto.hide_from_listings;
  if (dto.sticky !== undefined) event.sticky = dto.sticky;
  if (dto.featured !== undefined) event.featured = dto.featured;
}

/** `image` is stored as a URL; `''`/`null` removes it. */
function imageUrlOf(image: unknown): string | null {
  return typeof image === 'string' && image ? image : null;
}

/** §7.1.2: local wall clocks in the event zone, UTC derived, all-day spans, end ≥ start. */
export function applyDates(
  event: EventEntity,
  dto: EventInput,
  clock: WriteClock,
  creating: boolean,
): void {
  const site = clock.siteZone;
  if (dto.timezone !== undefined) event.timezone = dto.timezone || site;
  else if (creating) event.timezone = site;
  const zone = event.timezone || site;
  // A series keeps its start as written, a time a DST change skips included (CONTRACT §9 "Time").
  const series = !!event.recurrence;
  // The DTO has checked every date: a wall clock always comes out.
  const wall = (value: string | number) =>
    (series ? seriesWallClock(value, zone) : eventWallClock(value, zone))!;
  if (dto.start_date !== undefined) event.startDate = wall(dto.start_date);
  if (dto.end_date !== undefined) event.endDate = wall(dto.end_date);
  if (dto.all_day !== undefined) event.allDay = dto.all_day;
  if (event.allDay && (dto.all_day || dto.start_date !== undefined || dto.end_date !== undefined)) {
    event.startDate = `${event.startDate.slice(0, 10)} 00:00:00`;
    event.endDate = `${event.endDate.slice(0, 10)} 23:59:59`;
  }
  // End before start is not an error: the end becomes the start (and so does the UTC end, D6).
  if (event.endDate < event.startDate) event.endDate = event.startDate;
  if (series && !event.allDay) {
    // Its first occurrence: moved out of a gap with its end, as each of its occurrences.
    ({ startUtc: event.startUtc, endUtc: event.endUtc } = placeSpan(
      event.startDate,
      event.endDate,
      zone,
    ));
  } else {
    event.startUtc = localToUtc(event.startDate, zone);
    event.endUtc = localToUtc(event.endDate, zone);
  }

  // Publication dates (§7.1.2): `date` is a wall clock of the event's zone and is kept as given
  // (the plugin shows it back in that zone); `date_utc` is UTC. Given alone, either one yields
  // the other through the site's zone, as WordPress does for any post; given together, both are
  // stored as they are.
  if (dto.date !== undefined || dto.date_utc !== undefined) {
    const date = dto.date !== undefined ? eventWallClock(dto.date, zone)! : null;
    const dateUtc = dto.date_utc !== undefined ? eventWallClock(dto.date_utc, 'UTC')! : null;
    event.date = date ?? utcToLocal(dateUtc!, site);
    event.dateUtc = dateUtc ?? localToUtc(date!, site);
  } else if (creating) {
    event.date = siteNow(clock);
    event.dateUtc = nowUtcSql(clock.now);
  }
  event.modified = siteNow(clock);
  event.modifiedUtc = nowUtcSql(clock.now);
}

/** A given cost replaces the stored one; symbol and position follow the rule of Service D7. */
export function applyCost(event: EventEntity, cost: ParsedCost | undefined): void {
  if (!cost) return;
  event.cost = JSON.stringify(cost.entries);
  // Service D7: an update keeps the symbol/position unless the new cost carries its own.
  if (cost.symbol || !event.currencySymbol || !cost.entries.length) {
    event.currencySymbol = cost.symbol;
    event.currencyPosition = cost.position;
  }
}

/**
 * §7.1.6 with CONTRACT §3, the status as `actor` may set it; drafts and pending records created
 * without a date have none.
 */
export function applyStatus(
  event: EventEntity,
  dto: EventInput,
  actor: Actor,
  clock: WriteClock,
  creating: boolean,
): void {
  const nowUtc = nowUtcSql(clock.now);
  const dated = dto.date !== undefined || dto.date_utc !== undefined;
  if (dto.status !== undefined || creating) {
    event.status = resolveWriteStatus(actor, dto.status, event.dateUtc, nowUtc);
  } else if (event.status === 'publish' && event.dateUtc && event.dateUtc > nowUtc) {
    event.status = 'future';
  } else if (event.status === 'future' && event.dateUtc && event.dateUtc <= nowUtc) {
    event.status = 'publish';
  }
  const unpublished = event.status === 'draft' || event.status === 'pending';
  if (creating && unpublished && !dated) {
    event.dateUtc = null;
  } else if (!unpublished && event.status !== 'trash' && event.dateUtc === null) {
    // A record published for the first time is dated at that moment, like any WordPress post.
    event.date = siteNow(clock);
    event.dateUtc = nowUtc;
  }
}

/** What an update changed that its write acts on (EventUpdates.writeUpdate). */
export interface UpdatedColumns {
  /** The language it moves to: the slug is assigned again there (from `movedSlug`). */
  moving: boolean;
  movedSlug: string | undefined;
  /** Its series must be expanded again: new rules, or new dates of a series. */
  reexpand: boolean;
}

/** Who writes, as the rules of a write ask it: the status they may set, the HTML they may store. */
export interface Writer {
  actor: Actor;
  html: ContentFilter;
}

/**
 * The columns an update by `writer` sets on `event`, in the order the rules apply: the fields,
 * the language (slugs are unique per language: a moved event takes its slug along when it is
 * free in the new language, else the next free `slug-2`, ..., assigned after the save), the
 * series (`recurrence` given: null removes it), then dates, cost and status; the dates of a
 * series are read as its.
 */
export function applyUpdate(
  event: EventEntity,
  dto: UpdateEventDto,
  change: { recurrence?: Recurrence | null; cost?: ParsedCost },
  writer: Writer,
  clock: WriteClock,
): UpdatedColumns {
  applyFields(event, dto, writer.html);
  const { moving, movedSlug } = moveLanguage(event, dto.language);
  const anchorBefore = [event.startDate, event.endDate, event.allDay, event.timezone].join();
  if (change.recurrence !== undefined) {
    event.recurrence = change.recurrence ? JSON.stringify(change.recurrence) : null;
  }
  applyDates(event, dto, clock, false);
  applyCost(event, change.cost);
  applyStatus(event, dto, writer.actor, clock, false);
  const anchorAfter = [event.startDate, event.endDate, event.allDay, event.timezone].join();
  const reexpand =
    change.recurrence !== undefined || (!!event.recurrence && anchorAfter !== anchorBefore);
  return { moving, movedSlug, reexpand };
}

/**
 * The base of the slug to assign after the write, or undefined to keep the slug (§7.1.8): the
 * requested one, else the title for a record without a slug that is (or becomes) public —
 * drafts, pending and trashed records get none until they are published.
 */
export function slugBase(event: EventEntity, requested: string | undefined): string | undefined {
  if (requested !== undefined) return requested;
  if (event.slug || ['draft', 'pending', 'trash'].includes(event.status)) return undefined;
  return event.title;
}

/** The site's wall clock now (`modified`, `date` of records dated now). */
export function siteNow(clock: WriteClock): string {
  return utcToLocal(nowUtcSql(clock.now), clock.siteZone);
}
