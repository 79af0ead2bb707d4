import type { Actor } from '../common/actor.js';
import { ApiError, forbidden } from '../common/errors/api-error.js';
import type { PostKind, RecordKind } from '../common/records/record-kinds.js';
import type { PostStatus } from '../auth/post-policy.js';
import type { WriteScope } from '../database/writes.js';
import { effectiveStatus } from './post-status.js';
import type { TranslationStore } from './translation-store.js';
import type { Translatable, TranslationScope } from './translations.js';

/**
 * A record leaving the site (CONTRACT §3), one flow for events, venues and organizers (a DELETE
 * moves them to the trash) and categories and tags (a DELETE removes them for good):
 *
 * 1. refuseTrash, for posts, before the write: 403 unless the caller may trash the post, then
 *    410 when it is in the trash already;
 * 2. leaveSite, inside the write: the change is announced, the record leaves its translation
 *    group (its translations stay linked to each other, CONTRACT §5; the group is locked first,
 *    so two members leaving at once wait, not deadlock), then its row is trashed or deleted.
 */
export function refuseTrash(
  mayTrash: boolean,
  actor: Actor,
  post: { status: PostStatus },
  kind: PostKind,
): void {
  if (!mayTrash) throw forbidden(!!actor.user);
  if (post.status === 'trash') throw new ApiError(`${kind}-is-in-trash`, 410);
}

/** How a record leaves: see leaveSite. */
export interface Leaving {
  kind: RecordKind;
  /** Its translation group's records. */
  scope: TranslationScope;
  /** `trashed` (posts) or `deleted` (terms). */
  action: 'trashed' | 'deleted';
  /** Posts: the time the status readers saw is taken at (a passed `future` was published). */
  nowUtc?: string;
  /** Trashes or deletes the record's row, in the write's transaction. */
  remove: () => Promise<void>;
}

/** Step 2 of the flow, in the caller's write (`scope`). */
export async function leaveSite(
  scope: WriteScope,
  translations: TranslationStore,
  record: Translatable & { status?: PostStatus; dateUtc?: string | null },
  leaving: Leaving,
): Promise<void> {
  const { kind, action, nowUtc } = leaving;
  const { status, dateUtc } = record;
  // As readers saw it; and its language, for a record that is gone once the write commits.
  const previousStatus =
    nowUtc !== undefined && status !== undefined
      ? effectiveStatus({ status, dateUtc: dateUtc ?? null }, nowUtc)
      : undefined;
  scope.changed(kind, record.id, action, undefined, {
    ...(previousStatus !== undefined && { previousStatus }),
    language: record.language,
  });
  await translations.leave(scope.manager, leaving.scope, record);
  await leaving.remove();
}
