import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { IANAZone } from 'luxon';
import { localToUtc, utcToLocal } from '../common/dates/index.js';
import type { CalendarLine } from '../extensions/contracts.js';
import type { TecEvent, TecVenue } from '../common/payload/tec-payload.js';
import { withoutForbiddenCharacters } from '../common/text/index.js';
import { unshared } from '../common/http/json-body.js';
import { foldLines, icsText } from './ics-lines.js';
import { excludesChange, recurrenceIdLine, recurrenceLines, type IcsSeries } from './ics-series.js';
import { plainText } from './plain-text.js';

/**
 * The most bytes one feed (iCalendar or RSS) holds: the events that would take it beyond are
 * left out (CONTRACT §7). Below the response cache's largest entry, so every feed can be kept.
 */
export const MAX_FEED_BYTES = 4 * 1024 * 1024;

export interface CalendarOptions {
  /** X-WR-CALNAME. */
  name: string;
  /** Host (and path) of SITE_URL: the domain part of every UID. */
  uidDomain: string;
  /** Two-letter language of the texts (PRODID). */
  language: string;
  /** The most bytes of the calendar (MAX_FEED_BYTES unless said). */
  maxBytes?: number;
  /** The extension modules' lines of an event (docs/extending.md). */
  extraLines?: (event: TecEvent) => CalendarLine[];
}

/**
 * An event that replaced one occurrence of a series (`_tec_update_type` single): written with the
 * series' UID and RECURRENCE-ID when the same calendar holds the series, else as an event of its
 * own (CONTRACT §7).
 */
export interface ChangedOccurrence {
  /** The series' event id (its UID). */
  seriesId: number;
  /** The local start of the series' occurrence it replaced. */
  start: string;
  /** The series as its own VEVENT writes it. */
  series: IcsSeries;
}

export interface Calendar {
  /** The iCalendar text, as UTF-8. */
  bytes: Buffer;
  /** How many of the events it holds: the first ones, as many as fit in the bytes. */
  count: number;
}

/**
 * Whether a zone name gets a VTIMEZONE, by name: luxon checks a name by building an
 * Intl.DateTimeFormat, which cost more than the rest of an event. Names come from validated
 * records (IANA names and offsets), so the map stays small; it is bounded all the same.
 */
const knownZones = new Map<string, boolean>();

/** Only IANA zones get a VTIMEZONE (and TZID); offsets such as `UTC+2` are written in UTC. */
export function icsZone(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone === '' || zone === 'UTC') return undefined;
  let known = knownZones.get(zone);
  if (known === undefined) {
    known = IANAZone.isValidZone(zone) && getVtimezoneComponent(zone) !== undefined;
    if (knownZones.size < 2_000) knownZones.set(zone, known);
  }
  return known ? zone : undefined;
}

function location(venue: TecVenue | []): string {
  if (!venue || Array.isArray(venue) || !venue.venue) return '';
  const parts = [venue.venue, venue.address, venue.city, venue.stateprovince || venue.province]
    .concat([venue.zip, venue.country])
    .map((part: unknown) => plainText(part))
    .filter((part) => part !== '');
  return parts.join(', ');
}

const SQL_DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)/;

/** `2030-05-01 10:00:00` → `20300501T100000`; undefined for anything else and the zero date. */
function dateTime(sql: unknown): string | undefined {
  const m = typeof sql === 'string' ? SQL_DATE_TIME.exec(sql) : null;
  if (!m || m[1] === '0000') return undefined;
  return `${m[1]}${m[2]}${m[3]}T${m[4]}${m[5]}${m[6]}`;
}

/** A UTC time as stored (`2030-05-01 08:00:00`) → `20300501T080000Z`. */
const utc = (sql: unknown) => {
  const local = dateTime(sql);
  return local === undefined ? undefined : `${local}Z`;
};

/**
 * The parameters and value of a DTSTART or DTEND naming the instant `utcSql`, as RFC 5545 §3.3.5
 * has clients read it (CONTRACT §9 "Time"): the local time `localSql` with its TZID when it names
 * that instant, else the local time the instant is (a start moved out of a DST gap, an end moved
 * with it), else UTC (the second of a repeated hour, which a TZID cannot name). Without a zone, UTC.
 */
function instant(localSql: unknown, utcSql: unknown, zone: string | undefined): string {
  const inUtc = utc(utcSql);
  if (!zone) return `:${inUtc ?? '19700101T000000Z'}`;
  const named = (local: unknown) => {
    try {
      return typeof local === 'string' && localToUtc(local, zone) === utcSql;
    } catch {
      return false;
    }
  };
  if (named(localSql) || !inUtc) return `;TZID=${zone}:${dateTime(localSql) ?? '19700101T000000'}`;
  const local = utcToLocal(String(utcSql), zone);
  return named(local) ? `;TZID=${zone}:${dateTime(local)}` : `:${inUtc}`;
}

/** The day of `2030-05-01 …` plus `days`, as `20300501` (the Unix epoch's day when unreadable). */
function day(sql: unknown, days = 0): string {
  const m = typeof sql === 'string' ? /^(\d{4})-(\d\d)-(\d\d)/.exec(sql) : null;
  const date = new Date(0);
  if (m) date.setUTCFullYear(+m[1], +m[2] - 1, +m[3] + days);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  return `${year}${date.toISOString().slice(5, 10).replace('-', '')}`;
}

/** The VTIMEZONE of an IANA zone, with CRLF line ends. */
function vtimezone(zone: string): string {
  return `${(getVtimezoneComponent(zone) ?? '').replace(/\r?\n/g, '\r\n').trim()}\r\n`;
}

/**
 * One RFC 5545 calendar of events already mapped by the API (so with the reader's permissions
 * and language), written event by event so that a feed stops reading events once it is full:
 * one VTIMEZONE per IANA zone used, the record id as a stable UID, DTSTAMP and LAST-MODIFIED from
 * the record's modification time, all-day events as DATE values with the exclusive end day.
 * Nothing depends on the clock: the same events give the same bytes.
 *
 * Written here rather than by a calendar library: ical-generator folded the whole calendar at
 * once at a cost that grew faster than the calendar (seconds for a few hundred long
 * descriptions), and formatted every date through Intl. Here each step is linear in the output,
 * dates are copied from the stored values, and the calendar refuses the event that would take it
 * beyond `maxBytes`, and every one after it. No text carries a character iCalendar forbids.
 */
export class CalendarWriter {
  private readonly maxBytes: number;
  private readonly head: Buffer;
  private readonly tail = Buffer.from('END:VCALENDAR\r\n');
  private readonly timezones = new Map<string, Buffer>();
  private readonly entries: Buffer[] = [];
  /** The series written, by event id, and where: written again at the end without the
   * exclusions of their changed occurrences written beside them. */
  private readonly seriesAt = new Map<
    number,
    { index: number; event: TecEvent; zone: string | undefined; series: IcsSeries }
  >();
  /** Changed occurrences written, with their VEVENT as an instance of their series. */
  private readonly changes: Array<{ index: number; change: ChangedOccurrence; linked: Buffer }> =
    [];
  /** Bytes taken: each entry counted at its largest form, so that the final one fits too. */
  private bytes: number;
  private full = false;
  /** How many events it holds. */
  count = 0;
  /** The newest `modified_utc` of the events it holds ('' while it holds none). */
  newestModifiedUtc = '';

  constructor(private readonly options: CalendarOptions) {
    this.maxBytes = options.maxBytes ?? MAX_FEED_BYTES;
    const name = icsText(withoutForbiddenCharacters(options.name));
    this.head = foldLines(
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n' +
        `PRODID:-//cal//events//${options.language.toUpperCase()}\r\n` +
        `METHOD:PUBLISH\r\nNAME:${name}\r\nX-WR-CALNAME:${name}\r\n`,
    );
    this.bytes = this.head.length + this.tail.length;
  }

  /**
   * Adds `event` if it fits; false (now and for every later event) once one did not. With
   * `series` (CONTRACT §9), its VEVENT carries the series' rules (RRULE, EXDATE, RDATE); `event` is
   * then the series' own payload (its id, its first dates). With `changed`, `event` replaced an
   * occurrence of that series: it becomes an instance of the series (its UID, RECURRENCE-ID, the
   * series then not excluding it) if the calendar holds the series when finished, whichever of
   * the two came first; it stays an event of its own otherwise. Either form is counted at the
   * larger of its sizes, and a series at its size with every exclusion.
   */
  add(event: TecEvent, series?: IcsSeries, changed?: ChangedOccurrence): boolean {
    if (this.full) return false;
    const zone = event.all_day ? undefined : icsZone(event.timezone);
    const timezone =
      zone === undefined || this.timezones.has(zone) ? undefined : foldLines(vtimezone(zone));
    const entry = series
      ? this.seriesVevent(event, zone, { ...series, changed: undefined })
      : foldedVevent(event, zone, this.options.uidDomain, this.extra(event));
    const linked =
      changed && excludesChange(changed.series, changed.start)
        ? foldLines(
            vevent(
              event,
              zone,
              this.options.uidDomain,
              recurrenceIdLine(changed.series, changed.start, tzidOf(seriesZone(changed.series))),
              changed.seriesId,
              this.extra(event),
            ),
          )
        : undefined;
    const size = Math.max(entry.length, linked?.length ?? 0) + (timezone?.length ?? 0);
    if (this.bytes + size > this.maxBytes) {
      this.full = true;
      return false;
    }
    this.bytes += size;
    if (series) this.seriesAt.set(event.id, { index: this.entries.length, event, zone, series });
    if (linked) this.changes.push({ index: this.entries.length, change: changed!, linked });
    this.entries.push(entry);
    if (timezone) this.timezones.set(zone!, timezone);
    this.count++;
    if (event.modified_utc > this.newestModifiedUtc) this.newestModifiedUtc = event.modified_utc;
    return true;
  }

  /** The calendar of the events added. */
  finish(): Calendar {
    const entries = [...this.entries];
    const changedStarts = new Map<number, Set<string>>();
    for (const { index, change, linked } of this.changes) {
      const written = this.seriesAt.get(change.seriesId);
      // The series as written must name the instance as the change does (the feed reads its
      // pages one after another: a write between them may have changed the series).
      if (
        !written ||
        written.series.allDay !== change.series.allDay ||
        seriesZone(written.series) !== seriesZone(change.series) ||
        !excludesChange(written.series, change.start)
      ) {
        continue;
      }
      entries[index] = linked;
      const starts = changedStarts.get(change.seriesId) ?? new Set<string>();
      changedStarts.set(change.seriesId, starts.add(change.start));
    }
    for (const [id, changed] of changedStarts) {
      const { index, event, zone, series } = this.seriesAt.get(id)!;
      entries[index] = this.seriesVevent(event, zone, { ...series, changed });
    }
    const parts = [this.head, ...this.timezones.values(), ...entries, this.tail];
    return { bytes: Buffer.concat(parts), count: this.count };
  }

  private seriesVevent(event: TecEvent, zone: string | undefined, series: IcsSeries): Buffer {
    const lines = recurrenceLines(series, tzidOf(zone));
    return foldLines(
      vevent(event, zone, this.options.uidDomain, lines, event.id, this.extra(event)),
    );
  }

  /** The modules' lines of `event`, written as iCalendar lines. */
  private extra(event: TecEvent): string {
    const lines = this.options.extraLines?.(event) ?? [];
    return lines
      .map(({ name, value, uri }) => {
        const clean = withoutForbiddenCharacters(value).replace(/[\r\n]/g, '');
        return `${name}:${uri ? clean : icsText(clean)}\r\n`;
      })
      .join('');
  }
}

/** `;TZID=…` of a zone with a VTIMEZONE, '' for UTC (or dates). */
const tzidOf = (zone: string | undefined) => (zone ? `;TZID=${zone}` : '');

/** The VTIMEZONE zone of a series' timed DTSTART (none for dates and UTC). */
const seriesZone = (series: IcsSeries) => (series.allDay ? undefined : icsZone(series.zone));

/** The calendar of `events`: the first ones, as many as fit in `maxBytes`. */
export function buildCalendar(events: readonly TecEvent[], options: CalendarOptions): Calendar {
  const writer = new CalendarWriter(options);
  for (const event of events) if (!writer.add(event)) break;
  return writer.finish();
}

/**
 * The folded VEVENT of each payload written so far, by the payload object. Payloads that the
 * RecordCache keeps are shared and never changed (a write builds a new object), so an entry
 * serves as long as its payload is kept and goes with it: a feed of cached records copies their
 * VEVENTs instead of turning each description into plain text, escaping and folding it again
 * (most of a feed's CPU). Fresh payloads (the cache off or missed) are written anew. A kept
 * VEVENT is in memory of its own (unshared): foldLines answers a slice of Node's shared pool
 * (64 KB blocks), and a 2 KB VEVENT kept as such a slice held its whole block, 2.9 MB of blocks
 * for a few hundred events after issue 53's memory scenario.
 */
const folded = new WeakMap<TecEvent, { uidDomain: string; entry: Buffer }>();

/** The folded VEVENT of a payload without recurrence lines (exported for its test). */
export function foldedVevent(
  event: TecEvent,
  zone: string | undefined,
  uidDomain: string,
  extra: string,
): Buffer {
  const kept = folded.get(event);
  if (kept?.uidDomain === uidDomain) return kept.entry;
  const entry = unshared(foldLines(vevent(event, zone, uidDomain, '', event.id, extra)));
  folded.set(event, { uidDomain, entry });
  return entry;
}

/**
 * One VEVENT, unfolded, with CRLF line ends; `rules` are its recurrence lines (or its
 * RECURRENCE-ID), if any; `uidId` the id its UID names (the series' for a changed occurrence).
 */
function vevent(
  event: TecEvent,
  zone: string | undefined,
  uidDomain: string,
  rules = '',
  uidId = event.id,
  extra = '',
): string {
  const text = (value: unknown) => icsText(withoutForbiddenCharacters(plainText(value)));
  const modified = utc(event.modified_utc);
  const created = utc(event.date_utc);
  let out = `BEGIN:VEVENT\r\nUID:event-${uidId}@${uidDomain}\r\nSEQUENCE:0\r\n`;
  out += `DTSTAMP:${modified ?? created ?? '19700101T000000Z'}\r\n`;
  if (event.all_day) {
    const first = day(event.start_date);
    const last = day(event.end_date) < first ? event.start_date : event.end_date;
    // DTEND of an all-day event is the day after its last day (RFC 5545 §3.6.1).
    out += `DTSTART;VALUE=DATE:${first}\r\nDTEND;VALUE=DATE:${day(last, 1)}\r\n`;
    out += 'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE\r\nX-MICROSOFT-MSNCALENDAR-ALLDAYEVENT:TRUE\r\n';
  } else {
    let start = { local: event.start_date, utc: event.utc_start_date };
    let end = { local: event.end_date, utc: event.utc_end_date };
    if (end.utc < start.utc) [start, end] = [end, start];
    out += `DTSTART${instant(start.local, start.utc, zone)}\r\n`;
    out += `DTEND${instant(end.local, end.utc, zone)}\r\n`;
  }
  out += rules;
  out += `SUMMARY:${text(event.title)}\r\n`;
  const where = location(event.venue);
  if (where) out += `LOCATION:${icsText(withoutForbiddenCharacters(where))}\r\n`;
  const description = text(event.description);
  if (description) out += `DESCRIPTION:${description}\r\n`;
  const categories = event.categories.map((c) => text(c.name));
  if (categories.length) out += `CATEGORIES:${categories.join(',')}\r\n`;
  if (event.url) {
    out += `URL;VALUE=URI:${withoutForbiddenCharacters(event.url).replace(/[\r\n]/g, '')}\r\n`;
  }
  out += extra;
  out += 'STATUS:CONFIRMED\r\n';
  if (created) out += `CREATED:${created}\r\n`;
  if (modified) out += `LAST-MODIFIED:${modified}\r\n`;
  return `${out}END:VEVENT\r\n`;
}
