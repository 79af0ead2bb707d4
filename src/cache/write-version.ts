import { Injectable } from '@nestjs/common';
import { BoundedMemo } from '../common/bounded-memo.js';
import { overlaps, parseWindow, type EventWindow, type Tags } from './dependencies.js';

/**
 * Why the version moved: `write` (a write committed here, which other processes must hear of),
 * `local` (something only this process must react to: a clock-driven publication, the database
 * coming back) or `remote` (another process committed a write).
 */
export type BumpOrigin = 'write' | 'local' | 'remote';

/** Beyond this many remembered tags, the oldest are forgotten by treating them all as changed. */
const MAX_TAGS = 100_000;
/** Windowed changes remembered; the older half is forgotten beyond (what read before: changed). */
const MAX_WINDOWS = 20_000;
/** Windows of read tags kept parsed. */
const MAX_PARSED = 10_000;

interface WindowChange {
  version: number;
  name: string;
  window: EventWindow;
}

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
  /**
   * The windowed tags changed (`events@...`, dependencies.ts windowTag), in version order: a read
   * tag `events@<window>` changed when one of them of its name overlaps its window.
   */
  private windows: WindowChange[] = [];
  /** The last version whose windowed changes were forgotten. */
  private windowsForgotten = 0;
  private readonly parsed = new BoundedMemo<ReturnType<typeof parseWindow>>(MAX_PARSED);
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
      // What was read before now is stale anyway: only later changes are looked at.
      this.windows = [];
    } else {
      for (const tag of tags) {
        const windowed = tag.includes('@') ? parseWindow(tag) : undefined;
        if (windowed) this.windows.push({ version: this.value, ...windowed });
        else this.changed.set(tag, this.value);
      }
      if (this.windows.length > MAX_WINDOWS) {
        const forgotten = this.windows.splice(0, MAX_WINDOWS / 2);
        this.windowsForgotten = forgotten[forgotten.length - 1].version;
      }
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
    // An entry's tags are looked up once per version: its next hits reuse the answer, and a
    // later version looks only at what changed since the last look.
    const known = this.checked.get(tags);
    let since = readAt;
    if (known && known.readAt === readAt) {
      if (known.at === this.value || !known.fresh) return known.fresh;
      since = known.at;
    }
    let fresh = true;
    for (const tag of tags) {
      if (
        tag.includes('@') ? this.windowChanged(tag, since) : (this.changed.get(tag) ?? 0) > since
      ) {
        fresh = false;
        break;
      }
    }
    this.checked.set(tags, { at: this.value, readAt, fresh });
    return fresh;
  }

  /** Whether a windowed change after version `since` overlaps the window of the read tag `tag`. */
  private windowChanged(tag: string, since: number): boolean {
    if (this.windowsForgotten > since) return true;
    const read = this.parsed.get(tag, () => parseWindow(tag));
    // A tag that names no window is a plain one.
    if (!read) return (this.changed.get(tag) ?? 0) > since;
    for (let i = this.windows.length - 1; i >= 0 && this.windows[i].version > since; i--) {
      const change = this.windows[i];
      if (change.name === read.name && overlaps(change.window, read.window)) return true;
    }
    return false;
  }

  /** Calls `listener` after every bump; returns the unsubscribe function. */
  onBump(listener: (origin: BumpOrigin, tags: Tags | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
