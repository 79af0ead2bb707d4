/**
 * A counter bumped after every committed write of this process (writeTransaction) and when a
 * scheduled record goes live (ScheduledPublications). Read caches (responses, list totals, term
 * counts) key on it, so that any write invalidates them at once: reads always reflect the writes
 * before them (BEHAVIOR §1.8).
 */
let version = 0;
const listeners = new Set<() => void>();

export const writeVersion = () => version;
export const bumpWriteVersion = () => {
  version++;
  for (const listener of listeners) listener();
};

/** Calls `listener` after every bump; returns the unsubscribe function. */
export function onWriteVersionBump(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
