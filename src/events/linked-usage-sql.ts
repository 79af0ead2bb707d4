import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { applyPostVisibility } from '../posts/visibility.js';
import type { EventCondition, LinkedEventUsage } from '../linked/linked-event-usage.js';
import { OrganizerEventLinks } from '../organizers/organizers.service.js';
import { VenueEventLinks } from '../venues/venues.service.js';

/** Event statuses that make a record "have events" (TEC Linked_Posts: not draft, not pending). */
const HAS_EVENTS_EXCLUDED = ['draft', 'pending'];

/** Restricts `sub` (`SELECT 1 FROM events e`) to the events that meet `condition`. */
function meet(sub: SelectQueryBuilder<ObjectLiteral>, condition: EventCondition): void {
  if ('event' in condition) {
    sub.andWhere('e.id = :event', { event: condition.event });
  } else if ('anyListed' in condition) {
    sub.andWhere('e.status NOT IN (:...hasEventsExcluded)', {
      hasEventsExcluded: HAS_EVENTS_EXCLUDED,
    });
  } else {
    const { actor, statuses, nowUtc } = condition.upcoming;
    // BEHAVIOR §5.3: local start ≥ now (UTC wall clock), events the caller may see.
    sub.andWhere('e.start_date >= :upcomingNow', { upcomingNow: nowUtc });
    applyPostVisibility(sub, 'e', actor, statuses, nowUtc);
  }
}

/**
 * The usage of one kind of linked record by events, `link` restricting `sub` to the events of
 * the outer record `${alias}.id`. Every condition rides on an index: `events.venue_id`,
 * `event_organizers.organizer_id`.
 */
const usage = (
  link: (sub: SelectQueryBuilder<ObjectLiteral>, alias: string) => void,
): LinkedEventUsage => ({
  exists(qb, alias, condition) {
    const sub = qb.subQuery().select('1').from('events', 'e');
    link(sub, alias);
    meet(sub, condition);
    return `EXISTS ${sub.getQuery()}`;
  },
});

const VENUE_USAGE = usage((sub, alias) => sub.where(`e.venue_id = ${alias}.id`));
const ORGANIZER_USAGE = usage((sub, alias) =>
  sub
    .innerJoin('event_organizers', 'eo', 'eo.event_id = e.id')
    .where(`eo.organizer_id = ${alias}.id`),
);

/**
 * Gives the venues' and organizers' lists their event filters (`event`, `has_events`,
 * `only_with_upcoming`) when the application starts: those modules stand below events and name
 * none of its tables.
 */
@Injectable()
export class LinkedUsageProvider implements OnModuleInit {
  constructor(
    private readonly venues: VenueEventLinks,
    private readonly organizers: OrganizerEventLinks,
  ) {}

  onModuleInit(): void {
    this.venues.usedByEvents(VENUE_USAGE);
    this.organizers.usedByEvents(ORGANIZER_USAGE);
  }
}
