import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor.js';
import type { PostStatus } from '../auth/post-policy.js';

/** Which events a venue or organizer list filter asks about (BEHAVIOR §5.3). */
export type EventCondition =
  /** `event`: the record is linked to this event. */
  | { event: number }
  /** `has_events`: the record has events other than drafts and pending ones. */
  | { anyListed: true }
  /** `only_with_upcoming`: events starting now or later that the caller may see. */
  | { upcoming: { actor: Actor; statuses: PostStatus[]; nowUtc: string } };

/**
 * What a venue or organizer list asks of events, as SQL: the events module owns their tables
 * and gives each kind its answer (events/linked-usage-sql.ts), through LinkedEventLinks.
 */
export interface LinkedEventUsage {
  /**
   * `EXISTS (...)` over the events linked to the outer record `${alias}.id` that meet
   * `condition`; its parameters are set on `qb`.
   */
  exists(qb: SelectQueryBuilder<ObjectLiteral>, alias: string, condition: EventCondition): string;
}
