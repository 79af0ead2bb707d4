import { Brackets, type DataSource, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor.js';
import type { Language } from '../config/config.js';
import { applyPostVisibility } from '../posts/visibility.js';
import { containsPattern, LIKE_ESCAPE } from '../database/like.js';
import { windowTag, type EventWindow } from '../cache/dependencies.js';
import { EventEntity, OccurrenceEntity } from './event.entity.js';
import { OCCURRENCE_ID_BASE } from './series/series-rules.js';
import type { EventFilters } from './event-filters.js';
import type { OccurrenceDates } from './series/series.mapper.js';
import { applyListConditions, listParameterTags } from '../extensions/seams.js';

/*
 * The events list as SQL (BEHAVIOR §5.2, CONTRACT §9): the filters as conditions on single events
 * and on the occurrences of recurring ones, the union of both sides in archive order, a page
 * sought from a remembered start, and the union's rows as list items. No statement runs here:
 * EventsRepository.list runs what these build.
 */

/**
 * What a list of events depends on besides its events and their links (docs/caches.md): the
 * venues' coordinates for the geographic filters, the terms for the term filters (a deleted
 * term leaves its events).
 */
export function listTags(f: EventFilters): string[] {
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
  for (const tag of listParameterTags(f.extensions)) if (!tags.includes(tag)) tags.push(tag);
  if (f.categoryIds || f.tagIds) tags.push('terms');
  return tags;
}

const latest = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earliest = (a?: string, b?: string) =>
  a === undefined ? b : b === undefined || a < b ? a : b;

/** Occurrences of recurring events under the list's filters (dates apply to the occurrence). */
export function occurrencesQuery(
  ds: DataSource,
  f: EventFilters,
  actor: Actor,
  language: Language,
  nowUtc: string,
): SelectQueryBuilder<EventEntity> {
  const qb = listQuery(ds, f, actor, language, nowUtc, 'o');
  // `series=once`: an occurrence is listed when it is its event's first one under the list's
  // dates (a look-up of IDX_occurrences_event per row; the event's own filters hold for all).
  if (f.seriesOnce) {
    qb.andWhere(
      `o.start_date = (SELECT MIN(o2.start_date) FROM event_occurrences o2 WHERE ${occurrenceConditions('o2', f)})`,
    );
  }
  return qb;
}

/**
 * The list's filters on single events (`e`) or on occurrences (`o`, their dates the occurrence's).
 * An occurrence carries copies of its event's language, visibility and order columns
 * (OccurrenceEntity), so the default list reads occurrences alone; the filters on the event's
 * other columns join it (by primary key, once).
 */
export function listQuery(
  ds: DataSource,
  f: EventFilters,
  actor: Actor,
  language: Language,
  nowUtc: string,
  dates: 'e' | 'o',
): SelectQueryBuilder<EventEntity> {
  const qb =
    dates === 'e'
      ? ds.getRepository(EventEntity).createQueryBuilder('e')
      : (ds
          .getRepository(OccurrenceEntity)
          .createQueryBuilder('o') as unknown as SelectQueryBuilder<EventEntity>);
  /** The event's own columns (`e`): joined to an occurrence when a filter first names them. */
  let joined = dates === 'e';
  const event = () => {
    if (!joined) qb.innerJoin(EventEntity, 'e', 'e.id = o.event_id');
    joined = true;
    return 'e';
  };
  /** The event's id, which an occurrence has without the join. */
  const eventId = dates === 'e' ? 'e.id' : 'o.event_id';
  qb.where(`${dates}.language = :language`, { language })
    // Hidden events never appear in lists, whoever asks (BEHAVIOR §5.2.2).
    .andWhere(`${dates}.hide_from_listings = :hidden`, { hidden: 0 });
  applyPostVisibility(qb, dates, actor, f.statuses, nowUtc);
  // A recurring event's dates are its occurrence's.
  for (const [condition, name, value] of dateConditions(dates, f)) {
    qb.andWhere(condition, { [name]: value });
  }
  if (f.search) applySearch(qb, event(), f.search);
  if (f.categoryIds) termFilter(qb, eventId, 'cat', f.categoryIds);
  if (f.tagIds) termFilter(qb, eventId, 'tag', f.tagIds);
  if (f.venueIds) {
    qb.andWhere(`${event()}.venueId IN (:...venueIds)`, { venueIds: orNone(f.venueIds) });
  }
  if (f.organizerIds) {
    qb.andWhere(
      `EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = ${eventId} AND eo.organizer_id IN (:...organizerIds))`,
      { organizerIds: orNone(f.organizerIds) },
    );
  }
  if (f.featured !== undefined) {
    qb.andWhere(`${event()}.featured = :featured`, { featured: f.featured ? 1 : 0 });
  }
  if (f.include) {
    // A recurring event's real id matches all its occurrences; a provisional id, that one.
    qb.andWhere(
      dates === 'e'
        ? 'e.id IN (:...include)'
        : `(o.event_id IN (:...include) OR (o.id + ${OCCURRENCE_ID_BASE}) IN (:...include))`,
      { include: orNone(f.include) },
    );
  }
  if (f.postParent !== undefined)
    qb.andWhere(`${event()}.postParent = :postParent`, { postParent: f.postParent });
  // Geolocation's and the modules' parameters (docs/extending.md), through the surface's port.
  applyListConditions(
    f.extensions,
    (condition, parameters) => qb.andWhere(condition, parameters),
    eventId,
    () => `${event()}.venueId`,
  );
  return qb;
}

/**
 * A search's words on the event's title, excerpt and description (`e`, its alias): each word it
 * includes in one of them, none it excludes in any.
 */
function applySearch(
  qb: SelectQueryBuilder<EventEntity>,
  e: string,
  search: NonNullable<EventFilters['search']>,
): void {
  const columns = ['title', 'excerpt', 'description'].map((c) => `LOWER(${e}.${c})`);
  search.include.forEach((word, i) => {
    const p = { [`s${i}`]: containsPattern(word) };
    qb.andWhere(
      new Brackets((w) => {
        for (const column of columns) w.orWhere(`${column} LIKE :s${i} ${LIKE_ESCAPE}`, p);
      }),
    );
  });
  search.exclude.forEach((word, i) => {
    const p = { [`x${i}`]: containsPattern(word) };
    qb.andWhere(
      `NOT (${columns.map((column) => `${column} LIKE :x${i} ${LIKE_ESCAPE}`).join(' OR ')})`,
      p,
    );
  });
}

/**
 * The union's rows from `offset` (or from `anchor`), `limit` of them, in archive order
 * (IDX_events_listing, IDX_occurrences_listing): by start; `include` lists by publication date
 * (D2). Answers the statement and its parameters.
 */
export function unionPage(
  singles: SelectQueryBuilder<EventEntity>,
  occurrences: SelectQueryBuilder<EventEntity>,
  filters: EventFilters,
  limit: number,
  offset: number,
  anchor?: Array<string | number>,
): [string, unknown[]] {
  const byDate = !!filters.include;
  // Each side's sort keys as selected (k0, k1, k2), and as ordered and sought when that differs:
  // an occurrence's k2 is its provisional id, ordered as its id so that IDX_occurrences_listed
  // gives the order (an expression would sort every row of the range).
  const keys: Record<'singles' | 'occurrences', { select: string[]; order?: string[] }> = {
    // Every selected expression distinct: the query builder keeps one of each.
    singles: {
      select: byDate ? ['e.date', '(e.id * 1)', 'e.id'] : ['e.start_date', 'e.date', 'e.id'],
    },
    occurrences: byDate
      ? {
          select: [
            'o.date',
            `(o.id + ${OCCURRENCE_ID_BASE} + 0)`,
            `(o.id + ${OCCURRENCE_ID_BASE})`,
          ],
        }
      : {
          select: ['o.start_date', 'o.date', `(o.id + ${OCCURRENCE_ID_BASE})`],
          order: ['o.start_date', 'o.date', 'o.id'],
        },
  };
  const branch = (
    qb: SelectQueryBuilder<EventEntity>,
    { select, order }: { select: string[]; order?: string[] },
    extra: string[],
  ) => {
    const q = qb.clone();
    q.select(select[0], 'k0').addSelect(select[1], 'k1').addSelect(select[2], 'k2');
    for (const column of extra) {
      const [expression, alias] = column.split(' AS ');
      q.addSelect(expression, alias);
    }
    const columns = order ?? select;
    if (anchor) {
      // A provisional id sought as the id it holds.
      const values = order
        ? [anchor[0], anchor[1], Number(anchor[2]) - OCCURRENCE_ID_BASE]
        : anchor;
      q.andWhere(...seek(columns, values));
    }
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
  return [
    `SELECT u.* FROM (SELECT ${UNION_COLUMNS} FROM (${a}) s` +
      ` UNION ALL SELECT ${UNION_COLUMNS} FROM (${b}) r) u` +
      ` ORDER BY u.k0 ASC, u.k1 ASC, u.k2 ASC LIMIT ${limit}` +
      (anchor ? '' : ` OFFSET ${offset}`),
    [...pa, ...pb],
  ];
}

/** One item of a list page: a single event, or an occurrence of a recurring one. */
export interface ListedEvent {
  /** The id the list shows: the event's, or the occurrence's provisional id. */
  id: number;
  eventId: number;
  occurrence?: ListedOccurrence;
  /** A single event's local dates (an occurrence's are its own). */
  start?: string;
  end?: string;
}

export interface ListedOccurrence extends OccurrenceDates {
  /** Under `series=once`: how many of the event's occurrences the list has after this one. */
  remaining?: number;
}

/**
 * What a single event gives the union's columns beside its sort values: its local dates too (in
 * IDX_events_listing), so that a reader placing events by their dates (the calendar's month)
 * needs no event's row but those it shows.
 */
const SINGLE_COLUMNS = [
  '(e.id + 0) AS event_id',
  'NULL AS o_id',
  // Not `e.start_date` itself: the query builder keeps one of each selected expression (k0).
  '(e.start_date) AS o_start',
  '(e.end_date) AS o_end',
  'NULL AS o_start_utc',
  'NULL AS o_end_utc',
  'NULL AS o_day',
  'NULL AS o_remaining',
];

/** What an occurrence gives them. */
const OCCURRENCE_COLUMNS = [
  'o.event_id AS event_id',
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

export interface UnionRow {
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

export function toListed(row: UnionRow): ListedEvent {
  const eventId = Number(row.event_id);
  if (row.o_id === null || row.o_id === undefined) {
    return { id: eventId, eventId, start: row.o_start ?? undefined, end: row.o_end ?? undefined };
  }
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

function termFilter(
  qb: SelectQueryBuilder<EventEntity>,
  eventId: string,
  name: string,
  ids: number[],
) {
  qb.andWhere(
    `EXISTS (SELECT 1 FROM event_terms et_${name} WHERE et_${name}.event_id = ${eventId} AND et_${name}.term_id IN (:...${name}Ids))`,
    { [`${name}Ids`]: orNone(ids) },
  );
}
