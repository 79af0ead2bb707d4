import { threadCpuMs } from '../common/cpu.js';
import { addTo } from '../common/multimap.js';
import ICAL from 'ical.js';
import { isValidTimezone, localToUtc, utcToLocal } from '../common/dates/index.js';
import { expandSeries, horizonFrom, type SeriesAnchor } from '../common/recurrence/expand.js';
import {
  isRecurrenceProblem,
  parseRecurrence,
  RECURRENCE_LIMITS,
  type Recurrence,
} from '../common/recurrence/rules.js';
import { message } from '../config/messages.js';
import { SourceError } from './http-client.js';
import { messages, type Reason } from './messages.js';

/** One event to write (or the reason it cannot be): a VEVENT, a series, or a changed occurrence. */
export interface IcsItem {
  id: string;
  title: string;
  body?: Record<string, unknown>;
  problem?: Reason;
}

export interface IcsReading {
  items: IcsItem[];
  /**
   * When the file's time is spent (this thread's CPU time, threadCpuMs): the check of its series
   * spent part of `totalMs`, and writing them (each expanded and stored again) keeps to the rest.
   */
  deadline: number;
}

/**
 * How far the check of a series goes before anything is written: each series is expanded as the
 * API will expand it (its occurrences up to the horizon), at most `steps` recurrence periods and
 * `ms` milliseconds of CPU, and the file's series at most `totalMs` milliseconds in all, checked
 * and written (IcsReading.deadline), so that a file of many rules that never match, or of many
 * that match rarely, ends in bounded time (each then refused, not written).
 */
export interface ExpansionBounds {
  steps: number;
  ms: number;
  totalMs: number;
}

export const EXPANSION_BOUNDS: ExpansionBounds = {
  steps: RECURRENCE_LIMITS.steps,
  ms: RECURRENCE_LIMITS.ms,
  totalMs: 20_000,
};

/**
 * Zones Outlook names the Windows way (its VTIMEZONE then holds the rules): the IANA zone with
 * the same rules, used only when it gives the same instants as the file's own VTIMEZONE.
 */
const WINDOWS_ZONES: Record<string, string> = {
  'W. Europe Standard Time': 'Europe/Berlin',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'Romance Standard Time': 'Europe/Paris',
  'GTB Standard Time': 'Europe/Bucharest',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kyiv',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  UTC: 'UTC',
};

const pad = (n: number) => String(n).padStart(2, '0');
const wall = (t: ICAL.Time) =>
  `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
const utcWall = (t: ICAL.Time) => wall(t.convertToZone(ICAL.Timezone.utcTimezone));
const sqlOf = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * iCalendar TEXT (SUMMARY, DESCRIPTION, LOCATION, a CN) as HTML text: it holds no markup, so its
 * special characters are escaped, never interpreted.
 */
const escapeText = (text: string) =>
  text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/**
 * Reads an iCalendar text into the events to write (CONTRACT §9): single VEVENTs; a recurring one
 * (RRULE, RDATE) as one series in the API's `recurrence` shape, its EXDATEs and RDATEs local to
 * its zone; each changed occurrence (RECURRENCE-ID) as an event of its own, the series excluding
 * the start it replaces (a cancelled one only excluded), as an edit of one occurrence does. A
 * series the service cannot keep (a rule part or frequency its strict reader refuses, a bound it
 * goes over) is a problem naming why, and its changed occurrences are not imported alone. A series
 * whose occurrences all end before `window.from`, or that starts at or after `window.to`, is left
 * out. Pure apart from registering the file's VTIMEZONEs with ical.js.
 */
export function readIcs(
  text: string,
  window: { from: Date; to: Date },
  bounds: ExpansionBounds = EXPANSION_BOUNDS,
  source?: string,
): IcsReading {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    throw new SourceError(messages.notIcalendar(source, reasonOf(error)));
  }
  if (root.name !== 'vcalendar') {
    throw new SourceError(messages.notIcalendar(source, messages.noVcalendar()));
  }
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    try {
      ICAL.TimezoneService.register(zone);
    } catch {
      // A VTIMEZONE without a TZID names nothing: its times float.
    }
  }
  const items: IcsItem[] = [];
  const masters = new Map<string, ICAL.Event>();
  const changed = new Map<string, ICAL.Event[]>();
  for (const vevent of root.getAllSubcomponents('vevent')) {
    let event: ICAL.Event;
    try {
      event = new ICAL.Event(vevent);
      if (!event.uid) {
        items.push({ id: '?', title: event.summary ?? '', problem: messages.noUid() });
        continue;
      }
      if (event.isRecurrenceException()) addTo(changed, event.uid, event);
      else masters.set(event.uid, event);
    } catch (error) {
      items.push({ id: '?', title: '', problem: reasonOf(error) });
    }
  }
  const check = new SeriesCheck(bounds, window);
  for (const [uid, event] of masters) {
    const title = event.summary ?? '';
    const exceptions = changed.get(uid) ?? [];
    changed.delete(uid);
    try {
      if (!event.isRecurring()) {
        items.push({ id: uid, title, body: eventBody(event, event.startDate, event.endDate) });
        continue;
      }
      items.push(...seriesItems(uid, event, exceptions, check));
    } catch (error) {
      items.push({ id: uid, title, problem: reasonOf(error) });
    }
  }
  // Changed occurrences of no series in the file: events of their own.
  for (const [uid, exceptions] of changed) {
    for (const exception of exceptions) {
      let id = uid;
      const title = exception.summary ?? '';
      try {
        id = `${uid}#${exception.recurrenceId.toString()}`;
        items.push({
          id,
          title,
          body: eventBody(exception, exception.startDate, exception.endDate),
        });
      } catch (error) {
        items.push({ id, title, problem: reasonOf(error) });
      }
    }
  }
  return { items, deadline: check.deadline };
}

/** What SeriesCheck.run answers for a series with no occurrence in the window. */
const OUTSIDE = Symbol('outside');

/** The expansion check of the file's series, with the file's time budget. */
class SeriesCheck {
  readonly deadline: number;
  private readonly from: string;
  private readonly to: string;

  constructor(
    private readonly bounds: ExpansionBounds,
    window: { from: Date; to: Date },
  ) {
    this.deadline = threadCpuMs() + bounds.totalMs;
    this.from = sqlOf(window.from);
    this.to = sqlOf(window.to);
  }

  /**
   * The problem with a series as the API would expand it now (over a bound, or the file's time
   * spent), OUTSIDE when none of it falls in the window, or undefined when it is to be written.
   */
  run(recurrence: Recurrence, anchor: SeriesAnchor): Reason | typeof OUTSIDE | undefined {
    const left = this.deadline - threadCpuMs();
    if (left <= 0) return messages.icsCutFile(this.bounds.totalMs);
    const now = sqlOf(new Date());
    const out = expandSeries(recurrence, anchor, {
      horizon: horizonFrom(now > anchor.start ? now : anchor.start),
      limits: {
        occurrences: RECURRENCE_LIMITS.occurrences,
        steps: Math.min(this.bounds.steps, RECURRENCE_LIMITS.steps),
        ms: Math.min(this.bounds.ms, left),
      },
    });
    if ('key' in out) {
      return out.key === 'recurrence.too_slow' && left < this.bounds.ms
        ? messages.icsCutFile(this.bounds.totalMs)
        : out;
    }
    const first = out.occurrences[0];
    const last = out.occurrences[out.occurrences.length - 1];
    if (!first || first.startUtc >= this.to) return OUTSIDE;
    if (out.horizon === null && last.endUtc < this.from) return OUTSIDE;
    return undefined;
  }
}

/** A series' EXDATEs or RDATEs and its changed occurrences read at most this far (then refused). */
const MAX_DATES = RECURRENCE_LIMITS.dates + 1;

/**
 * A recurring VEVENT as one series (its create request with `recurrence`) and its changed
 * occurrences as events of their own, or the series' problem (its changed occurrences then
 * reported with it, not imported alone).
 */
function seriesItems(
  uid: string,
  event: ICAL.Event,
  exceptions: ICAL.Event[],
  check: SeriesCheck,
): IcsItem[] {
  const title = event.summary ?? '';
  const { changed, unreadable } = keyedExceptions(uid, exceptions);
  const refused = (problem: Reason): IcsItem[] => [
    { id: uid, title, problem },
    ...changed.map((c) => ({
      id: c.id,
      title: c.event.summary ?? '',
      problem: messages.icsSeriesNotImported(),
    })),
    ...unreadable,
  ];
  let body: Record<string, unknown>;
  try {
    body = eventBody(event, event.startDate, event.endDate);
  } catch (error) {
    return refused(reasonOf(error));
  }
  const allDay = body.all_day === true;
  const zone = typeof body.timezone === 'string' ? body.timezone : undefined;
  const component = event.component;
  const local = localTo(allDay, zone);
  if (component.getFirstProperty('exrule')) {
    return refused(
      messages.seriesRefused(message('recurrence.part_unsupported', { part: 'EXRULE' })),
    );
  }
  const rules: string[] = [];
  for (const property of component.getAllProperties('rrule')) {
    if (rules.length > RECURRENCE_LIMITS.rules) break;
    rules.push(String(property.getFirstValue()));
  }
  const exdates = seriesDates(component, 'exdate', local);
  const rdates = seriesDates(component, 'rdate', local);
  const items: IcsItem[] = [...unreadable];
  for (const { event: exception, id } of changed.slice(0, MAX_DATES)) {
    const cancelled =
      String(exception.component.getFirstPropertyValue('status') ?? '').toUpperCase() ===
      'CANCELLED';
    try {
      exdates.push(local(exception.recurrenceId));
      if (cancelled) continue;
      items.push({
        id,
        title: exception.summary ?? title,
        body: eventBody(exception, exception.startDate, exception.endDate),
      });
    } catch (error) {
      items.push({ id, title: exception.summary ?? title, problem: reasonOf(error) });
    }
  }
  const recurrence = parseRecurrence({ rules, exdates, rdates });
  if (isRecurrenceProblem(recurrence)) return refused(messages.seriesRefused(recurrence));
  if (!recurrence) return [{ id: uid, title, body }, ...items];
  const start = String(body.start_date);
  const end = String(body.end_date);
  const problem = check.run(recurrence, {
    start: allDay ? `${start} 00:00:00` : start,
    end: allDay ? `${end} 23:59:59` : end,
    allDay,
    zone: zone ?? 'UTC',
  });
  if (problem === OUTSIDE) return [];
  if (problem) return refused(messages.seriesRefused(problem));
  return [{ id: uid, title, body: { ...body, recurrence } }, ...items];
}

/** Each changed occurrence keyed on its original start in UTC (an unreadable one is reported). */
function keyedExceptions(uid: string, exceptions: ICAL.Event[]) {
  const changed: Array<{ event: ICAL.Event; id: string }> = [];
  const unreadable: IcsItem[] = [];
  for (const exception of exceptions) {
    try {
      changed.push({ event: exception, id: `${uid}@${utcWall(exception.recurrenceId)}` });
    } catch (error) {
      unreadable.push({ id: uid, title: exception.summary ?? '', problem: reasonOf(error) });
    }
  }
  return { changed, unreadable };
}

/** Local to the series' zone: a date alone stays a date (a whole day), a time moves into it. */
function localTo(allDay: boolean, zone: string | undefined) {
  return (t: ICAL.Time): string => {
    if (t.isDate || allDay) return wall(t).slice(0, 10);
    const tzid = t.zone?.tzid;
    if (zone && tzid && tzid !== 'floating') return utcToLocal(utcWall(t), zone);
    return wall(t);
  };
}

/** A series' EXDATEs or RDATEs as local dates, at most MAX_DATES of them. */
function seriesDates(
  component: ICAL.Component,
  name: 'exdate' | 'rdate',
  local: (t: ICAL.Time) => string,
): string[] {
  const out: string[] = [];
  for (const property of component.getAllProperties(name)) {
    for (const value of property.getValues() as Array<ICAL.Time | ICAL.Period>) {
      if (out.length >= MAX_DATES) return out;
      const time = value instanceof ICAL.Period ? value.start : value;
      if (time instanceof ICAL.Time) out.push(local(time));
    }
  }
  return out;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The create request for one event or occurrence. */
function eventBody(event: ICAL.Event, start: ICAL.Time, end: ICAL.Time): Record<string, unknown> {
  const component = event.component;
  const summary = (event.summary ?? '').trim();
  if (!summary) throw new Error('no SUMMARY');
  if (String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') {
    throw new Error('cancelled (STATUS:CANCELLED)');
  }
  if (!start) throw new Error('no DTSTART');
  const body: Record<string, unknown> = { title: escapeText(summary) };
  if (start.isDate) {
    // DTEND of an all-day event is the day after its last day.
    const last = end ? end.clone() : start.clone();
    if (end && end.compare(start) > 0) last.adjust(-1, 0, 0, 0);
    body.all_day = true;
    body.start_date = wall(start).slice(0, 10);
    body.end_date = wall(last).slice(0, 10);
  } else {
    const endTime = end ?? start;
    const tzidParam = component.getFirstProperty('dtstart')?.getParameter('tzid');
    const zone = zoneOf(start, typeof tzidParam === 'string' ? tzidParam : undefined);
    if (zone) {
      body.timezone = zone.name;
      body.start_date = zone.wall(start);
      // A series keeps its start as written (a plain event stores the moved one).
      const series = component.hasProperty('rrule') || component.hasProperty('rdate');
      body.end_date = series
        ? endBeside(zone.wall(start), zone.wall(endTime), zone.name)
        : zone.wall(endTime);
    } else {
      // Floating time: the site's zone, as the file asks.
      body.start_date = wall(start);
      body.end_date = wall(endTime);
    }
  }
  const description = (event.description ?? '').trim();
  if (description) body.description = escapeText(description);
  const url = component.getFirstPropertyValue('url');
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) body.website = url;
  const categories = component
    .getAllProperties('categories')
    .flatMap((p) => p.getValues().map(String))
    .map((c) => c.trim())
    .filter(Boolean);
  if (categories.length) body.categories = [...new Set(categories)].sort();
  const location = (event.location ?? '').trim();
  if (location) {
    const venue: Record<string, unknown> = {
      venue: escapeText(location.split('\n')[0].slice(0, 1000)),
    };
    const geo = component.getFirstPropertyValue('geo') as number[] | null;
    if (Array.isArray(geo) && geo.length === 2) {
      venue.geo_lat = geo[0];
      venue.geo_lng = geo[1];
    }
    body.venue = venue;
  }
  const organizer = component.getFirstProperty('organizer');
  if (organizer) {
    const value = String(organizer.getFirstValue() ?? '');
    const email = value.replace(/^mailto:/i, '');
    const cn = organizer.getParameter('cn');
    const name = (typeof cn === 'string' ? cn : '').trim() || email;
    if (name) {
      body.organizer = [
        {
          organizer: escapeText(name),
          ...(/^[^@\s]+@[^@\s]+$/.test(email) ? { email } : {}),
        },
      ];
    }
  }
  const klass = String(component.getFirstPropertyValue('class') ?? '').toUpperCase();
  body.status = klass === 'PRIVATE' || klass === 'CONFIDENTIAL' ? 'private' : 'publish';
  return body;
}

/**
 * The end to write beside a start as the API reads the two (CONTRACT §9 "Time"): a start that a
 * DST change skips moves forward by the gap and its end with it, while the file's DTEND names
 * its instant; so the end is written that much earlier (DTSTART 02:45 and DTEND 04:15 in New
 * York's gap, 30 minutes, become 02:45-03:15).
 */
function endBeside(start: string, end: string, zone: string): string {
  const ms = (sql: string) => Date.parse(`${sql.replace(' ', 'T')}Z`);
  const shift = ms(utcToLocal(localToUtc(start, zone), zone)) - ms(start);
  if (!shift) return end;
  return new Date(ms(end) - shift).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The event zone: the TZID when it is an IANA name, the IANA zone of a Windows name when it
 * gives the same instant, else UTC (the instant kept, the zone not); null for floating times.
 */
function zoneOf(
  time: ICAL.Time,
  tzidParam: string | undefined,
): { name: string; wall: (t: ICAL.Time) => string } | null {
  const tzid = time.zone?.tzid;
  if (!tzid || tzid === 'floating') {
    // A TZID without its VTIMEZONE: ical.js floats the time; an IANA name still says where.
    if (tzidParam && isValidTimezone(tzidParam) && !/^UTC[+-]/.test(tzidParam)) {
      return { name: tzidParam, wall };
    }
    return null;
  }
  if (tzid === 'Z' || tzid === 'UTC') return { name: 'UTC', wall: utcWall };
  const candidates = [tzid, WINDOWS_ZONES[tzid]].filter(
    (z): z is string => !!z && isValidTimezone(z) && !/^UTC[+-]/.test(z),
  );
  // The same instant as the file's VTIMEZONE gives, or, at a time a DST change skips or repeats
  // (which ical.js reads otherwise than RFC 5545 §3.3.5 and the service: CONTRACT §9 "Time"), the
  // same instants a day either side: the zone is the file's, and the wall clock is kept.
  const sameAt = (name: string, days: number) => {
    const t = time.clone();
    if (days) t.adjust(days, 0, 0, 0);
    return localToUtc(wall(t), name) === utcWall(t);
  };
  for (const name of candidates) {
    if (sameAt(name, 0) || (sameAt(name, -1) && sameAt(name, 1))) return { name, wall };
  }
  return { name: 'UTC', wall: utcWall };
}
