import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { TermLinks, type TermLinksSql } from '../terms/term-links.js';

/**
 * SQL over the links of the term of alias `t` to events of its own language whose copied state
 * matches `state`: WordPress term counts include only `publish` posts, and a `future` event
 * whose date has passed counts as published (CONTRACT §6), without a write on read.
 *
 * Counts are per language (CONTRACT §5): a term counts only the events of its own language.
 * Events may carry terms of another language by id, but a Hungarian page listing categories
 * should not count English events, and a count that followed the request language instead
 * would give one term different counts through different prefixes. The event's language is
 * copied onto the link (`event_language`), so the count stays an index-only range scan of
 * IDX_event_terms_count (term_id, event_language, event_status, event_date_utc).
 */
const linksOfTerm = (select: string, state: string, tail = '') =>
  `(SELECT ${select} FROM event_terms cnt_et WHERE cnt_et.term_id = t.id` +
  ` AND cnt_et.event_language = t.language AND (${state})${tail})`;
const PUBLISHED = `cnt_et.event_status = 'publish'`;
/** `now`: the bound parameter of the present time, `:now` in query builders, `?` in plain SQL. */
const dueScheduled = (now: string) =>
  `cnt_et.event_status = 'future'` +
  ` AND cnt_et.event_date_utc IS NOT NULL AND cnt_et.event_date_utc <= ${now}`;

/**
 * The term counts' SQL that the terms module splices into its queries (terms/term-links.ts). The
 * `publish` links are counted as they are written (`terms.published_count`); only the scheduled
 * events whose date has passed are counted on read, a range of the few `future` links in
 * IDX_event_terms_count.
 */
const TERM_LINKS_SQL: TermLinksSql = {
  dueScheduledCount: (now) => linksOfTerm('COUNT(*)', dueScheduled(now)),
  publishedCount: () => linksOfTerm('COUNT(*)', PUBLISHED),
  /**
   * `hide_empty`: stops at the first published event instead of counting them all. Written as a
   * scalar subquery with LIMIT 1 rather than EXISTS: MariaDB turns EXISTS into a semi-join that
   * materializes the whole event_terms index (110 ms for 1,000 tags and 350,000 links, against
   * 0.5 ms for this form, probed only for the rows a page needs).
   */
  hasPublished: () =>
    `${linksOfTerm('1', `${PUBLISHED} OR (${dueScheduled(':now')})`, ' LIMIT 1')} IS NOT NULL`,
  ofEvent: (param) =>
    `t.id IN (SELECT ev_et.term_id FROM event_terms ev_et WHERE ev_et.event_id = :${param})`,
  joinEvents: <T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, eventIds: number[]) =>
    qb
      .addSelect('et.event_id', 'event_id')
      .innerJoin('event_terms', 'et', 'et.term_id = t.id')
      .where('et.event_id IN (:...eventIds)', { eventIds }),
  unlink: async (manager: EntityManager, id: number) => {
    await manager
      .createQueryBuilder()
      .delete()
      .from('event_terms')
      .where('term_id = :id', { id })
      .execute();
  },
};

/** Gives the terms module the SQL of the events' links to terms, when the application starts. */
@Injectable()
export class TermLinksProvider implements OnModuleInit {
  constructor(private readonly links: TermLinks) {}

  onModuleInit(): void {
    this.links.provide(TERM_LINKS_SQL);
  }
}
