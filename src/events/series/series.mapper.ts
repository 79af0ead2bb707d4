import {
  dateDetails,
  timezoneAbbr,
  utcToIso8601WithOffset,
  utcToLocal,
} from '../../common/dates/index.js';
import { globalId } from '../../common/http/links.js';
import type { RequestContext } from '../../common/http/request-context.js';
import type { TecEvent, TecRecurrence } from '../../common/payload/tec-payload.js';
import { describeRecurrence } from '../../common/recurrence/describe.js';
import { expandSeries, horizonFrom } from '../../common/recurrence/expand.js';
import type { Language } from '../../config/config.js';
import { nowUtcSql } from '../../database/columns.js';
import type { EventEntity } from '../event.entity.js';
import { anchorOf, OCCURRENCE_ID_BASE, recurrenceOf } from './series-rules.js';

/*
 * What a series shows in the API's payloads (BEHAVIOR §15, CONTRACT §9): the `recurrence` of its
 * event (seriesPayload, which event.mapper.ts puts in), and an occurrence, or the series read by
 * its real id, shown at that occurrence's dates (atOccurrence, atFirstOccurrence).
 */

/** What an occurrence changes in its event's payload. */
export interface OccurrenceDates {
  id: number;
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
  dayIndex: number;
}

/**
 * The payload of one occurrence of a recurring event (BEHAVIOR §15): its provisional id in `id`,
 * `rest_url` and `global_id`, its own dates, and the dated url `/event/{slug}/{YYYY-MM-DD}/`
 * (plus `{n}/` for the n-th of a day); every other field is the event's.
 */
export function atOccurrence(
  payload: TecEvent,
  occurrence: OccurrenceDates,
  ctx: RequestContext,
  keepId = false,
): TecEvent {
  const id = keepId ? payload.id : OCCURRENCE_ID_BASE + occurrence.id;
  const day = occurrence.start.slice(0, 10);
  const suffix = `${day}/${occurrence.dayIndex > 1 ? `${occurrence.dayIndex}/` : ''}`;
  const url = payload.url.endsWith('/')
    ? `${payload.url}${suffix}`
    : payload.url.replace(/([?&]p=)\d+/, `$1${id}`);
  const gid = globalId(ctx.siteUrl, id);
  const out: TecEvent = {
    ...payload,
    id,
    global_id: gid,
    global_id_lineage: [gid],
    url,
    rest_url: `${ctx.restBase}/events/${id}`,
    start_date: occurrence.start,
    start_date_details: dateDetails(occurrence.start),
    end_date: occurrence.end,
    end_date_details: dateDetails(occurrence.end),
    utc_start_date: occurrence.startUtc,
    utc_start_date_details: dateDetails(occurrence.startUtc),
    utc_end_date: occurrence.endUtc,
    utc_end_date_details: dateDetails(occurrence.endUtc),
    timezone_abbr: payload.timezone ? timezoneAbbr(payload.timezone, occurrence.start) : '',
    website: payload.website === payload.url ? url : payload.website,
  };
  if (payload.json_ld) {
    const zone = payload.timezone || 'UTC';
    out.json_ld = {
      ...payload.json_ld,
      url,
      startDate: utcToIso8601WithOffset(occurrence.startUtc, zone),
      endDate: utcToIso8601WithOffset(occurrence.endUtc, zone),
    };
  }
  return out;
}

/**
 * The payload of a recurring event read by its real id (BEHAVIOR §15): its first occurrence's
 * dates and dated url, its own id.
 */
export const atFirstOccurrence = (
  payload: TecEvent,
  occurrence: OccurrenceDates,
  ctx: RequestContext,
): TecEvent => atOccurrence(payload, occurrence, ctx, true);

/** How many next occurrences `recurrence.next` shows. */
const NEXT_OCCURRENCES = 3;

/**
 * The `recurrence` of an event's payload (CONTRACT §9): its rules, its readable description in
 * the request's language (`translate`), and its next occurrences; null for a single event.
 */
export function seriesPayload(
  e: EventEntity,
  siteZone: string,
  language: Language,
  translate: (key: string, args?: Record<string, string | number>) => string = (key) => key,
): TecRecurrence | null {
  const recurrence = recurrenceOf(e);
  if (!recurrence) return null;
  const anchor = anchorOf(e, siteZone);
  const nowLocal = utcToLocal(nowUtcSql(), anchor.zone);
  const expansion = expandSeries(recurrence, anchor, {
    horizon: horizonFrom(nowLocal),
    take: NEXT_OCCURRENCES,
    after: nowLocal,
  });
  return {
    rules: recurrence.rules,
    exdates: recurrence.exdates,
    rdates: recurrence.rdates,
    description: describeRecurrence(recurrence, anchor, translate, language),
    next:
      'occurrences' in expansion
        ? expansion.occurrences.map((o) => ({
            start_date: o.start,
            end_date: o.end,
            utc_start_date: o.startUtc,
            utc_end_date: o.endUtc,
          }))
        : [],
  };
}
