import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** What the module keeps of one virtual event. */
export interface VirtualRow {
  url: string;
  videoSource: string;
}

interface StoredRow {
  event_id: number | string;
  url: string;
  video_source: string;
}

/**
 * The module's table as the core reads it for the payloads (PayloadContributor.stored), and a
 * row of it as the module knows it.
 */
export const VIRTUAL_TABLE = {
  table: 'virtual_events',
  key: 'event_id',
  columns: ['url', 'video_source'],
  rowOf: (raw: { readonly url?: unknown; readonly video_source?: unknown }): VirtualRow => ({
    url: typeof raw.url === 'string' ? raw.url : '',
    videoSource: typeof raw.video_source === 'string' ? raw.video_source : '',
  }),
} as const;

/** The module's table `virtual_events` (its migration): all the SQL the module runs. */
@Injectable()
export class VirtualEventsStore {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The rows of the events `ids` (a write's checks): one query whatever their number. */
  async rowsOf(ids: readonly number[], manager?: EntityManager): Promise<Map<number, VirtualRow>> {
    if (!ids.length) return new Map();
    const rows = await (manager ?? this.ds).query<StoredRow[]>(
      `SELECT event_id, url, video_source FROM virtual_events WHERE event_id IN (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
    return new Map(rows.map((r) => [Number(r.event_id), VIRTUAL_TABLE.rowOf(r)]));
  }

  /** Makes the event virtual with these values (in the write's transaction). */
  async put(manager: EntityManager, eventId: number, row: VirtualRow): Promise<void> {
    await manager.query('DELETE FROM virtual_events WHERE event_id = ?', [eventId]);
    await manager.query(
      'INSERT INTO virtual_events (event_id, url, video_source) VALUES (?, ?, ?)',
      [eventId, row.url, row.videoSource],
    );
  }

  /** The event is not virtual (any more). */
  async clear(manager: EntityManager | undefined, eventIds: readonly number[]): Promise<void> {
    if (!eventIds.length) return;
    await (manager ?? this.ds).query(
      `DELETE FROM virtual_events WHERE event_id IN (${eventIds.map(() => '?').join(', ')})`,
      [...eventIds],
    );
  }
}
