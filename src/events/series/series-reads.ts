import { Injectable } from '@nestjs/common';
import type { Recurrence } from '../../common/recurrence/rules.js';
import type { Language } from '../../config/languages.js';
import { dependsOn, recordTag } from '../../cache/dependencies.js';
import { OccurrencesRepository } from './occurrences.repository.js';
import { isProvisionalId, OCCURRENCE_ID_BASE, recurrenceOf } from './series-rules.js';
import { SeriesRepository } from './series.repository.js';

/** What a feed needs of a series beyond the payload of one of its occurrences. */
export interface SeriesFacts {
  eventId: number;
  /** The series' first occurrence: the event's own dates (local, and UTC). */
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
  allDay: boolean;
  /** The event's zone as stored ('' for the site's). */
  timezone: string;
  recurrence: Recurrence;
}

/** An event split off a series as one changed occurrence, with the series it left. */
export interface ChangedFacts {
  /** The local start of the series' occurrence it replaces. */
  start: string;
  series: SeriesFacts;
}

/**
 * Read helpers for readers of series other than the REST list (feeds, pages, importers): what a
 * provisional id belongs to, and which occurrence a dated address names. Each answers in a
 * constant number of queries, whatever the number of ids (the repositories' chunks).
 */
@Injectable()
export class SeriesReads {
  constructor(
    private readonly occurrences: OccurrencesRepository,
    private readonly series: SeriesRepository,
  ) {}

  /** The series of each provisional id of `ids` (other ids are left out), by provisional id. */
  async ofOccurrences(ids: readonly number[]): Promise<Map<number, SeriesFacts>> {
    const occurrenceIds = [...new Set(ids.filter(isProvisionalId))].map(
      (id) => id - OCCURRENCE_ID_BASE,
    );
    const links = new Map<number, number>();
    for (const [id, eventId] of await this.occurrences.eventsOfOccurrences(occurrenceIds))
      links.set(OCCURRENCE_ID_BASE + id, eventId);
    // An occurrence belongs to its event for good: only a write naming the event (its series
    // written again) replaces its occurrences. Its facts are the event's row (ofEvents).
    const series = await this.ofEvents([...new Set(links.values())]);
    const out = new Map<number, SeriesFacts>();
    for (const [id, eventId] of links) {
      const facts = series.get(eventId);
      if (facts) out.set(id, facts);
    }
    return out;
  }

  /** The series of each recurring event of `ids`, by event id (single events are left out). */
  async ofEvents(ids: readonly number[]): Promise<Map<number, SeriesFacts>> {
    const out = new Map<number, SeriesFacts>();
    const unique = [...new Set(ids)];
    // What the cached answer that shows them depends on: each event's row.
    dependsOn(unique.map((id) => recordTag('event', id)));
    for (const row of await this.series.seriesRows(unique)) {
      const recurrence = recurrenceOf(row);
      if (!recurrence) continue;
      out.set(row.id, {
        eventId: row.id,
        start: row.startDate,
        end: row.endDate,
        startUtc: row.startUtc,
        endUtc: row.endUtc,
        allDay: row.allDay,
        timezone: row.timezone,
        recurrence,
      });
    }
    return out;
  }

  /**
   * Of the real ids `ids`, the events split off a series as one changed occurrence each
   * (`_tec_update_type` single: no recurrence of their own) whose series still recurs, by id:
   * the start each replaces and the series. Two queries at most per chunk of ids.
   */
  async changedOf(ids: readonly number[]): Promise<Map<number, ChangedFacts>> {
    const unique = [...new Set(ids.filter((id) => !isProvisionalId(id)))];
    // Each event's own row says whether it was split off a series (and its series' row, ofEvents).
    dependsOn(unique.map((id) => recordTag('event', id)));
    const links = new Map<number, { seriesId: number; start: string }>();
    for (const row of await this.series.splitFromSeries(unique))
      links.set(row.id, { seriesId: row.seriesId, start: row.seriesStart });
    const series = await this.ofEvents([...new Set([...links.values()].map((l) => l.seriesId))]);
    const out = new Map<number, ChangedFacts>();
    for (const [id, { seriesId, start }] of links) {
      const facts = series.get(seriesId);
      if (facts) out.set(id, { start, series: facts });
    }
    return out;
  }

  /**
   * The events split off series `seriesId` as one changed occurrence each (`_tec_update_type`
   * single: no recurrence of their own), with the local start each replaces; at most `limit`,
   * in one query.
   */
  async changedOccurrences(
    seriesId: number,
    limit: number,
  ): Promise<Array<{ id: number; seriesStart: string }>> {
    // Which events were split off it is a question about every event: any event write.
    dependsOn(['events']);
    return this.series.changedOccurrences(seriesId, limit);
  }

  /**
   * Whether the event of `slug` in `language` has an occurrence on `day` (the `index`-th): what
   * the password form of a protected series checks before it answers, so that a date the series
   * never had is a 404 there as on an open series (its dates are no secret: lists show them).
   */
  async occursOn(slug: string, language: Language, day: string, index: number): Promise<boolean> {
    const id = await this.series.idOfSlug(slug, language);
    return id !== undefined && (await this.occurrenceOn(id, day, index)) !== undefined;
  }

  /**
   * The provisional id of the `index`-th occurrence (1 for the first) of event `eventId` that
   * starts on the local day `day` (`YYYY-MM-DD`), or undefined: what a dated address
   * `/event/{slug}/{day}/{index}/` names (BEHAVIOR §15).
   */
  async occurrenceOn(eventId: number, day: string, index: number): Promise<number | undefined> {
    const id = await this.occurrences.occurrenceOnDay(eventId, day, index);
    return id === undefined ? undefined : OCCURRENCE_ID_BASE + id;
  }
}
