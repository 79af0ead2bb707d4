import { Injectable } from '@nestjs/common';

/**
 * Why the version moved: `write` (a write committed here, which other processes must hear of),
 * `local` (something only this process must react to: a clock-driven publication, the database
 * coming back) or `remote` (another process committed a write).
 */
export type BumpOrigin = 'write' | 'local' | 'remote';

/**
 * This process's write version: a counter moved after every committed write (Writes), when a
 * scheduled record goes live (ScheduledPublications), when the database comes back
 * (DatabaseMonitor) and when another process sharing the database has committed a write
 * (SharedGeneration). Every read cache (responses, payloads, list totals, page starts, resolved
 * term filters) remembers the version it was filled under and drops what was filled under an
 * older one, so reads always reflect the writes before them (BEHAVIOR §1.8), across processes
 * within SharedGeneration's bound.
 */
@Injectable()
export class WriteVersion {
  private value = 0;
  private readonly listeners = new Set<(origin: BumpOrigin) => void>();

  current(): number {
    return this.value;
  }

  bump(origin: BumpOrigin = 'write'): void {
    this.value++;
    for (const listener of this.listeners) listener(origin);
  }

  /** Calls `listener` after every bump; returns the unsubscribe function. */
  onBump(listener: (origin: BumpOrigin) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
