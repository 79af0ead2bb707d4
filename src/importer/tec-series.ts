import { expandSeries } from '../common/recurrence/expand.js';
import {
  isRecurrenceProblem,
  parseRecurrence,
  RECURRENCE_LIMITS,
  type Recurrence,
  type RecurrenceProblem,
} from '../common/recurrence/rules.js';
import { OCCURRENCE_ID_BASE } from '../events/series/series-rules.js';
import type { SourceRecord } from './tec-source.js';

/** The dated tail of an occurrence's `url` on a Pro site: `/{YYYY-MM-DD}/`, `/{YYYY-MM-DD}/{n}/`. */
const DATED_TAIL = /\/\d{4}-\d\d-\d\d\/(?:\d{1,4}\/)?$/;
const LOCAL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
/**
 * Recurring events gathered from one list at most: their first records are held until the list
 * ends, so that a source of endless distinct series cannot fill the memory.
 */
export const MAX_SERIES = 5_000;

/** The occurrences of one event of the source, as its list showed them. */
interface SourceSeries {
  /** `{language}:{url of the event}`: the map's key of the series. */
  key: string;
  /** The first occurrence (the event's own dates): what the series is written from. */
  first: SourceRecord;
  /** The local starts of the occurrences, in order, the first included (at most the bound + 2). */
  starts: string[];
  /** The provisional ids of the occurrences, as many as `starts`. */
  ids: number[];
  /** Occurrences listed, all of them. */
  count: number;
}

/**
 * Gathers the occurrences of recurring events as a Pro site lists them (BEHAVIOR §15): one item
 * per occurrence, each with a provisional id (the base and above) and a dated `url`, all of one
 * event sharing the url before its date. Records that are not such occurrences are not taken.
 * Memory is bounded: MAX_SERIES series, each its first record and at most
 * RECURRENCE_LIMITS.dates + 2 starts.
 */
export class SeriesCollector {
  private readonly series = new Map<string, SourceSeries>();

  /**
   * Takes `record` when it is an occurrence: 'taken', or 'full' when it is the first of a series
   * beyond MAX_SERIES (not taken: the caller reports it); 'other' for any other record.
   */
  add(record: SourceRecord, language: string): 'taken' | 'full' | 'other' {
    const url = typeof record.url === 'string' ? record.url : '';
    const start = typeof record.start_date === 'string' ? record.start_date : '';
    if (record.id < OCCURRENCE_ID_BASE || !DATED_TAIL.test(url) || !LOCAL.test(start)) {
      return 'other';
    }
    const key = `${language}:${url.replace(DATED_TAIL, '/')}`;
    const found = this.series.get(key);
    if (!found) {
      if (this.series.size >= MAX_SERIES) return 'full';
      this.series.set(key, { key, first: record, starts: [start], ids: [record.id], count: 1 });
      return 'taken';
    }
    found.count++;
    if (start < String(found.first.start_date)) found.first = record;
    if (found.starts.length < RECURRENCE_LIMITS.dates + 2) {
      found.starts.push(start);
      found.ids.push(record.id);
    }
    return 'taken';
  }

  all(): SourceSeries[] {
    return [...this.series.values()];
  }
}

/**
 * The `recurrence` that gives back the occurrences the source listed: the source's own rules
 * when it shows them (this service's `cal/events/v1` payload) and they expand to exactly those
 * starts from the first one; otherwise the starts themselves, each after the first an added
 * date (`rdates`), as a Pro site shows no rule. Null for a series of one occurrence (a single
 * event); the problem when the dates go over the bounds of a series.
 */
export function seriesRecurrence(series: SourceSeries): Recurrence | null | RecurrenceProblem {
  if (series.count > RECURRENCE_LIMITS.dates + 1) {
    return {
      key: 'recurrence.too_many_items',
      args: { key: 'rdates', max: RECURRENCE_LIMITS.dates },
    };
  }
  const starts = [...new Set(series.starts)].sort();
  const first = series.first;
  const allDay = first.all_day === true;
  const shown = parseRecurrence(sourceRules(first.recurrence));
  if (shown && !isRecurrenceProblem(shown) && expandsTo(shown, first, starts)) return shown;
  const rdates = starts.slice(1).map((s) => (allDay ? s.slice(0, 10) : s));
  return parseRecurrence({ rules: [], exdates: [], rdates });
}

/** The `{rules, exdates, rdates}` of a source's `recurrence` field, or null. */
function sourceRules(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { rules, exdates, rdates } = value as Record<string, unknown>;
  if (!Array.isArray(rules) || !rules.length) return null;
  return { rules, exdates: exdates ?? [], rdates: rdates ?? [] };
}

/** Whether `recurrence` from the first occurrence makes exactly `starts` (up to the last one). */
function expandsTo(recurrence: Recurrence, first: SourceRecord, starts: string[]): boolean {
  const allDay = first.all_day === true;
  const start = String(first.start_date);
  const end =
    typeof first.end_date === 'string' && LOCAL.test(first.end_date) ? first.end_date : start;
  const zone = typeof first.timezone === 'string' && first.timezone ? first.timezone : 'UTC';
  const last = starts[starts.length - 1];
  const out = expandSeries(
    recurrence,
    { start: allDay ? `${start.slice(0, 10)} 00:00:00` : start, end, allDay, zone },
    { horizon: last },
  );
  if ('key' in out) return false;
  const made = out.occurrences.map((o) => o.start).filter((s) => s <= last);
  const wanted = allDay ? starts.map((s) => `${s.slice(0, 10)} 00:00:00`) : starts;
  return made.length === wanted.length && made.every((s, i) => s === wanted[i]);
}
