import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Ids per statement: well below the bound-parameter limits of SQLite and MySQL. */
const CHUNK = 500;

/**
 * What a purge of the trash (posts/purge-trash.ts) leaves for events to clear: the rows that hang
 * off purged events, venues and organizers in the events' tables. Inside the purge's transaction.
 */
@Injectable()
export class EventPurgeRepository {
  /** Purged events: their term and organizer links go, their children lose their parent. */
  async events(manager: EntityManager, ids: readonly number[]): Promise<void> {
    await chunked(manager, ids, [
      'DELETE FROM event_terms WHERE event_id IN (:ids)',
      'DELETE FROM event_organizers WHERE event_id IN (:ids)',
      'UPDATE events SET post_parent = 0 WHERE post_parent IN (:ids)',
    ]);
  }

  /** Purged venues: trash unlinks them from events already; this covers rows trashed before. */
  async venues(manager: EntityManager, ids: readonly number[]): Promise<void> {
    await chunked(manager, ids, ['UPDATE events SET venue_id = NULL WHERE venue_id IN (:ids)']);
  }

  /** Purged organizers: their links to events go. */
  async organizers(manager: EntityManager, ids: readonly number[]): Promise<void> {
    await chunked(manager, ids, ['DELETE FROM event_organizers WHERE organizer_id IN (:ids)']);
  }
}

async function chunked(manager: EntityManager, ids: readonly number[], statements: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const list = chunk.map(() => '?').join(', ');
    for (const sql of statements) await manager.query(sql.replace('(:ids)', `(${list})`), chunk);
  }
}
