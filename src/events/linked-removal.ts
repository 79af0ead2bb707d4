import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Writes, type JournalEntry } from '../database/writes.js';
import { EventsRepository } from './events.repository.js';

const trashedOf = (entries: readonly JournalEntry[], kind: JournalEntry['kind']) =>
  entries.filter((entry) => entry.kind === kind && entry.action === 'trashed').map((e) => e.id);

/**
 * A venue or organizer moved to the trash leaves every event that named it (BEHAVIOR §7.4.4,
 * D13). The venues and organizers modules stand below events and know nothing of them, so the
 * events module, which owns the events' columns and links, does it: in the transaction of every
 * write that names a trashed venue or organizer, after that write's work.
 */
@Injectable()
export class LinkedRemoval implements OnModuleInit {
  constructor(
    private readonly writes: Writes,
    private readonly events: EventsRepository,
  ) {}

  onModuleInit(): void {
    this.writes.journal(async (manager, entries) => {
      await this.events.unlinkVenues(manager, trashedOf(entries, 'venue'));
      await this.events.unlinkOrganizers(manager, trashedOf(entries, 'organizer'));
    });
  }
}
