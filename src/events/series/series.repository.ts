import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, IsNull, Not, type DataSource, type EntityManager } from 'typeorm';
import type { Language } from '../../config/languages.js';
import { Leases } from '../../database/leases.js';
import { EventEntity } from '../event.entity.js';

/** Ids per query at most (bound parameters of one IN list). */
const CHUNK = 500;

/** What a series' readers need of its event's row. */
export type SeriesRow = Pick<
  EventEntity,
  'id' | 'startDate' | 'endDate' | 'startUtc' | 'endUtc' | 'allDay' | 'timezone' | 'recurrence'
>;

/**
 * The questions about series that recurring events ask of the `events` table (its rows are
 * EventsRepository's otherwise): the series' own columns of many events, the events split off a
 * series, the series whose horizon is due, and the horizon job's lease
 * (its row of `leases`, through database/leases.ts). Each read answers in a constant number of queries per CHUNK of ids.
 */
@Injectable()
export class SeriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The rows of the events `ids` with the columns of their series. */
  async seriesRows(ids: readonly number[]): Promise<SeriesRow[]> {
    const out: SeriesRow[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.ds.getRepository(EventEntity).find({
        select: {
          id: true,
          startDate: true,
          endDate: true,
          startUtc: true,
          endUtc: true,
          allDay: true,
          timezone: true,
          recurrence: true,
        },
        where: { id: In(ids.slice(i, i + CHUNK)) },
      });
      out.push(...rows);
    }
    return out;
  }

  /**
   * Of the events `ids`, those split off a series as one changed occurrence (no recurrence of
   * their own): their series and the local start each replaces.
   */
  async splitFromSeries(
    ids: readonly number[],
  ): Promise<Array<{ id: number; seriesId: number; seriesStart: string }>> {
    const out: Array<{ id: number; seriesId: number; seriesStart: string }> = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.ds.getRepository(EventEntity).find({
        select: { id: true, seriesId: true, seriesStart: true },
        where: {
          id: In(ids.slice(i, i + CHUNK)),
          seriesId: Not(IsNull()),
          seriesStart: Not(IsNull()),
          recurrence: IsNull(),
        },
      });
      for (const row of rows)
        out.push({ id: row.id, seriesId: row.seriesId!, seriesStart: row.seriesStart! });
    }
    return out;
  }

  /** The events split off series `seriesId` as one changed occurrence each, at most `limit`. */
  async changedOccurrences(
    seriesId: number,
    limit: number,
  ): Promise<Array<{ id: number; seriesStart: string }>> {
    const rows = await this.ds.getRepository(EventEntity).find({
      select: { id: true, seriesStart: true },
      where: { seriesId, recurrence: IsNull(), seriesStart: Not(IsNull()) },
      order: { seriesStart: 'ASC' },
      take: limit,
    });
    return rows.map((row) => ({ id: row.id, seriesStart: row.seriesStart! }));
  }

  /** The id of the event of `slug` in `language`, or undefined. */
  async idOfSlug(slug: string, language: Language): Promise<number | undefined> {
    const event = await this.ds
      .getRepository(EventEntity)
      .findOne({ select: { id: true }, where: { slug, language } });
    return event?.id;
  }

  /** At most `limit` ids above `after` (in order) of the series materialized short of `due`. */
  async dueIds(due: string, after: number, limit: number): Promise<number[]> {
    const rows: Array<{ id: number | string }> = await this.ds.query(
      `SELECT id FROM events WHERE occurrences_until < ? AND id > ? ORDER BY id LIMIT ${limit}`,
      [due, after],
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Moves series `id`'s horizon from `until` to `horizon` (caller's transaction) unless another
   * write moved it first; true when this call did.
   */
  async moveHorizon(
    manager: EntityManager,
    id: number,
    until: string,
    horizon: string,
  ): Promise<boolean> {
    const moved = await manager.update(
      EventEntity,
      { id, occurrencesUntil: until },
      { occurrencesUntil: horizon },
    );
    return !!moved.affected;
  }

  /**
   * Takes the horizon job's lease (`leases` row `series-horizon`) until `until` if nobody holds it
   * at `now`; true when taken. Each pass is an owner of its own: a second pass of this process
   * waits for the hour like another process's.
   */
  takeHorizonLease(until: Date, now: Date): Promise<boolean> {
    return new Leases(this.ds).take('series-horizon', randomUUID(), now.getTime(), until.getTime());
  }
}
