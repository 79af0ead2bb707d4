import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { writeVersion } from './write-version.js';

interface Entry {
  /** writeVersion() when the payload was built: any committed write makes it stale. */
  version: number;
  expires: number;
  payload: object;
}

/** How long an entry is trusted at most, writes aside: a bound for anything the clock alone moves. */
const MAX_AGE_MS = 60_000;

/**
 * Payloads of single records (an event, a venue, a term, with what they embed) as a reader saw
 * them, shared by every URL that shows the record: a list, another list with other filters, the
 * record's own route. A key names the record and everything its payload depends on besides the
 * stored rows (the reader's `variant`: language, REST base, who asks, context, password given);
 * an entry serves only while no write has been committed since it was built (writeVersion, the
 * same mechanism as the response cache, across processes through SharedGeneration) and for a
 * minute at most. Bounded by an estimate of its size (RECORD_CACHE_MB, 0 turns it off).
 *
 * Cached payloads are shared: nobody may change one after it is returned.
 */
@Injectable()
export class RecordCache {
  private readonly entries: LRUCache<string, Entry> | null;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'recordCacheMb'>) {
    const maxSize = config.recordCacheMb * 1024 * 1024;
    this.entries =
      maxSize > 0
        ? new LRUCache<string, Entry>({
            maxSize,
            maxEntrySize: maxSize / 64,
            sizeCalculation: (entry) => estimateSize(entry.payload),
          })
        : null;
  }

  /** The version to give `payloads` for rows about to be read: take it before reading them. */
  version(): number {
    return writeVersion();
  }

  /**
   * The payloads of `rows` in their order, for readers of the same `variant`: each cached one
   * as it is, the others built by `build` (given the missing rows, in order; one call for all)
   * and kept when `readAt` says which version() the rows were read at (a write committed since
   * leaves them stale at once). A payload `build` leaves undefined is not shown, and not kept.
   */
  async payloads<R extends { id: number }, P extends object>(
    kind: string,
    rows: readonly R[],
    variant: string,
    readAt: number | undefined,
    build: (missing: R[]) => Promise<Array<P | undefined>>,
  ): Promise<Array<P | undefined>> {
    const entries = this.entries;
    if (!entries) return build([...rows]);
    const now = Date.now();
    const version = writeVersion();
    const out: Array<P | undefined> = Array.from({ length: rows.length });
    const missing: R[] = [];
    const at: number[] = [];
    rows.forEach((row, i) => {
      const key = `${kind}:${row.id}:${variant}`;
      const hit = entries.get(key);
      if (hit && hit.version === version && hit.expires > now) out[i] = hit.payload as P;
      else {
        missing.push(row);
        at.push(i);
      }
    });
    if (!missing.length) return out;
    const built = await build(missing);
    built.forEach((payload, j) => {
      out[at[j]] = payload;
      if (payload === undefined || readAt === undefined) return;
      entries.set(`${kind}:${missing[j].id}:${variant}`, {
        version: readAt,
        expires: now + MAX_AGE_MS,
        payload,
      });
    });
    return out;
  }
}

/** A cheap estimate of a payload's memory: its JSON's length, times what V8's objects add to it. */
function estimateSize(payload: object): number {
  return Math.max(1, JSON.stringify(payload).length * 3);
}
