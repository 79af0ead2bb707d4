import type { Actor } from '../common/actor.js';
import { canPublish, POST_STATUSES, type PostStatus } from '../auth/post-policy.js';

/** Statuses a client may request on a write (CONTRACT §3: `trash` only comes from DELETE). */
export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export type WritableStatus = (typeof WRITABLE_STATUSES)[number];

/** What `status=any` means in lists: everything but trash. */
export const ANY_STATUSES: PostStatus[] = ['publish', 'future', 'draft', 'pending', 'private'];

export const isWritableStatus = (v: unknown): v is WritableStatus =>
  typeof v === 'string' && (WRITABLE_STATUSES as readonly string[]).includes(v);

/**
 * The status a write stores (BEHAVIOR §7.1.6 with CONTRACT §3): publishers get what they ask
 * (default publish); contributors get draft by default and pending for publish/future/private.
 * Then, as WordPress does, publish with a future publication date becomes future and future with
 * a past date becomes publish.
 */
export function resolveWriteStatus(
  actor: Actor,
  requested: WritableStatus | undefined,
  dateUtc: string | null,
  nowUtc: string,
): WritableStatus {
  let status: WritableStatus;
  if (canPublish(actor)) status = requested ?? 'publish';
  else if (!requested) status = 'draft';
  else status = requested === 'draft' || requested === 'pending' ? requested : 'pending';
  if (status === 'publish' && dateUtc && dateUtc > nowUtc) return 'future';
  if (status === 'future' && (!dateUtc || dateUtc <= nowUtc)) return 'publish';
  return status;
}

/** A scheduled record counts as published once its date has passed (CONTRACT §6). */
export function effectiveStatus(
  record: { status: PostStatus; dateUtc: string | null },
  nowUtc: string,
): PostStatus {
  return record.status === 'future' && record.dateUtc !== null && record.dateUtc <= nowUtc
    ? 'publish'
    : record.status;
}

/**
 * The status set a list request asks for (BEHAVIOR §5.2.5): callers who cannot edit may only
 * ask for `publish`; others may ask for a list of statuses (or `any`). Returns null when the
 * request is invalid (→ 400 rest_invalid_param on `status`).
 */
export function listStatuses(actor: Actor, requested: unknown): PostStatus[] | null {
  const mayEdit = !!actor.user && actor.user.role !== 'subscriber';
  if (requested === undefined) return mayEdit ? [...ANY_STATUSES] : ['publish'];
  // A query string gives a string or a list of strings; anything else names no status.
  const isList = Array.isArray(requested) && requested.every((s) => typeof s === 'string');
  if (typeof requested !== 'string' && !isList) return null;
  const items = (typeof requested === 'string' ? requested.split(',') : requested)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.length) return null;
  if (!mayEdit) return items.length === 1 && items[0] === 'publish' ? ['publish'] : null;
  const out = new Set<PostStatus>();
  for (const item of items) {
    if (item === 'any') ANY_STATUSES.forEach((s) => out.add(s));
    else if ((POST_STATUSES as readonly string[]).includes(item)) out.add(item as PostStatus);
    else return null;
  }
  return [...out];
}

/** Echo of the effective status set in `rest_url` (`publish`, `any`, or the list given). */
export function statusEcho(actor: Actor, requested: unknown, statuses: PostStatus[]): string {
  if (requested === undefined) return statuses.length === 1 ? 'publish' : 'any';
  return statuses.join(',');
}
