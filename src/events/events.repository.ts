import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor.js';
import type { Language } from '../config/config.js';
import type { Page } from '../common/pagination/paginate.js';
import type { PostKind } from '../posts/post-id.entity.js';
import { PostStore } from '../posts/post-store.js';
import { applyPostVisibility } from '../posts/visibility.js';
import { containsPattern, LIKE_ESCAPE } from '../database/like.js';
import { insertRows } from '../database/plain-insert.js';
import { Caches } from '../cache/caches.js';
import { dependsOn, windowTag, type EventWindow } from '../cache/dependencies.js';
import type { PageAnchors } from '../cache/page-anchors.js';
import type { TotalsCache } from '../cache/totals-cache.js';
import {
  EventEntity,
  EventOrganizerEntity,
  EventTermEntity,
  OccurrenceEntity,
} from './event.entity.js';
import { OCCURRENCE_ID_BASE } from './event-series.js';
import type { EventFilters } from './event-filters.js';
import { boundingBox, haversineLimit, type Geofence } from './geofence.js';

/** What an event's term links copy of it (term counts are index-only). */
export interface TermLinkState {
  id: number;
  status: string;
  dateUtc: string | null;
  language: Language;
}

/**
 * What a list of events depends on besides its events and their links (docs/caches.md): the
 * venues' coordinates for the geographic filters, the terms for the term filters (a deleted
 * term leaves its events).
 */
function listTags(f: EventFilters): string[] {
  // The dates the list holds, as its filters compare them (closed bounds: a strict one too).
  const window: EventWindow = {
    startFrom: latest(f.startDate, f.startsAfter),
    startTo: f.startsBefore,
    endFrom: f.endsAfter,
    endTo: earliest(f.endDate, f.endsBefore),
  };
  const tags = [windowTag('events', window)];
  // A search also reads each event's text.
  if (f.search) tags.push(windowTag('events-text', window));
  if (f.hasGeo || f.geofence) tags.push('venues');
  if (f.categoryIds || f.tagIds) tags.push('terms');
  return tags;
}

const latest = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earliest = (a?: string, b?: string) =>
  a === undefined ? b : b === undefined || a < b ? a : b;

/** Every query and write on `events`, `event_organizers` and `event_terms`. */
@Injectable()
export class EventsRepository {
  /** Any committed write invalidates it at once. */
  private readonly totals: TotalsCache;
  /** Where pages start, under the same rules. */
  private readonly anchors: PageAnchors;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly posts: PostStore,
    caches: Caches,
  ) {
    this.totals = caches.totals('event_totals');
    this.anchors = caches.pageAnchors();
  }

  private repo(manager?: EntityManager) {
    return (manager ?? this.ds.manager).getRepository(EventEntity);
  }

  /**
   * One page of the archive, in order, and the total over all pages (cached): two queries at
   * most, neither reading an event row (the presenter reads those it needs). Single events come
   * from `events`, recurring ones as their occurrences from `event_occurrences` (CONTRACT §9): one
   * item per occurrence, ordered by its start, counted in the total, with a provisional id.
   */
  async list(
    filters: EventFilters,
    page: Page,
    actor: Actor,
    language: Language,
    nowUtc: string,
  ): Promise<{ items: ListedEvent[]; total: number }> {
    const singles = this.listQuery(filters, actor, language, nowUtc, 'e')
      // The recurring events are listed by their occurrences (a small set, built once).
      .andWhere('e.id NOT IN (SELECT rs.id FROM events rs WHERE rs.occurrences_until IS NOT NULL)');
    const occurrences = this.occurrencesQuery(filters, actor, language, nowUtc);
    const key = JSON.stringify([filters, actor.user?.id ?? 0, actor.user?.role ?? '', language]);
    const tags = listTags(filters);
    dependsOn(tags);
    const total = await this.totals.get(
      key,
      async () => {
        const [a, pa] = singles.clone().select('COUNT(1)', 'n').getQueryAndParameters();
        const [b, pb] = occurrences.clone().select('COUNT(1)', 'n').getQueryAndParameters();
        const [row] = await this.ds.query<Array<{ n: number | string }>>(
          `SELECT (${a}) + (${b}) AS n`,
          [...pa, ...pb],
        );
        return Number(row.n);
      },
      tags,
    );
    if (total <= page.offset) return { items: [], total };
    // Archive order (IDX_events_listing, IDX_occurrences_listing): by start; `include` lists by
    // publication date (D2).
    const byDate = !!filters.include;
    const keys = {
      // Every selected expression distinct: the query builder keeps one of each.
      singles: byDate ? ['e.date', '(e.id * 1)', 'e.id'] : ['e.start_date', 'e.date', 'e.id'],
      occurrences: byDate
        ? ['e.date', `(o.id + ${OCCURRENCE_ID_BASE} + 0)`, `(o.id + ${OCCURRENCE_ID_BASE})`]
        : ['o.start_date', 'e.date', `(o.id + ${OCCURRENCE_ID_BASE})`],
    };
    const at = (offset: number) => `${key} @${offset}`;
    const found =
      page.offset > 0 ? this.anchors.lookup(at(page.offset), Date.now(), 1_000) : undefined;
    const version = this.anchors.version();
    /** The union's rows from `offset` (or from `anchor`), `limit` of them, in order. */
    const read = (limit: number, offset: number, anchor?: Array<string | number>) => {
      const branch = (qb: SelectQueryBuilder<EventEntity>, columns: string[], extra: string[]) => {
        const q = qb.clone();
        q.select(columns[0], 'k0').addSelect(columns[1], 'k1').addSelect(columns[2], 'k2');
        for (const column of extra) {
          const [expression, alias] = column.split(' AS ');
          q.addSelect(expression, alias);
        }
        if (anchor) q.andWhere(...seek(columns, anchor));
        // Each side needs no more rows than the page can take from it.
        q.orderBy(columns[0], 'ASC')
          .addOrderBy(columns[1], 'ASC')
          .addOrderBy(columns[2], 'ASC')
          .limit((anchor ? 0 : offset) + limit);
        return q.getQueryAndParameters();
      };
      const [a, pa] = branch(singles, keys.singles, SINGLE_COLUMNS);
      const [b, pb] = branch(
        occurrences,
        keys.occurrences,
        filters.seriesOnce ? remainingColumns(filters) : OCCURRENCE_COLUMNS,
      );
      return this.ds.query<UnionRow[]>(
        `SELECT u.* FROM (SELECT ${UNION_COLUMNS} FROM (${a}) s` +
          ` UNION ALL SELECT ${UNION_COLUMNS} FROM (${b}) r) u` +
          ` ORDER BY u.k0 ASC, u.k1 ASC, u.k2 ASC LIMIT ${limit}` +
          (anchor ? '' : ` OFFSET ${offset}`),
        [...pa, ...pb],
      );
    };
    const remember = (offset: number, row: UnionRow) =>
      this.anchors.set(at(offset), version, [row.k0, row.k1, row.k2], Date.now(), tags);
    // As pageIds does: an expired start still answers, while one request finds it again.
    if (found?.expired && !this.anchors.refreshing.has(at(page.offset))) {
      this.anchors.refreshing.add(at(page.offset));
      void read(1, page.offset)
        .then(([row]) => row && remember(page.offset, row))
        .catch(() => undefined)
        .finally(() => this.anchors.refreshing.delete(at(page.offset)));
    }
    const rows = await read(page.perPage + 1, page.offset, found?.value);
    if (rows.length && page.offset > 0 && !found) remember(page.offset, rows[0]);
    // Where the next page starts, for a crawler walking the pages in order.
    const next = rows[page.perPage];
    if (next && !found?.expired) remember(page.offset + page.perPage, next);
    return { items: rows.slice(0, page.perPage).map(toListed), total };
  }

  /** Occurrences of recurring events under the list's filters (dates apply to the occurrence). */
  private occurrencesQuery(
    f: EventFilters,
    actor: Actor,
    language: Language,
    nowUtc: string,
  ): SelectQueryBuilder<EventEntity> {
    const qb = this.listQuery(f, actor, language, nowUtc, 'o');
    // `series=once`: an occurrence is listed when it is its event's first one under the list's
    // dates (a look-up of IDX_occurrences_event per row; the event's own filters hold for all).
    if (f.seriesOnce) {
      qb.andWhere(
        `o.start_date = (SELECT MIN(o2.start_date) FROM event_occurrences o2 WHERE ${occurrenceConditions('o2', f)})`,
      );
    }
    return qb;
  }

  private listQuery(
    f: EventFilters,
    actor: Actor,
    language: Language,
    nowUtc: string,
    dates: 'e' | 'o',
  ): SelectQueryBuilder<EventEntity> {
    const qb =
      dates === 'e'
        ? this.repo().createQueryBuilder('e')
        : (this.ds
            .getRepository(OccurrenceEntity)
            .createQueryBuilder('o')
            .innerJoin(
              EventEntity,
              'e',
              'e.id = o.event_id',
            ) as unknown as SelectQueryBuilder<EventEntity>);
    qb.where('e.language = :language', { language })
      // Hidden events never appear in lists, whoever asks (BEHAVIOR §5.2.2).
      .andWhere('e.hideFromListings = :hidden', { hidden: 0 });
    applyPostVisibility(qb, 'e', actor, f.statuses, nowUtc);
    // A recurring event's dates are its occurrence's.
    for (const [condition, name, value] of dateConditions(dates, f)) {
      qb.andWhere(condition, { [name]: value });
    }
    if (f.search) {
      f.search.include.forEach((word, i) => {
        const p = { [`s${i}`]: containsPattern(word) };
        qb.andWhere(
          new Brackets((w) =>
            w
              .where(`LOWER(e.title) LIKE :s${i} ${LIKE_ESCAPE}`, p)
              .orWhere(`LOWER(e.excerpt) LIKE :s${i} ${LIKE_ESCAPE}`, p)
              .orWhere(`LOWER(e.description) LIKE :s${i} ${LIKE_ESCAPE}`, p),
          ),
        );
      });
      f.search.exclude.forEach((word, i) => {
        const p = { [`x${i}`]: containsPattern(word) };
        qb.andWhere(
          `NOT (LOWER(e.title) LIKE :x${i} ${LIKE_ESCAPE} OR LOWER(e.excerpt) LIKE :x${i} ${LIKE_ESCAPE} OR LOWER(e.description) LIKE :x${i} ${LIKE_ESCAPE})`,
          p,
        );
      });
    }
    if (f.categoryIds) termFilter(qb, 'cat', f.categoryIds);
    if (f.tagIds) termFilter(qb, 'tag', f.tagIds);
    if (f.venueIds) qb.andWhere('e.venueId IN (:...venueIds)', { venueIds: orNone(f.venueIds) });
    if (f.organizerIds) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = e.id AND eo.organizer_id IN (:...organizerIds))',
        { organizerIds: orNone(f.organizerIds) },
      );
    }
    if (f.featured !== undefined)
      qb.andWhere('e.featured = :featured', { featured: f.featured ? 1 : 0 });
    if (f.include) {
      // A recurring event's real id matches all its occurrences; a provisional id, that one.
      qb.andWhere(
        dates === 'e'
          ? 'e.id IN (:...include)'
          : `(e.id IN (:...include) OR (o.id + ${OCCURRENCE_ID_BASE}) IN (:...include))`,
        { include: orNone(f.include) },
      );
    }
    if (f.postParent !== undefined)
      qb.andWhere('e.postParent = :postParent', { postParent: f.postParent });
    if (f.hasGeo) {
      // Most venues have coordinates: the few without them make a small set that the engines
      // build once, while each event's venue comes from IDX_events_listing (a set of the many
      // with them was probed row by row: ten times slower at 100,000 events).
      qb.andWhere(
        'e.venueId IS NOT NULL AND e.venueId NOT IN (SELECT gv.id FROM venues gv WHERE gv.geo_lat IS NULL OR gv.geo_lng IS NULL)',
      );
    }
    if (f.geofence) geofenceFilter(qb, f.geofence);
    return qb;
  }

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

  findById(id: number, manager?: EntityManager): Promise<EventEntity | null> {
    return this.repo(manager).findOneBy({ id });
  }

  /**
   * The event `id`, its row locked for the rest of the caller's transaction on MySQL/MariaDB
   * (SQLite has one writer at a time): a concurrent update waits for this one's commit.
   */
  findForUpdate(id: number, manager: EntityManager): Promise<EventEntity | null> {
    const type = this.ds.options.type;
    if (type !== 'mysql' && type !== 'mariadb') return this.findById(id, manager);
    return this.repo(manager).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The events `ids` that exist, in no particular order: one query. */
  findByIds(ids: number[]): Promise<EventEntity[]> {
    return ids.length ? this.repo().findBy({ id: In(ids) }) : Promise.resolve([]);
  }

  findBySlug(slug: string, language: Language): Promise<EventEntity | null> {
    return this.repo().findOneBy({ slug, language });
  }

  /** Organizer ids of each event in linking order: one query for a whole page. */
  async organizerIds(eventIds: number[], manager?: EntityManager): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(eventIds.map((id) => [id, []]));
    if (!eventIds.length) return out;
    const rows = await (manager ?? this.ds.manager).getRepository(EventOrganizerEntity).find({
      where: { eventId: In(eventIds) },
      order: { eventId: 'ASC', position: 'ASC' },
    });
    for (const row of rows) out.get(row.eventId)?.push(row.organizerId);
    return out;
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** A new id of the shared post sequence for an event. */
  allocateId(manager: EntityManager): Promise<number> {
    return this.posts.allocateId(manager, 'event');
  }

  /**
   * Says that the transaction will allocate an event's id (allocateId) later, so that a record
   * it creates first (an inline venue) takes both ids in one statement.
   */
  announceId(manager: EntityManager): void {
    this.posts.announceId(manager, 'event');
  }

  /** The kind of record behind a post id (events share the sequence with the other posts). */
  kindOf(id: number): Promise<PostKind | null> {
    return this.posts.kindOf(id);
  }

  /** Writes a new event's row once, with its image record and, given `slugBase`, its slug. */
  async insert(manager: EntityManager, event: EventEntity, slugBase?: string): Promise<void> {
    event.imageId = await this.posts.imageIdFor(manager, event.imageUrl);
    const insert = () => insertRows(manager, EventEntity, [event]);
    if (slugBase === undefined) await insert();
    else await this.posts.insertWithSlug(manager, EventEntity, event, slugBase, insert);
  }

  /**
   * Writes an existing event's row once, with its image record: every column in one UPDATE
   * (TypeORM's save would read the row again first to find what changed).
   */
  async save(manager: EntityManager, event: EventEntity): Promise<void> {
    event.imageId = await this.posts.imageIdFor(manager, event.imageUrl);
    const { id, ...columns } = event;
    await manager.update(EventEntity, { id }, columns);
  }

  /** Gives the event a unique slug (per language) from `base`; returns it. */
  assignSlug(manager: EntityManager, event: EventEntity, base: string): Promise<string> {
    return this.posts.assignSlug(manager, EventEntity, event.id, base, event.language);
  }

  /** Moves an event to the trash (CONTRACT §3), dated `modified`. */
  async trash(
    manager: EntityManager,
    id: number,
    modified: { local: string; utc: string },
  ): Promise<void> {
    await manager.update(
      EventEntity,
      { id },
      { status: 'trash', modified: modified.local, modifiedUtc: modified.utc },
    );
  }

  /**
   * Copies the event's status, date and language onto its term links, which makes term counts
   * index-only (caller's transaction; every event write calls it).
   */
  async syncTermLinks(manager: EntityManager, event: TermLinkState): Promise<void> {
    await manager.update(
      EventTermEntity,
      { eventId: event.id },
      { eventStatus: event.status, eventDateUtc: event.dateUtc, eventLanguage: event.language },
    );
  }

  /** The ids of the terms an event carries (caller's transaction). */
  async termIdsOf(manager: EntityManager, eventId: number): Promise<number[]> {
    const rows = await manager.find(EventTermEntity, {
      where: { eventId },
      select: { termId: true },
    });
    return rows.map((r) => r.termId);
  }

  /**
   * Replaces the terms of `wpTaxonomy` that an event carries (caller's transaction; the links'
   * copies of the event's state follow with syncTermLinks).
   */
  async setTerms(
    manager: EntityManager,
    eventId: number,
    wpTaxonomy: string,
    termIds: number[],
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(EventTermEntity)
      .where('event_id = :eventId', { eventId })
      .andWhere('term_id IN (SELECT id FROM terms WHERE taxonomy = :taxonomy)', {
        taxonomy: wpTaxonomy,
      })
      .execute();
    await this.addTerms(manager, { id: eventId }, termIds);
  }

  /**
   * Links an event to terms it does not carry yet (caller's transaction), with copies of the
   * event's state when given (a new event's links need no syncTermLinks then).
   */
  async addTerms(
    manager: EntityManager,
    event: Pick<TermLinkState, 'id'> & Partial<TermLinkState>,
    termIds: number[],
  ): Promise<void> {
    const ids = [...new Set(termIds)];
    if (!ids.length) return;
    await insertRows(
      manager,
      EventTermEntity,
      ids.map((termId) =>
        Object.assign(new EventTermEntity(), {
          eventId: event.id,
          termId,
          ...(event.status !== undefined && {
            eventStatus: event.status,
            eventDateUtc: event.dateUtc ?? null,
            eventLanguage: event.language,
          }),
        }),
      ),
    );
  }

  /** Links the event's organizers in order; a `created` event has none to remove first. */
  async setOrganizers(
    eventId: number,
    organizerIds: number[],
    manager: EntityManager,
    created: boolean,
  ): Promise<void> {
    if (!created) await manager.delete(EventOrganizerEntity, { eventId });
    if (organizerIds.length) {
      await manager.insert(
        EventOrganizerEntity,
        organizerIds.map((organizerId, position) => ({ eventId, organizerId, position })),
      );
    }
  }

  /** The events of venues `ids` lose their venue (the venues went to the trash). */
  async unlinkVenues(manager: EntityManager, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.repo(manager).update({ venueId: In(ids) }, { venueId: null });
  }

  /** The events of organizers `ids` lose them (the organizers went to the trash). */
  async unlinkOrganizers(manager: EntityManager, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await manager.delete(EventOrganizerEntity, { organizerId: In(ids) });
  }

  async existingEventIds(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.repo().find({ where: { id: In(ids) }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }
}

/** One item of a list page: a single event, or an occurrence of a recurring one. */
export interface ListedEvent {
  /** The id the list shows: the event's, or the occurrence's provisional id. */
  id: number;
  eventId: number;
  occurrence?: ListedOccurrence;
}

interface ListedOccurrence {
  id: number;
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
  dayIndex: number;
  /** Under `series=once`: how many of the event's occurrences the list has after this one. */
  remaining?: number;
}

/** An occurrence as stored, with its event. */
export type StoredOccurrence = ListedOccurrence & { eventId: number };

const toStored = (row: OccurrenceEntity): StoredOccurrence => ({
  id: row.id,
  eventId: row.eventId,
  start: row.startDate,
  end: row.endDate,
  startUtc: row.startUtc,
  endUtc: row.endUtc,
  dayIndex: row.dayIndex,
});

/** What a single event gives the union's columns beside its sort values. */
const SINGLE_COLUMNS = [
  '(e.id + 0) AS event_id',
  'NULL AS o_id',
  'NULL AS o_start',
  'NULL AS o_end',
  'NULL AS o_start_utc',
  'NULL AS o_end_utc',
  'NULL AS o_day',
  'NULL AS o_remaining',
];

/** What an occurrence gives them. */
const OCCURRENCE_COLUMNS = [
  'e.id AS event_id',
  'o.id AS o_id',
  'o.start_date AS o_start',
  'o.end_date AS o_end',
  'o.start_utc AS o_start_utc',
  'o.end_utc AS o_end_utc',
  'o.day_index AS o_day',
  'NULL AS o_remaining',
];

/**
 * Under `series=once`: with the number of the event's occurrences listed after this one (the
 * list's dates, and `include`, apply to them as to the list).
 */
const remainingColumns = (f: EventFilters) => [
  ...OCCURRENCE_COLUMNS.slice(0, -1),
  `(SELECT COUNT(1) FROM event_occurrences o3 WHERE ${occurrenceConditions('o3', f)}` +
    ` AND o3.start_date > o.start_date) AS o_remaining`,
];

/** The list's date conditions on the dates of `alias` (an event's or an occurrence's). */
function dateConditions(alias: string, f: EventFilters): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  const add = (column: string, op: string, name: keyof EventFilters) => {
    const value = f[name];
    if (typeof value === 'string' && value)
      out.push([`${alias}.${column} ${op} :${name}`, name, value]);
  };
  add('start_date', '>=', 'startDate');
  add('end_date', '<=', 'endDate');
  add('start_date', '<', 'startsBefore');
  add('start_date', '>', 'startsAfter');
  add('end_date', '<', 'endsBefore');
  add('end_date', '>', 'endsAfter');
  return out;
}

/**
 * The occurrences `alias` of the same event as the listed occurrence `o` that the list's dates
 * and `include` keep (the event's own filters hold for every occurrence of it): SQL with the
 * list query's own named parameters.
 */
function occurrenceConditions(alias: string, f: EventFilters): string {
  const conditions = [
    `${alias}.event_id = o.event_id`,
    ...dateConditions(alias, f).map(([condition]) => condition),
  ];
  if (f.include) {
    conditions.push(
      `(${alias}.event_id IN (:...include) OR (${alias}.id + ${OCCURRENCE_ID_BASE}) IN (:...include))`,
    );
  }
  return conditions.join(' AND ');
}

/** The columns of both sides of the list's union, in one order (each side selects them all). */
const UNION_COLUMNS =
  'k0, k1, k2, event_id, o_id, o_start, o_end, o_start_utc, o_end_utc, o_day, o_remaining';

interface UnionRow {
  k0: string | number;
  k1: string | number;
  k2: string | number;
  event_id: string | number;
  o_id: string | number | null;
  o_start: string | null;
  o_end: string | null;
  o_start_utc: string | null;
  o_end_utc: string | null;
  o_day: string | number | null;
  o_remaining: string | number | null;
}

function toListed(row: UnionRow): ListedEvent {
  const eventId = Number(row.event_id);
  if (row.o_id === null || row.o_id === undefined) return { id: eventId, eventId };
  const id = Number(row.o_id);
  return {
    id: OCCURRENCE_ID_BASE + id,
    eventId,
    occurrence: {
      id,
      start: row.o_start!,
      end: row.o_end!,
      startUtc: row.o_start_utc!,
      endUtc: row.o_end_utc!,
      dayIndex: Number(row.o_day),
      ...(row.o_remaining !== null && { remaining: Number(row.o_remaining) }),
    },
  };
}

/** Rows at or after `values` in the ascending order of `columns` (lexicographic). */
function seek(
  columns: string[],
  values: Array<string | number>,
): [string, Record<string, string | number>] {
  const params: Record<string, string | number> = {};
  let condition = '';
  for (let i = columns.length - 1; i >= 0; i--) {
    params[`seek${i}`] = values[i];
    condition =
      i === columns.length - 1
        ? `${columns[i]} >= :seek${i}`
        : `(${columns[i]} > :seek${i} OR (${columns[i]} = :seek${i} AND ${condition}))`;
  }
  return [condition, params];
}

/** `IN ()` is invalid SQL; an impossible id keeps an empty list meaning "nothing". */
const orNone = (ids: number[]) => (ids.length ? ids : [-1]);

function termFilter(qb: SelectQueryBuilder<EventEntity>, name: string, ids: number[]) {
  qb.andWhere(
    `EXISTS (SELECT 1 FROM event_terms et_${name} WHERE et_${name}.event_id = e.id AND et_${name}.term_id IN (:...${name}Ids))`,
    { [`${name}Ids`]: orNone(ids) },
  );
}

/**
 * Events whose venue lies within the fence: the venues of the bounding box (a range on the indexed
 * `IDX_venues_geo`, one or two longitude ranges), then the exact great-circle test
 * hav(θ) = sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2) ≤ sin²(r/2R) — in SQL on both engines, so that
 * counts and pages stay exact in the same two queries. The venue set is uncorrelated: the engines
 * evaluate it once per query.
 */
function geofenceFilter(qb: SelectQueryBuilder<EventEntity>, fence: Geofence) {
  const box = boundingBox(fence);
  const lngRanges = box.lngRanges
    .filter(([lo, hi]) => lo > -180 || hi < 180)
    .map((_, i) => `gf.geo_lng BETWEEN :gfLngLo${i} AND :gfLngHi${i}`);
  const params: Record<string, number> = {
    gfMinLat: box.minLat,
    gfMaxLat: box.maxLat,
    gfLat: fence.lat,
    gfLng: fence.lng,
    gfCosLat: Math.cos((fence.lat * Math.PI) / 180),
    gfLimit: haversineLimit(fence.radiusKm),
  };
  box.lngRanges.forEach(([lo, hi], i) => {
    params[`gfLngLo${i}`] = lo;
    params[`gfLngHi${i}`] = hi;
  });
  const half = (column: string, centre: string) => `SIN(RADIANS(${column} - ${centre}) / 2)`;
  const dLat = half('gf.geo_lat', ':gfLat');
  const dLng = half('gf.geo_lng', ':gfLng');
  qb.andWhere(
    `e.venueId IN (SELECT gf.id FROM venues gf WHERE gf.geo_lat BETWEEN :gfMinLat AND :gfMaxLat` +
      ` AND gf.geo_lng IS NOT NULL` +
      (lngRanges.length ? ` AND (${lngRanges.join(' OR ')})` : '') +
      ` AND ${dLat} * ${dLat} + :gfCosLat * COS(RADIANS(gf.geo_lat)) * ${dLng} * ${dLng} <= :gfLimit)`,
    params,
  );
}
