import { Injectable } from '@nestjs/common';
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * What term queries ask of the links of events to terms (`event_terms`), as SQL about the term
 * of alias `t`. The events module owns that table and gives this port its SQL
 * (events/term-links-sql.ts), so nothing here names a table of events.
 */
export interface TermLinksSql {
  /**
   * Scalar subquery: the links of `t` to events of its language that are scheduled (`future`)
   * with a date passed by `now` (a bound parameter: `:now` in query builders, `?` in plain SQL).
   */
  dueScheduledCount(now: string): string;
  /** Scalar subquery: the links of `t` to published events of its language. */
  publishedCount(): string;
  /** Condition: `t` has a link to a published event, or to a scheduled one now due (`:now`). */
  hasPublished(): string;
  /** Condition: `t` is a term of the event of bound parameter `:${param}`. */
  ofEvent(param: string): string;
  /** Joins the terms `t` of `qb` to the events of `eventIds` carrying them, selects `event_id`. */
  joinEvents<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    eventIds: number[],
  ): SelectQueryBuilder<T>;
  /** Unlinks term `id` from every event (a term deleted for good), in the caller's transaction. */
  unlink(manager: EntityManager, id: number): Promise<void>;
}

/** The port, given its SQL by the events module when the application starts. */
@Injectable()
export class TermLinks {
  private given?: TermLinksSql;

  /** Called once, by the events module (events/term-links-sql.ts). */
  provide(sql: TermLinksSql): void {
    this.given = sql;
  }

  get sql(): TermLinksSql {
    if (!this.given) throw new Error('term links: the events module is not loaded');
    return this.given;
  }
}
