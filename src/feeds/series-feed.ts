import { dateDetails } from '../common/dates/index.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import type { ChangedFacts, SeriesFacts } from '../events/series/series-reads.js';
import { icsZone, type ChangedOccurrence } from './ics.js';
import type { IcsSeries } from './ics-series.js';

/** One VEVENT of a feed: an event of the list, or the series one of its occurrences stands for. */
export interface FeedEntry {
  event: TecEvent;
  series?: IcsSeries;
  /** The series occurrence `event` replaced, when it is a changed occurrence. */
  changed?: ChangedOccurrence;
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

/** The series of `facts` as its VEVENT writes it, or undefined when it is written as occurrences. */
function icsSeriesOf(facts: SeriesFacts, siteZone: string): IcsSeries | undefined {
  const zone = facts.timezone || siteZone;
  if (!writableAsSeries(facts, zone)) return undefined;
  return { recurrence: facts.recurrence, start: facts.start, allDay: facts.allDay, zone };
}

/**
 * The list's items for a feed that writes each series once (CONTRACT §7), page after page: the
 * first occurrence of a series in the list stands for it, with the event's id and address and the
 * series' first dates; later occurrences of the same series are left out. An event that replaced
 * an occurrence of a series is marked with it (the calendar writes it as an instance of the series
 * when it holds the series). Single events, occurrences of a series that cannot be written with
 * RRULE, and ids without a series stay as they are.
 */
export class SeriesFeed {
  private readonly written = new Set<number>();

  constructor(private readonly siteZone: string) {}

  /**
   * The entries of `events`; `facts` are the series of their provisional ids
   * (SeriesReads.ofOccurrences), or of real ids (SeriesReads.ofEvents); `changed` the series
   * occurrences that events of theirs replaced (SeriesReads.changedOf).
   */
  take(
    events: readonly TecEvent[],
    facts: ReadonlyMap<number, SeriesFacts>,
    changed: ReadonlyMap<number, ChangedFacts> = new Map(),
  ): FeedEntry[] {
    const out: FeedEntry[] = [];
    for (const event of events) {
      const found = facts.get(event.id);
      const series = found && icsSeriesOf(found, this.siteZone);
      if (!found || !series) {
        const change = changed.get(event.id);
        const of = change && icsSeriesOf(change.series, this.siteZone);
        out.push(
          of
            ? {
                event,
                changed: { seriesId: change.series.eventId, start: change.start, series: of },
              }
            : { event },
        );
        continue;
      }
      if (this.written.has(found.eventId)) continue;
      this.written.add(found.eventId);
      out.push({
        event: {
          ...event,
          id: found.eventId,
          url: seriesUrl(event, found.eventId),
          timezone: series.zone,
          start_date: found.start,
          start_date_details: dateDetails(found.start),
          end_date: found.end,
          end_date_details: dateDetails(found.end),
          utc_start_date: found.startUtc,
          utc_start_date_details: dateDetails(found.startUtc),
          utc_end_date: found.endUtc,
          utc_end_date_details: dateDetails(found.endUtc),
        },
        series,
      });
    }
    return out;
  }
}
