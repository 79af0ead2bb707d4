import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime, IANAZone } from 'luxon';
import { plainText } from './plain-text.js';

/** An event as the API maps it (the fields a calendar entry is built from). */
// oxlint-disable-next-line typescript/no-explicit-any
export type EventPayload = Record<string, any>;

export interface CalendarOptions {
  /** X-WR-CALNAME. */
  name: string;
  /** Host (and path) of SITE_URL: the domain part of every UID. */
  uidDomain: string;
  /** Two-letter language of the texts (PRODID). */
  language: string;
}

/** `2030-05-01 10:00:00` (UTC, as stored) → a Date; undefined for the zero date. */
function utcDate(sql: unknown): Date | undefined {
  if (typeof sql !== 'string' || sql.startsWith('0000')) return undefined;
  const dt = DateTime.fromSQL(sql, { zone: 'utc' });
  return dt.isValid ? dt.toJSDate() : undefined;
}

/** Only IANA zones get a VTIMEZONE (and TZID); offsets such as `UTC+2` are written in UTC. */
function icsZone(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone === '' || zone === 'UTC') return undefined;
  if (!IANAZone.isValidZone(zone) || !getVtimezoneComponent(zone)) return undefined;
  return zone;
}

function location(venue: EventPayload | undefined): string | undefined {
  if (!venue || Array.isArray(venue) || !venue.venue) return undefined;
  const parts = [venue.venue, venue.address, venue.city, venue.stateprovince || venue.province]
    .concat([venue.zip, venue.country])
    .map((part: unknown) => plainText(part))
    .filter((part) => part !== '');
  return parts.join(', ');
}

/**
 * One RFC 5545 calendar of events already mapped by the API (so with the reader's permissions
 * and language): one VTIMEZONE per IANA zone used, the record id as a stable UID, DTSTAMP and
 * LAST-MODIFIED from the record's modification time, all-day events as DATE values with the
 * exclusive end day. Nothing depends on the clock: the same events give the same bytes.
 */
export function buildCalendar(events: EventPayload[], options: CalendarOptions): string {
  const calendar = ical({
    name: options.name,
    prodId: { company: 'cal', product: 'events', language: options.language.toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  for (const event of events) {
    const stamp = utcDate(event.modified_utc) ?? utcDate(event.date_utc) ?? new Date(0);
    const common = {
      id: `event-${event.id}@${options.uidDomain}`,
      stamp,
      lastModified: utcDate(event.modified_utc),
      created: utcDate(event.date_utc),
      summary: plainText(event.title),
      description: plainText(event.description) || undefined,
      location: location(event.venue as EventPayload | undefined),
      url: typeof event.url === 'string' ? event.url : undefined,
      status: ICalEventStatus.CONFIRMED,
      categories: ((event.categories as EventPayload[] | undefined) ?? []).map((c) => ({
        name: plainText(c.name),
      })),
    };
    if (event.all_day) {
      const start = DateTime.fromSQL(String(event.start_date).slice(0, 10));
      const lastDay = DateTime.fromSQL(String(event.end_date).slice(0, 10));
      // DTEND of an all-day event is the day after its last day (RFC 5545 §3.6.1).
      const end = (lastDay < start ? start : lastDay).plus({ days: 1 });
      calendar.createEvent({ ...common, allDay: true, start, end });
      continue;
    }
    const zone = icsZone(event.timezone);
    if (zone) {
      calendar.createEvent({
        ...common,
        timezone: zone,
        start: DateTime.fromSQL(String(event.start_date), { zone }),
        end: DateTime.fromSQL(String(event.end_date), { zone }),
      });
    } else {
      calendar.createEvent({
        ...common,
        start: utcDate(event.utc_start_date) ?? new Date(0),
        end: utcDate(event.utc_end_date) ?? new Date(0),
      });
    }
  }
  return calendar.toString();
}
