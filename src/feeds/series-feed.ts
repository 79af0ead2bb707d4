import { dateDetails } from '../common/dates/index.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import type { SeriesFacts } from '../events/series-reads.js';
import { icsZone } from './ics.js';
import type { IcsSeries } from './ics-series.js';

/** One VEVENT of a feed: an event of the list, or the series one of its occurrences stands for. */
export interface FeedEntry {
  event: TecEvent;
  series?: IcsSeries;
}

/**
 * The event's own address from an occurrence's: `…/{YYYY-MM-DD}/` (and `{n}/`) of the
 * occurrence's day dropped; `?p={provisional id}` → `?p={id}`.
 */
function seriesUrl(event: TecEvent, eventId: number): string {
  const { url } = event;
  if (!url.endsWith('/')) return url.replace(/([?&]p=)\d+/, `$1${eventId}`);
  const day = event.start_date.slice(0, 10);
  return url.replace(/\/(\d{4}-\d\d-\d\d)\/(?:\d+\/)?$/, (tail, date: string) =>
    date === day ? '/' : tail,
  );
}

/**
 * Whether a series can be one VEVENT with RRULE: its DTSTART must be all-day, local to a zone
 * with a VTIMEZONE, or in UTC, so that the rules step on the wall clocks they were written for.
 * A zone given as an offset (`UTC+2`) is written in UTC, whose days differ from the offset's:
 * such a series is written as its occurrences.
 */
const writableAsSeries = (facts: Pick<SeriesFacts, 'allDay'>, zone: string) =>
  facts.allDay || zone === 'UTC' || icsZone(zone) !== undefined;

/**
 * The list's items for a feed that writes each series once (CONTRACT §7), page after page: the
 * first occurrence of a series in the list stands for it, with the event's id and address and the
 * series' first dates; later occurrences of the same series are left out. Single events,
 * occurrences of a series that cannot be written with RRULE, and ids without a series stay as
 * they are.
 */
export class SeriesFeed {
  private readonly written = new Set<number>();

  constructor(private readonly siteZone: string) {}

  /**
   * The entries of `events`; `facts` are the series of their provisional ids
   * (SeriesReads.ofOccurrences), or of real ids (SeriesReads.ofEvents).
   */
  take(events: readonly TecEvent[], facts: ReadonlyMap<number, SeriesFacts>): FeedEntry[] {
    const out: FeedEntry[] = [];
    for (const event of events) {
      const found = facts.get(event.id);
      const zone = found ? found.timezone || this.siteZone : '';
      if (!found || !writableAsSeries(found, zone)) {
        out.push({ event });
        continue;
      }
      if (this.written.has(found.eventId)) continue;
      this.written.add(found.eventId);
      out.push({
        event: {
          ...event,
          id: found.eventId,
          url: seriesUrl(event, found.eventId),
          timezone: zone,
          start_date: found.start,
          start_date_details: dateDetails(found.start),
          end_date: found.end,
          end_date_details: dateDetails(found.end),
          utc_start_date: found.startUtc,
          utc_start_date_details: dateDetails(found.startUtc),
          utc_end_date: found.endUtc,
          utc_end_date_details: dateDetails(found.endUtc),
        },
        series: { recurrence: found.recurrence, start: found.start, allDay: found.allDay, zone },
      });
    }
    return out;
  }
}
