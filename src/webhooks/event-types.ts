import {
  announcedAction,
  isPostKind,
  type ChangeAction,
  type EventType,
  type RecordKind,
} from '../common/records/record-kinds.js';
import { EVENT_TYPES, type SubscribedType } from '../docs/webhook-event-types.js';

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

export const isEventType = (value: unknown): value is SubscribedType =>
  typeof value === 'string' && KNOWN.has(value);

/** Whether a subscription to `events` (as stored: validated when written) hears of `type`. */
export const wants = (events: readonly string[], type: EventType) =>
  events.includes('*') || events.includes(type);

/** One change as the outbox keeps it (see Writes.journal). */
export interface OutboxChange {
  kind: RecordKind;
  action: ChangeAction;
  /** The post's status after the write (`trash` once trashed); null for terms and deletes. */
  status: string | null;
  /** The post's status before the write, when the write said it. */
  previousStatus: string | null;
}

/**
 * The event type of a change: its action, except that a post updated into `publish` from another
 * status is `published` (a create is `created`, whatever its status).
 */
export function eventTypeOf(change: OutboxChange): EventType {
  const published =
    change.action === 'updated' &&
    change.status === 'publish' &&
    change.previousStatus !== null &&
    change.previousStatus !== 'publish';
  return `${change.kind}.${announcedAction(change.action, published)}`;
}

/**
 * Whether a subscription without `include_private` hears of a change: categories and tags are
 * public; a post only when it is public after the write, or was before it (so that an
 * unpublished or trashed post is announced to whoever was told of it). A draft's changes and a
 * purge of trashed posts are for subscriptions that opt in to private records.
 */
export function isPublicChange(change: OutboxChange): boolean {
  if (!isPostKind(change.kind)) return true;
  return change.status === 'publish' || change.previousStatus === 'publish';
}
