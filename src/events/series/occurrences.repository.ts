import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, In, type DataSource, type EntityManager } from 'typeorm';
import type { Occurrence } from '../../common/recurrence/expand.js';
import { dependsOn, recordTag } from '../../cache/dependencies.js';
import { insertRows } from '../../database/plain-insert.js';
import { listingOf, OccurrenceEntity, type OccurrenceListing } from '../event.entity.js';
import type { ListedOccurrence } from '../event-list-sql.js';

/** An occurrence as stored, with its event. */
export type StoredOccurrence = ListedOccurrence & { eventId: number };

/** Ids per query at most (bound parameters of one IN list). */
const CHUNK = 500;

/** The occurrences' copies of their event's columns (OccurrenceListing), by column name. */
const LISTING_COLUMNS: Record<keyof OccurrenceListing, string> = {
  language: 'language',
  hideFromListings: 'hide_from_listings',
  status: 'status',
  date: 'date',
  dateUtc: 'date_utc',
  authorId: 'author_id',
};

/**
 * Every query and write on `event_occurrences` but the events list's (event-list-sql.ts): the
 * occurrences a series stores, read by id, by event or by day, and written again when the series
 * is (`replaceOccurrences`). Methods given an EntityManager run in the caller's transaction.
 */
@Injectable()
export class OccurrencesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The occurrence `id` (the provisional id less the base), or null when there is none. */
  async findOccurrence(id: number, manager?: EntityManager): Promise<StoredOccurrence | null> {
    const row = await (manager ?? this.ds.manager).findOneBy(OccurrenceEntity, { id });
    return row && toStored(row);
  }

  /** The first occurrence of a recurring event (by start), or null when it has none. */
  async firstOccurrence(
    eventId: number,
    manager?: EntityManager,
  ): Promise<StoredOccurrence | null> {
    const row = await (manager ?? this.ds.manager).findOne(OccurrenceEntity, {
      where: { eventId },
      order: { startDate: 'ASC' },
    });
    return row && toStored(row);
  }

  /** `firstOccurrence` of each of the events `ids` that has one, by event: one query. */
  async firstOccurrences(ids: readonly number[]): Promise<Map<number, StoredOccurrence>> {
    if (!ids.length) return new Map();
    // An event's start dates are unique (IDX_occurrences_event): one row per event.
    const rows = await this.ds
      .getRepository(OccurrenceEntity)
      .createQueryBuilder('o')
      .where('o.eventId IN (:...ids)', { ids: [...new Set(ids)] })
      .andWhere(
        'o.start_date = (SELECT MIN(f.start_date) FROM event_occurrences f WHERE f.event_id = o.event_id)',
      )
      .getMany();
    return new Map(rows.map((row) => [row.eventId, toStored(row)]));
  }

  /** How many occurrences an event has (caller's transaction). */
  countOccurrences(manager: EntityManager, eventId: number): Promise<number> {
    return manager.countBy(OccurrenceEntity, { eventId });
  }

  /** The event of each occurrence of `ids` that exists, by occurrence id (chunks of CHUNK). */
  async eventsOfOccurrences(ids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.ds.getRepository(OccurrenceEntity).find({
        select: { id: true, eventId: true },
        where: { id: In(ids.slice(i, i + CHUNK)) },
      });
      for (const row of rows) out.set(row.id, row.eventId);
    }
    return out;
  }

  /** The id of the `index`-th occurrence of event `eventId` on the local day `day`, or undefined. */
  async occurrenceOnDay(eventId: number, day: string, index: number): Promise<number | undefined> {
    // The event's occurrences change only with a write naming it.
    dependsOn([recordTag('event', eventId)]);
    const rows = await this.ds
      .getRepository(OccurrenceEntity)
      .createQueryBuilder('o')
      .select('o.id', 'id')
      .where('o.event_id = :eventId', { eventId })
      .andWhere('o.start_date >= :from AND o.start_date <= :to', {
        from: `${day} 00:00:00`,
        to: `${day} 23:59:59`,
      })
      .andWhere('o.day_index = :index', { index })
      .getRawMany<{ id: number | string }>();
    return rows.length ? Number(rows[0].id) : undefined;
  }

  /** Removes every occurrence of event `eventId` (it no longer recurs). */
  async clearOccurrences(manager: EntityManager, eventId: number): Promise<void> {
    await manager.delete(OccurrenceEntity, { eventId });
  }

  /**
   * Writes `occurrences` as the event's rows, keeping the ids of those whose start stays; new rows
   * copy the event's listing columns (the kept ones follow with `syncOccurrenceListing`).
   */
  async replaceOccurrences(
    manager: EntityManager,
    event: { id: number } & OccurrenceListing,
    occurrences: Occurrence[],
  ): Promise<void> {
    const eventId = event.id;
    const listing = listingOf(event);
    const existing = await manager.find(OccurrenceEntity, { where: { eventId } });
    const byStart = new Map(existing.map((o) => [o.startDate, o]));
    const wanted = new Set(occurrences.map((o) => o.start));
    const gone = existing.filter((o) => !wanted.has(o.startDate)).map((o) => o.id);
    for (let i = 0; i < gone.length; i += CHUNK) {
      await manager.delete(OccurrenceEntity, { id: In(gone.slice(i, i + CHUNK)) });
    }
    const perDay = new Map<string, number>();
    const added: OccurrenceEntity[] = [];
    for (const o of occurrences) {
      const day = o.start.slice(0, 10);
      const dayIndex = (perDay.get(day) ?? 0) + 1;
      perDay.set(day, dayIndex);
      const row = byStart.get(o.start);
      if (!row) {
        added.push(
          Object.assign(new OccurrenceEntity(), {
            ...listing,
            eventId,
            startDate: o.start,
            endDate: o.end,
            startUtc: o.startUtc,
            endUtc: o.endUtc,
            dayIndex,
          }),
        );
      } else if (
        row.endDate !== o.end ||
        row.startUtc !== o.startUtc ||
        row.endUtc !== o.endUtc ||
        row.dayIndex !== dayIndex
      ) {
        await manager.update(
          OccurrenceEntity,
          { id: row.id },
          { endDate: o.end, startUtc: o.startUtc, endUtc: o.endUtc, dayIndex },
        );
      }
    }
    for (let i = 0; i < added.length; i += 200) {
      await insertRows(manager, OccurrenceEntity, added.slice(i, i + 200));
    }
  }

  /**
   * Gives the occurrences of event `id` the event's columns in `listing` (caller's transaction:
   * every write of a recurring event, so that lists read no event row), writing only the rows
   * whose copies differ: an edit that changes none of them writes no occurrence.
   */
  async syncOccurrenceListing(
    manager: EntityManager,
    { id, ...listing }: { id: number } & Partial<OccurrenceListing>,
  ): Promise<void> {
    const given = Object.entries(listing) as Array<[keyof OccurrenceListing, unknown]>;
    if (!given.length) return;
    await manager
      .createQueryBuilder()
      .update(OccurrenceEntity)
      .set(listing)
      .where('event_id = :id', { id })
      .andWhere(
        new Brackets((w) => {
          for (const [key, value] of given) {
            const stored = typeof value === 'boolean' ? Number(value) : (value ?? '');
            w.orWhere(`COALESCE(${LISTING_COLUMNS[key]}, '') <> :${key}`, { [key]: stored });
          }
        }),
      )
      .execute();
  }
}

const toStored = (row: OccurrenceEntity): StoredOccurrence => ({
  id: row.id,
  eventId: row.eventId,
  start: row.startDate,
  end: row.endDate,
  startUtc: row.startUtc,
  endUtc: row.endUtc,
  dayIndex: row.dayIndex,
});
