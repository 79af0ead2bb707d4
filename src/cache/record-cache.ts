import { ownBytes, type KeptJson } from '../common/http/json-body.js';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { collecting, dependsOn, recordTag } from './dependencies.js';
import { VersionedCache } from './versioned-cache.js';
import type { Tags } from './dependencies.js';
import { WriteVersion } from './write-version.js';

/**
 * Memory of an entry, estimated from its JSON's size: the JSON kept (UTF-8) and the objects
 * themselves (about three times the JSON).
 */
const MEMORY_PER_JSON_BYTE = 4;

/** How long an entry is trusted at most, writes aside: a bound for anything the clock alone moves. */
const MAX_AGE_MS = 60_000;

/** Of RECORD_CACHE_MB, the share that the rows of single reads may take (the rest: payloads). */
const ROWS_SHARE = 1 / 4;

/** Memory of a kept row, estimated: two bytes per character of its text, and the object itself. */
function rowMemory(row: object): number {
  let size = 256;
  for (const value of Object.values(row)) size += typeof value === 'string' ? 2 * value.length : 16;
  return size;
}

/**
 * Payloads of single records (an event, a venue, a term, with what they embed) as a reader saw
 * them, shared by every URL that shows the record: a list, another list with other filters, the
 * record's own route. A key names the record and everything its payload depends on besides the
 * stored rows (the reader's `variant`: language, REST base, who asks, context, password given);
 * an entry serves only while neither the record nor what it embeds has changed since it was
 * built (its tags, collected while it was built: docs/caches.md; WriteVersion, the same
 * mechanism as the response cache, across processes through SharedGeneration) and for a minute
 * at most. Bounded by an estimate of its size (RECORD_CACHE_MB, 0 turns it off). A
 * quarter of that budget keeps the rows that single-record reads found (`row`).
 *
 * Cached payloads and rows are shared: nobody may change one after it is returned.
 */
@Injectable()
export class RecordCache implements KeptJson {
  private readonly entries: VersionedCache<object> | null;
  /** Rows a single record's read found (row), by kind and key. */
  private readonly rows: VersionedCache<object> | null;
  /** The JSON of each payload kept, written and encoded once: a response splices it in (JsonBody). */
  private readonly json = new WeakMap<object, Buffer>();

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'recordCacheMb'>,
    private readonly versions: WriteVersion,
  ) {
    const budget = config.recordCacheMb * 1024 * 1024;
    // One budget for both: the rows take their share of it, the payloads the rest.
    const cache = (name: string, share: number, sizeOf: (value: object) => number) =>
      budget > 0
        ? new VersionedCache<object>(versions, MAX_AGE_MS, {
            name,
            maxSize: Math.floor(budget * share),
            maxEntrySize: Math.floor((budget * share) / 64),
            sizeOf,
          })
        : null;
    this.entries = cache(
      'records',
      1 - ROWS_SHARE,
      (payload) => (this.json.get(payload)?.length ?? 0) * MEMORY_PER_JSON_BYTE,
    );
    this.rows = cache('record_rows', ROWS_SHARE, rowMemory);
  }

  /**
   * The row of a single record's read (`kind`, `key`: an id, a language and slug), as `load`
   * reads it, kept like the payloads until the record is written: a request for a record whose
   * payload is cached then needs no query at all, its checks (status at this moment, author,
   * password) running on the kept row. Only for reads: the row is frozen, shared by every request that
   * asks for it, and a write must read its own. A missing record (null) is not kept.
   */
  async row<T extends object>(
    kind: string,
    key: string,
    load: () => Promise<T | null>,
  ): Promise<Readonly<T> | null> {
    const rows = this.rows;
    if (!rows) {
      // Not kept, yet what the read found still says what the answer around it depends on.
      const row = await load();
      if (row) dependsOn(rowTags(kind, row));
      return row;
    }
    const cacheKey = `${kind}:${key}`;
    const hit = rows.get(cacheKey) as T | undefined;
    if (hit) return hit;
    const version = rows.version();
    const row = await load();
    if (row) {
      const tags = rowTags(kind, row);
      dependsOn(tags);
      rows.set(cacheKey, version, Object.freeze(row), Date.now(), tags);
    }
    return row;
  }

  /**
   * `row` for many records of one kind at once: the kept ones as they are, the others read by
   * `load` (given the missing keys; one call for all) and kept. Answers the rows found, in no
   * particular order.
   */
  async rowsOf<T extends { id: number }>(
    kind: string,
    ids: readonly number[],
    load: (missing: number[]) => Promise<T[]>,
  ): Promise<Array<Readonly<T>>> {
    const rows = this.rows;
    if (!rows) {
      const found = ids.length ? await load([...ids]) : [];
      for (const row of found) dependsOn(rowTags(kind, row));
      return found;
    }
    const found: Array<Readonly<T>> = [];
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = rows.get(`${kind}:${id}`) as T | undefined;
      if (hit) found.push(hit);
      else missing.push(id);
    }
    if (!missing.length) return found;
    const version = rows.version();
    const now = Date.now();
    for (const row of await load(missing)) {
      const tags = rowTags(kind, row);
      dependsOn(tags);
      rows.set(`${kind}:${row.id}`, version, Object.freeze(row), now, tags);
      found.push(row);
    }
    return found;
  }

  /** The version to give `payloads` for rows about to be read: take it before reading them. */
  version(): number {
    return this.versions.current();
  }

  /**
   * The payloads of the records `ids` in that order, for readers of the same `variant`: each
   * cached one as it is, the others built by `build` (given the missing ids, in order; one call
   * for all) and kept when `readAt` says which version() the records were read at (a write
   * committed since leaves them stale at once). A record `build` leaves out is not shown (its
   * slot is undefined), and not kept. An entry depends on its record and on what the build of
   * its batch looked at (dependsOn while `build` runs); the read running now, on all of them.
   */
  async payloads<P extends object>(
    kind: string,
    ids: readonly number[],
    variant: string,
    readAt: number | undefined,
    build: (missing: number[]) => Promise<Map<number, P>>,
  ): Promise<Array<P | undefined>> {
    const entries = this.entries;
    const now = Date.now();
    const out: Array<P | undefined> = Array.from({ length: ids.length });
    const missing: number[] = [];
    // Whether a record is shown at all (its status, for this reader) depends on it too.
    dependsOn(ids.map((id) => recordTag(kind, id)));
    ids.forEach((id, i) => {
      const hit = entries?.get(`${kind}:${id}:${variant}`, now) as P | undefined;
      if (hit) out[i] = hit;
      else missing.push(id);
    });
    if (!missing.length) return out;
    const [built, looked] = await collecting(() => build(missing));
    ids.forEach((id, i) => {
      if (out[i] === undefined) out[i] = built.get(id);
    });
    if (entries && readAt !== undefined) {
      for (const [id, payload] of built) {
        // Written before the entry: its size is estimated from it.
        this.json.set(payload, ownBytes(JSON.stringify(payload)));
        // The batch's tags are one array for all its entries: a view's batch of 2,000 records
        // looked at about as many venues, organizers and terms, and a copy in each entry took
        // 10 KB (15 MB of heap after the bench's calendar views).
        entries.set(
          `${kind}:${id}:${variant}`,
          readAt,
          payload,
          now,
          ownTags(kind, id, looked),
          looked,
        );
      }
    }
    return out;
  }

  /**
   * The payloads of a list's page, in order: given its `ids`, the rows of the records not cached
   * are read (`read`, one call) to build them; given rows already read, those build the missing
   * ones. A record gone or not built is left out.
   */
  async page<R extends { id: number }, P extends object>(
    kind: string,
    page: readonly R[] | readonly number[],
    variant: string,
    readAt: number | undefined,
    read: (ids: number[]) => Promise<R[]>,
    build: (missing: R[]) => Promise<Map<number, P>>,
  ): Promise<P[]> {
    const payloads = isIds(page)
      ? await this.payloads(kind, page, variant, readAt, async (missing) =>
          build(await read(missing)),
        )
      : await this.payloadsOf(kind, page, variant, readAt, build);
    return payloads.filter((payload) => payload !== undefined);
  }

  /** The JSON of a payload this cache handed out, as JSON.stringify wrote it when kept (UTF-8). */
  jsonOf(payload: object): Buffer | undefined {
    return this.json.get(payload);
  }

  /** `payloads` for records already read (`rows`), building the missing ones from them. */
  async payloadsOf<R extends { id: number }, P extends object>(
    kind: string,
    rows: readonly R[],
    variant: string,
    readAt: number | undefined,
    build: (missing: R[]) => Promise<Map<number, P>>,
  ): Promise<Array<P | undefined>> {
    const byId = new Map(rows.map((row) => [row.id, row]));
    return this.payloads(kind, [...byId.keys()], variant, readAt, (missing) =>
      build(missing.map((id) => byId.get(id)!)),
    );
  }
}

/**
 * What a kept row depends on: its record (the kind of a key by slug, `event-slug`, is the
 * record's), and the records whose removal rewrites its links without naming it (a venue
 * trashed or purged empties `venue_id`, a parent purged `post_parent`).
 */
function rowTags(kind: string, row: object): Tags | undefined {
  const { id, venueId, postParent } = row as Record<string, unknown>;
  if (typeof id !== 'number') return undefined;
  const tags = [recordTag(kind.split('-')[0], id)];
  if (typeof venueId === 'number') tags.push(recordTag('venue', venueId));
  if (typeof postParent === 'number' && postParent > 0) tags.push(recordTag('event', postParent));
  return tags;
}

/**
 * What a payload built in a batch depends on beside what the batch looked at (kept with it, as
 * the entry's shared tags): its record, and for a term its ancestors (its URL shows their slugs).
 * Nothing when the batch may have depended on anything.
 */
function ownTags(kind: string, id: number, looked: Tags | undefined): Tags | undefined {
  if (!looked) return undefined;
  const own = recordTag(kind, id);
  return kind === 'term' ? [own, 'term-shape'] : [own];
}

const isIds = (page: readonly object[] | readonly number[]): page is readonly number[] =>
  typeof page[0] === 'number';
