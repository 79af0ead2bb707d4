import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import ICAL from 'ical.js';
import type { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isValidTimezone, localToUtc } from '../common/dates/index.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { HttpClient, SourceError } from './http-client.js';
import { digestOf, ImportMap } from './import-map.js';
import { Writes } from '../database/writes.js';
import { Progress } from './progress.js';
import { TecImporter, type KindCounts } from './tec-importer.js';

export interface IcsOptions {
  author: string;
  /** Recurring events are expanded into the occurrences that start in [from, to). */
  from: Date;
  to: Date;
  dryRun?: boolean;
  progress?: Progress;
  print?: (line: string) => void;
  http?: HttpClient;
}

export interface IcsSummary {
  source: string;
  counts: KindCounts;
  skipped: Array<{ sourceId: string; title: string; reason: string }>;
}

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

/** Plain text (SUMMARY, DESCRIPTION) as HTML text: special characters escaped. */
const escapeText = (text: string) =>
  text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/**
 * `import:ics` (issue 19): an iCalendar file or feed into events, through EventsService as the
 * API writes them. Each VEVENT (each occurrence of a recurring one within the window) is one event,
 * keyed on its UID (and occurrence start) in import_map, so a re-run updates, never duplicates.
 */
@Injectable()
export class IcsImporter {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tec: TecImporter,
    private readonly writes: Writes,
  ) {}

  async run(address: string, options: IcsOptions): Promise<IcsSummary> {
    const actor = await this.tec.actorFor(options.author);
    const { text, key } = await this.load(address, options.http ?? new HttpClient());
    let root: ICAL.Component;
    try {
      root = new ICAL.Component(ICAL.parse(text));
    } catch (error) {
      throw new SourceError(
        `${address} is not iCalendar: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    for (const zone of root.getAllSubcomponents('vtimezone')) {
      ICAL.TimezoneService.register(zone);
    }
    const map = new ImportMap(this.ds, this.writes, key);
    await map.load();
    const summary: IcsSummary = {
      source: key,
      counts: { created: 0, updated: 0, unchanged: 0, skipped: 0, notModified: 0 },
      skipped: [],
    };
    const items = this.occurrences(root, options, summary);
    const progress = options.progress ?? new Progress(process.stderr, false);
    progress.start('events', items.length);
    const ctx = this.tec.contextFor(actor, this.config.defaultLanguage);
    for (const item of items) {
      await this.importOne(item, map, ctx, options, summary);
      progress.tick();
    }
    progress.finish();
    return summary;
  }

  private async load(address: string, http: HttpClient): Promise<{ text: string; key: string }> {
    if (/^(https?|webcal):\/\//i.test(address)) {
      const url = address.replace(/^webcal:/i, 'https:');
      const answer = await http.get(url, 'text/calendar, */*');
      if (answer.status !== 200) throw new SourceError(`${url}: HTTP ${answer.status}`);
      return { text: answer.text, key: `ics:${url}` };
    }
    const path = resolve(address);
    try {
      return { text: await readFile(path, 'utf8'), key: `ics:${path}` };
    } catch (error) {
      throw new SourceError(
        `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
  }

  /** Every event to write: single ones, and recurring ones expanded within the window. */
  private occurrences(root: ICAL.Component, options: IcsOptions, summary: IcsSummary) {
    const out: Array<{
      id: string;
      title: string;
      body?: Record<string, unknown>;
      problem?: string;
    }> = [];
    const vevents = root.getAllSubcomponents('vevent');
    const masters = new Map<string, ICAL.Event>();
    const exceptions: ICAL.Event[] = [];
    for (const vevent of vevents) {
      const event = new ICAL.Event(vevent);
      if (!event.uid) {
        summary.counts.skipped++;
        summary.skipped.push({ sourceId: '?', title: event.summary ?? '', reason: 'no UID' });
        continue;
      }
      if (event.isRecurrenceException()) exceptions.push(event);
      else masters.set(event.uid, event);
    }
    for (const exception of exceptions) {
      const master = masters.get(exception.uid);
      if (master) master.relateException(exception);
      else masters.set(`${exception.uid}#${exception.recurrenceId.toString()}`, exception);
    }
    const from = ICAL.Time.fromJSDate(options.from, true);
    const to = ICAL.Time.fromJSDate(options.to, true);
    for (const [uid, event] of masters) {
      const title = event.summary ?? '';
      try {
        if (!event.isRecurring()) {
          out.push({ id: uid, title, body: this.body(event, event.startDate, event.endDate) });
          continue;
        }
        const iterator = event.iterator();
        let count = 0;
        for (let next = iterator.next(); next; next = iterator.next()) {
          if (next.compare(to) >= 0) break;
          const details = event.getOccurrenceDetails(next);
          if (details.endDate.compare(from) <= 0 && details.startDate.compare(from) < 0) continue;
          if (++count > MAX_OCCURRENCES) break;
          out.push({
            id: `${uid}@${utcWall(details.recurrenceId)}`,
            title: details.item.summary ?? title,
            body: this.body(details.item, details.startDate, details.endDate),
          });
        }
      } catch (error) {
        out.push({
          id: uid,
          title,
          problem: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return out;
  }

  /** The create request for one event or occurrence. */
  private body(event: ICAL.Event, start: ICAL.Time, end: ICAL.Time): Record<string, unknown> {
    const component = event.component;
    const summary = event.summary?.trim();
    if (!summary) throw new Error('no SUMMARY');
    if (String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') {
      throw new Error('cancelled (STATUS:CANCELLED)');
    }
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
      const zone = this.zoneOf(start, typeof tzidParam === 'string' ? tzidParam : undefined);
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
    const description = event.description?.trim();
    if (description) body.description = escapeText(description);
    const url = component.getFirstPropertyValue('url');
    if (typeof url === 'string' && /^https?:\/\//i.test(url)) body.website = url;
    const categories = component
      .getAllProperties('categories')
      .flatMap((p) => p.getValues().map(String))
      .map((c) => c.trim())
      .filter(Boolean);
    if (categories.length) body.categories = [...new Set(categories)].sort();
    const location = event.location?.trim();
    if (location) {
      const venue: Record<string, unknown> = { venue: location.split('\n')[0].slice(0, 1000) };
      const geo = component.getFirstPropertyValue('geo') as number[] | null;
      if (Array.isArray(geo) && geo.length === 2) {
        venue.geo_lat = Number(geo[0]);
        venue.geo_lng = Number(geo[1]);
      }
      body.venue = venue;
    }
    const organizer = component.getFirstProperty('organizer');
    if (organizer) {
      const value = String(organizer.getFirstValue() ?? '');
      const email = value.replace(/^mailto:/i, '');
      const name = String(organizer.getParameter('cn') ?? '').trim() || email;
      if (name) {
        body.organizer = [
          { organizer: name, ...(/^[^@\s]+@[^@\s]+$/.test(email) ? { email } : {}) },
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
  private zoneOf(
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

  private async importOne(
    item: { id: string; title: string; body?: Record<string, unknown>; problem?: string },
    map: ImportMap,
    ctx: ReturnType<TecImporter['contextFor']>,
    options: IcsOptions,
    summary: IcsSummary,
  ) {
    const counts = summary.counts;
    const skip = (reason: string) => {
      counts.skipped++;
      summary.skipped.push({ sourceId: item.id, title: item.title, reason });
    };
    if (!item.body) return skip(item.problem ?? 'unreadable');
    const digest = digestOf({ kind: 'ics', body: item.body });
    try {
      const outcome = await map.apply('event', item.id, digest, {
        dryRun: options.dryRun,
        print: options.print,
        wouldDo: (row) =>
          `would ${row ? `update event ${row.localId}` : 'create an event'} from ${item.id} "${item.title}"`,
        write: (localId) => this.tec.writeRecord('event', localId, item.body!, ctx),
      });
      counts[outcome]++;
    } catch (error) {
      if (error instanceof ApiError) return skip(this.tec.describe(error));
      throw error;
    }
  }
}
