/**
 * A counter bumped after every committed write of this process (writeTransaction), when a
 * scheduled record goes live (ScheduledPublications), and when another process sharing the
 * database has committed a write (SharedGeneration). Read caches (responses, list totals, term
 * counts) key on it, so that any write invalidates them at once: reads always reflect the writes
 * before them (BEHAVIOR §1.8), across processes within SharedGeneration's bound.
 */
let version = 0;

/**
 * Why the version moved: `write` (a write committed here, which other processes must hear of),
 * `local` (something only this process must react to: a clock-driven publication, the database
 * coming back) or `remote` (another process committed a write).
 */
export type BumpOrigin = 'write' | 'local' | 'remote';
const listeners = new Set<(origin: BumpOrigin) => void>();

export const writeVersion = () => version;
export const bumpWriteVersion = (origin: BumpOrigin = 'write') => {
  version++;
  for (const listener of listeners) listener(origin);
};

/** Calls `listener` after every bump; returns the unsubscribe function. */
export function onWriteVersionBump(listener: (origin: BumpOrigin) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
