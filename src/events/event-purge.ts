import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { Writes, type JournalEntry } from '../database/writes.js';
import { WritesModule } from '../database/writes.module.js';
import { EventPurgeRepository } from './event-purge.repository.js';

const deletedOf = (entries: readonly JournalEntry[], kind: JournalEntry['kind']) =>
  entries.filter((entry) => entry.kind === kind && entry.action === 'deleted').map((e) => e.id);

/**
 * Events, venues and organizers deleted for good (the trash purge, posts/purge-trash.ts) leave
 * rows in the events' tables: links, parents, venues. The posts module stands below events and
 * knows nothing of them, so the events module, owner of those tables, clears them: in the
 * transaction of every write that deletes such records, after that write's work (as
 * linked-removal.ts does for the trash).
 */
@Injectable()
class EventPurge implements OnModuleInit {
  constructor(
    private readonly writes: Writes,
    private readonly purged: EventPurgeRepository,
  ) {}

  onModuleInit(): void {
    this.writes.journal(async (manager, entries) => {
      await this.purged.events(manager, deletedOf(entries, 'event'));
      await this.purged.venues(manager, deletedOf(entries, 'venue'));
      await this.purged.organizers(manager, deletedOf(entries, 'organizer'));
    });
  }
}

/** Imported by the events module and by the CLI, whose `records:purge-trash` runs without it. */
@Module({
  imports: [WritesModule],
  providers: [EventPurgeRepository, EventPurge],
})
export class EventPurgeModule {}
