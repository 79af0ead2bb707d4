import { Injectable } from '@nestjs/common';

/**
 * Why the version moved: `write` (a write committed here, which other processes must hear of),
 * `local` (something only this process must react to: a clock-driven publication, the database
 * coming back) or `remote` (another process committed a write).
 */
export type BumpOrigin = 'write' | 'local' | 'remote';

/**
 * What a change may have altered (docs/caches.md, "Tags"): a record (`event:12`, `term:7`), the
 * lists of a kind (`events`), ... A bump without tags may have altered anything.
 */
export type Tags = readonly string[];

/** Beyond this many remembered tags, the oldest are forgotten by treating them all as changed. */
const MAX_TAGS = 100_000;

/**
 * This process's write version: a counter moved after every committed write (Writes), when a
 * scheduled record goes live (ScheduledPublications), when the database comes back
 * (DatabaseMonitor) and when another process sharing the database has committed a write
 * (SharedGeneration), with what the change may have altered (its tags) when that is known.
 * Every read cache remembers the version it read at and what its value depends on, and serves
 * it only while none of that has changed since (`fresh`), so reads always reflect the writes
 * before them (BEHAVIOR §1.8), across processes within SharedGeneration's bound.
 */
@Injectable()
export class WriteVersion {
  private value = 0;
  /** The last version at which anything may have changed. */
  private everything = 0;
  /** The last version at which each tag changed (only tags changed since `everything`). */
  private readonly changed = new Map<string, number>();
  /** The last answer of `fresh` for a set of tags, and at which version it was given. */
  private readonly checked = new WeakMap<Tags, { at: number; readAt: number; fresh: boolean }>();
  private readonly listeners = new Set<(origin: BumpOrigin, tags: Tags | undefined) => void>();

  current(): number {
    return this.value;
  }

  /** Moves the version: `tags` say what may have changed (all of them if none are given). */
  bump(origin: BumpOrigin = 'write', tags?: Tags): void {
    this.value++;
    if (!tags || tags.length + this.changed.size > MAX_TAGS) {
      this.everything = this.value;
      this.changed.clear();
    } else {
      for (const tag of tags) this.changed.set(tag, this.value);
    }
    for (const listener of this.listeners) listener(origin, tags);
  }

  /**
   * Whether a value read at version `readAt` that depends on `tags` (on anything if undefined)
   * is still current: nothing it depends on changed since.
   */
  fresh(readAt: number, tags: Tags | undefined): boolean {
    if (readAt === this.value) return true;
    if (!tags || this.everything > readAt) return false;
    // An entry's tags are looked up once per version: its next hits reuse the answer.
    const known = this.checked.get(tags);
    if (known && known.at === this.value && known.readAt === readAt) return known.fresh;
    let fresh = true;
    for (const tag of tags) {
      if ((this.changed.get(tag) ?? 0) > readAt) {
        fresh = false;
        break;
      }
    }
    this.checked.set(tags, { at: this.value, readAt, fresh });
    return fresh;
  }

  /** Calls `listener` after every bump; returns the unsubscribe function. */
  onBump(listener: (origin: BumpOrigin, tags: Tags | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
