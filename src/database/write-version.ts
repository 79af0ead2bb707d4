/**
 * A counter bumped after every committed write of this process (writeTransaction). Read caches
 * (e.g. list totals) key on it, so that any write invalidates them at once: reads always
 * reflect the writes before them (BEHAVIOR §1.8).
 */
let version = 0;

export const writeVersion = () => version;
export const bumpWriteVersion = () => {
  version++;
};
