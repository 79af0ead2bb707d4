import type { Actor } from '../common/actor.js';
import { canRead } from '../auth/post-policy.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { PostColumns } from '../posts/post-columns.js';
import type { PostStatus } from '../auth/post-policy.js';
import { effectiveStatus } from '../posts/post-status.js';
import type { TranslationViewer } from '../posts/translations.js';
import { nowUtcSql } from '../database/columns.js';

/** WordPress gives drafts and pending posts no slug (and no UTC date) until they are published. */
export const UNPUBLISHED_SLUGLESS: PostStatus[] = ['draft', 'pending'];

/**
 * Who may read a venue or organizer may link it to an event and see it embedded in one
 * (CONTRACT §6 "Linked records"), as it may read it by id (BEHAVIOR §6.2, CONTRACT §2).
 */
export const readableBy = (actor: Actor, record: PostColumns, nowUtc: string) =>
  canRead(actor, { authorId: record.authorId, status: effectiveStatus(record, nowUtc) });

export const viewerOf = (ctx: RequestContext): TranslationViewer => ({
  actor: ctx.actor,
  nowUtc: nowUtcSql(),
});
