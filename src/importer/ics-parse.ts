import ICAL from 'ical.js';
import { isValidTimezone, localToUtc } from '../common/dates/index.js';
import { SourceError } from './http-client.js';
import { LocalizedError, type Message } from '../config/messages.js';
import { messages, type Reason } from './messages.js';

/** One event to write (or the reason it cannot be): a VEVENT, or one occurrence of a series. */
export interface IcsItem {
  id: string;
  title: string;
  body?: Record<string, unknown>;
  problem?: Reason;
}

export interface IcsReading {
  items: IcsItem[];
  /** Series cut short by the expansion bounds: what was not imported, one line each. */
  warnings: Reason[];
}

/**
 * How far the expansion of recurring events goes. A rule is stepped through from its DTSTART,
 * occurrences before the window included, so a `FREQ=SECONDLY` from 1900 would take years: every
 * step counts, and a series stops at `steps` steps or `ms` milliseconds, the whole file at
 * `totalMs`. A rule that can never match (`FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=31`) loops inside
 * the library without returning an occurrence: those inner steps count too.
 */
export interface ExpansionBounds {
  steps: number;
  ms: number;
  totalMs: number;
}

const EXPANSION_BOUNDS: ExpansionBounds = { steps: 200_000, ms: 2_000, totalMs: 20_000 };

/** Occurrences of one recurring event at most: a rule without end in a wide window stops here. */
const MAX_OCCURRENCES = 1000;

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

/**
 * iCalendar TEXT (SUMMARY, DESCRIPTION, LOCATION, a CN) as HTML text: it holds no markup, so its
 * special characters are escaped, never interpreted.
 */
const escapeText = (text: string) =>
  text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/** The expansion stopped at a bound: why, in the words of the summary. */
/** A series whose expansion was stopped by a bound, and which bound (a `cli.source.*` message). */
class ExpansionCut extends LocalizedError {
  constructor(reason: Message) {
    super(reason.key, reason.args);
  }
}

/** Counts the steps of one series and watches the clocks of the series and of the file. */
class Meter {
  private steps = 0;
  private readonly seriesDeadline: number;

  constructor(
    private readonly bounds: ExpansionBounds,
    private readonly fileDeadline: number,
  ) {
    this.seriesDeadline = Math.min(performance.now() + bounds.ms, fileDeadline);
  }

  step(): void {
    if (++this.steps > this.bounds.steps) {
      throw new ExpansionCut(messages.icsCutSteps(this.bounds.steps));
    }
    if ((this.steps & 255) === 0) this.checkClock();
  }

  checkClock(): void {
    if (performance.now() > this.seriesDeadline) {
      throw new ExpansionCut(
        performance.now() > this.fileDeadline
          ? messages.icsCutFile(this.bounds.totalMs)
          : messages.icsCutTime(this.bounds.ms),
      );
    }
  }
}

/** Makes the rule iterators of an expansion count their inner steps on `meter`. */
function metered(iterator: ICAL.RecurExpansion, meter: Meter): ICAL.RecurExpansion {
  const rules = (iterator as unknown as { ruleIterators?: unknown[] }).ruleIterators ?? [];
  for (const rule of rules as Array<{ check_contracting_rules?: () => boolean }>) {
    const check = rule.check_contracting_rules;
    if (typeof check !== 'function') continue;
    rule.check_contracting_rules = function (this: unknown) {
      meter.step();
      return check.call(this);
    };
  }
  return iterator;
}

/**
 * Reads an iCalendar text into the events to write: single ones, and recurring ones expanded into
 * the occurrences that start in [from, to), each series within the expansion bounds. Pure apart
 * from registering the file's VTIMEZONEs with ical.js.
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
  const warnings: Reason[] = [];
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  for (const vevent of root.getAllSubcomponents('vevent')) {
    let event: ICAL.Event;
    try {
      event = new ICAL.Event(vevent);
      if (!event.uid) {
        items.push({ id: '?', title: event.summary ?? '', problem: messages.noUid() });
        continue;
      }
      if (event.isRecurrenceException()) exceptions.push(event);
      else masters.set(event.uid, event);
    } catch (error) {
      items.push({ id: '?', title: '', problem: reasonOf(error) });
    }
  }
  for (const exception of exceptions) {
    const master = masters.get(exception.uid);
    try {
      if (master) master.relateException(exception);
      else masters.set(`${exception.uid}#${exception.recurrenceId.toString()}`, exception);
    } catch (error) {
      items.push({ id: exception.uid, title: '', problem: reasonOf(error) });
    }
  }
  const from = ICAL.Time.fromJSDate(window.from, true);
  const to = ICAL.Time.fromJSDate(window.to, true);
  const fileDeadline = performance.now() + bounds.totalMs;
  for (const [uid, event] of masters) {
    const title = event.summary ?? '';
    try {
      if (!event.isRecurring()) {
        items.push({ id: uid, title, body: eventBody(event, event.startDate, event.endDate) });
        continue;
      }
      const meter = new Meter(bounds, fileDeadline);
      let count = 0;
      let reached: ICAL.Time | null = null;
      try {
        meter.checkClock();
        const iterator = metered(event.iterator(), meter);
        for (let next = iterator.next(); next; next = iterator.next()) {
          meter.step();
          reached = next;
          if (next.compare(to) >= 0) break;
          const details = event.getOccurrenceDetails(next);
          if (details.endDate.compare(from) <= 0 && details.startDate.compare(from) < 0) continue;
          if (++count > MAX_OCCURRENCES) break;
          items.push({
            id: `${uid}@${utcWall(details.recurrenceId)}`,
            title: details.item.summary ?? title,
            body: eventBody(details.item, details.startDate, details.endDate),
          });
        }
      } catch (error) {
        if (!(error instanceof ExpansionCut)) throw error;
        const after = reached ? utcWall(reached) : null;
        if (count) warnings.push(messages.icsTruncated(uid, title, error, after));
        else items.push({ id: uid, title, problem: messages.icsNotExpanded(error, after) });
      }
    } catch (error) {
      items.push({ id: uid, title, problem: reasonOf(error) });
    }
  }
  return { items, warnings };
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
      body.end_date = zone.wall(endTime);
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
  for (const name of candidates) {
    if (localToUtc(wall(time), name) === utcWall(time)) return { name, wall };
  }
  return { name: 'UTC', wall: utcWall };
}
