import { caseFolded, equalsIgnoringCase } from '../database/like.js';
import { recordTag, touch } from '../cache/dependencies.js';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Language } from '../config/config.js';
import { TermEntity } from './term.entity.js';
import type { TermRecord } from './term.mapper.js';

/**
 * SQL over the links of the term of alias `t` to events of its own language whose copied state
 * matches `state`: WordPress term counts include only `publish` posts, and a `future` event
 * whose date has passed counts as published (CONTRACT §6), without a write on read. `:now` is
 * bound by the caller.
 *
 * Counts are per language (CONTRACT §5): a term counts only the events of its own language.
 * Events may carry terms of another language by id, but a Hungarian page listing categories
 * should not count English events, and a count that followed the request language instead
 * would give one term different counts through different prefixes. The event's language is
 * copied onto the link (`event_language`), so the count stays an index-only range scan of
 * IDX_event_terms_count (term_id, event_language, event_status, event_date_utc).
 */
export const linksOfTerm = (select: string, state: string, tail = '') =>
  `(SELECT ${select} FROM event_terms cnt_et WHERE cnt_et.term_id = t.id` +
  ` AND cnt_et.event_language = t.language AND (${state})${tail})`;
export const PUBLISHED = `cnt_et.event_status = 'publish'`;
/** `now`: the bound parameter of the present time, `:now` in query builders, `?` in plain SQL. */
const dueScheduled = (now = ':now') =>
  `cnt_et.event_status = 'future'` +
  ` AND cnt_et.event_date_utc IS NOT NULL AND cnt_et.event_date_utc <= ${now}`;
const DUE_SCHEDULED = dueScheduled();
/**
 * The `publish` links are counted as they are written (`terms.published_count`, see
 * addPublished and recountPublished); only the scheduled events whose date has passed are
 * counted here, a range of the few `future` links in IDX_event_terms_count.
 */
export const publishedCount = (now?: string) =>
  `(t.published_count + ${linksOfTerm('COUNT(*)', dueScheduled(now))})`;
/**
 * `hide_empty`: stops at the first published event instead of counting them all. Written as a
 * scalar subquery with LIMIT 1 rather than EXISTS: MariaDB turns EXISTS into a semi-join that
 * materializes the whole event_terms index (110 ms for 1,000 tags and 350,000 links, against
 * 0.5 ms for this form, probed only for the rows a page needs).
 */
export const hasPublished = () =>
  `${linksOfTerm('1', `${PUBLISHED} OR (${DUE_SCHEDULED})`, ' LIMIT 1')} IS NOT NULL`;

/** Tells the caches that the counts of `ids` (and so the term lists) change with this write. */
export const touchCounts = (ids: number[]) =>
  touch('term-counts', ...ids.map((id) => recordTag('term', id)));

/** `?, ?, ?` for raw SQL (both mysql2 and better-sqlite3 take positional `?`). */
export const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The columns of a TermRecord (RawTermRow), selected under their own names. */
const RECORD_COLUMNS = [
  'id',
  'taxonomy',
  'name',
  'slug',
  'description',
  'parent',
  'language',
  'translation_group',
] as const;
/** RECORD_COLUMNS as a plain SQL select list of alias `t`. */
export const RECORD_SELECT = RECORD_COLUMNS.map((column) => `t.${column} AS ${column}`).join(', ');

export interface RawTermRow {
  id: number | string;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number | string;
  language: Language;
  translation_group: number | string | null;
  count?: number | string;
}

export function toRecord(row: RawTermRow): TermRecord {
  return {
    id: Number(row.id),
    taxonomy: row.taxonomy,
    name: row.name,
    slug: row.slug,
    description: row.description,
    parent: Number(row.parent),
    language: row.language,
    translationGroup: row.translation_group === null ? null : Number(row.translation_group),
    count: Number(row.count ?? 0),
  };
}

/**
 * Case-insensitive name order: on MySQL/MariaDB a page walks IDX_terms_name (taxonomy,
 * language, name) and stops after the page (caseFolded).
 */
export const nameOrder = (dataSource: DataSource) => caseFolded(dataSource, 't.name');

/** `t.name` equals parameter `param` ignoring case; on MySQL/MariaDB through IDX_terms_name. */
export const nameEquals = (dataSource: DataSource, param: string) =>
  equalsIgnoringCase(dataSource, 't.name', param);

/** A query builder over `terms` of alias `t`, the alias every fragment here names. */
export function termsQuery(manager: EntityManager): SelectQueryBuilder<TermEntity> {
  return manager.getRepository(TermEntity).createQueryBuilder('t');
}

/** Term columns as raw rows named like TermRecord, without the count. */
export function selectColumns(qb: SelectQueryBuilder<TermEntity>) {
  const [first, ...rest] = RECORD_COLUMNS;
  qb.select(`t.${first}`, first);
  for (const column of rest) qb.addSelect(`t.${column}`, column);
  return qb;
}

/** Term columns plus its published-event count (lists sorted by count). */
export function selectRecord(qb: SelectQueryBuilder<TermEntity>, nowUtc: string) {
  return selectColumns(qb).addSelect(publishedCount(), 'count').setParameter('now', nowUtc);
}
