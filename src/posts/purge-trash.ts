import { Injectable } from '@nestjs/common';
import type { PostKind } from '../common/records/record-kinds.js';
import { Writes } from '../database/writes.js';
import { TranslationStore } from './translation-store.js';
import { TrashStore } from './trash-store.js';
import {
  EVENT_TRANSLATIONS,
  ORGANIZER_TRANSLATIONS,
  VENUE_TRANSLATIONS,
  type TranslationScope,
} from './translations.js';

export interface PurgeCounts {
  events: number;
  venues: number;
  organizers: number;
}

/** Ids per statement: well below the bound-parameter limits of SQLite and MySQL. */
const CHUNK = 500;

const KINDS: Array<{ key: keyof PurgeCounts; kind: PostKind; scope: TranslationScope }> = [
  { key: 'events', kind: 'event', scope: EVENT_TRANSLATIONS },
  { key: 'venues', kind: 'venue', scope: VENUE_TRANSLATIONS },
  { key: 'organizers', kind: 'organizer', scope: ORGANIZER_TRANSLATIONS },
];

/**
 * Deletes trashed events, venues and organizers for good, as WordPress's "Empty Trash" does
 * (the API only trashes, CONTRACT §3), with every row that hangs off them: translation group
 * membership and the post id here; term and organizer links and the venue of events through the
 * events module's journal hook (events/event-purge.ts), since posts knows nothing of events.
 * Image records stay: they are shared by URL with other records. One transaction: all or nothing.
 *
 * `trashedBeforeUtc` (`YYYY-MM-DD HH:MM:SS`) keeps records trashed later (their `modified_utc`
 * is the time of the trash, the last write a trashed record receives).
 */
@Injectable()
export class TrashPurger {
  constructor(
    private readonly writes: Writes,
    private readonly translations: TranslationStore,
    private readonly store: TrashStore,
  ) {}

  purge(trashedBeforeUtc: string | null): Promise<PurgeCounts> {
    return this.run(KINDS, trashedBeforeUtc);
  }

  /**
   * Deletes the trashed records `ids` of `kind` for good (an API's `DELETE ?force=true`, CONTRACT
   * §3); records not in the trash are left. Answers how many went.
   */
  async purgeRecords(kind: PostKind, ids: readonly number[]): Promise<number> {
    const counts = await this.run(
      KINDS.filter((k) => k.kind === kind),
      null,
      ids,
    );
    return counts.events + counts.venues + counts.organizers;
  }

  private run(
    kinds: typeof KINDS,
    trashedBeforeUtc: string | null,
    only?: readonly number[],
  ): Promise<PurgeCounts> {
    return this.writes.run(async ({ manager, changed }) => {
      const counts: PurgeCounts = { events: 0, venues: 0, organizers: 0 };
      for (const { key, kind, scope } of kinds) {
        const rows = await this.store.trashed(manager, scope, trashedBeforeUtc, only);
        // Trash already leaves translation groups; rows trashed by older versions may not have.
        for (const row of rows.filter((r) => r.tgroup !== null)) {
          await this.translations.leave(manager, scope, {
            id: Number(row.id),
            language: row.language,
            translationGroup: Number(row.tgroup),
          });
        }
        const ids = rows.map((r) => Number(r.id));
        for (let i = 0; i < ids.length; i += CHUNK) {
          await this.store.delete(manager, scope, ids.slice(i, i + CHUNK));
        }
        for (const row of rows) {
          changed(kind, Number(row.id), 'deleted', undefined, {
            previousStatus: 'trash',
            language: row.language,
          });
        }
        counts[key] = ids.length;
      }
      return counts;
    });
  }
}
