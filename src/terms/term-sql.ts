import { caseFolded, equalsIgnoringCase } from '../database/like.js';
import { recordTag, touch } from '../cache/dependencies.js';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Language } from '../config/config.js';
import { TermEntity } from './term.entity.js';
import type { TermRecord } from './term.mapper.js';
import type { TermLinksSql } from './term-links.js';

/**
 * The published-event count of the term of alias `t` (sorted by, shown): the `publish` links
 * are counted as they are written (`terms.published_count`, see addPublished and
 * recountPublished); the scheduled events whose date has passed by `now` (`:now` in query
 * builders, `?` in plain SQL) are counted on read, through the events module's SQL (`links`).
 */
export const publishedCount = (links: TermLinksSql, now = ':now') =>
  `(t.published_count + ${links.dueScheduledCount(now)})`;

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
export function selectRecord(
  qb: SelectQueryBuilder<TermEntity>,
  nowUtc: string,
  links: TermLinksSql,
) {
  return selectColumns(qb).addSelect(publishedCount(links), 'count').setParameter('now', nowUtc);
}
