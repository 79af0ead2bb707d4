import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ScheduledPublications } from '../database/scheduled-publications.js';

/**
 * Scheduled events go live too (CONTRACT §6): their earliest date joins the look-up of
 * ScheduledPublications, which stands below events and does not name their table.
 */
@Injectable()
export class ScheduledEvents implements OnModuleInit {
  constructor(private readonly publications: ScheduledPublications) {}

  onModuleInit(): void {
    this.publications.scheduledIn(
      "SELECT MIN(date_utc) AS d FROM events WHERE status = 'future' AND date_utc > ?",
      {
        kind: 'event',
        sql: "SELECT id, date_utc FROM events WHERE status = 'future' AND date_utc > ? AND date_utc <= ?",
      },
    );
  }
}
