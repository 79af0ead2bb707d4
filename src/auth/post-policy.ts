import type { Actor } from '../common/actor.js';
import type { Role } from '../common/roles.js';

/** WordPress's post statuses that records here take (CONTRACT §3). */
export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * The capability table of CONTRACT §2, as WordPress maps roles to post and term capabilities.
 * Pure functions; services turn a "no" into 401 (anonymous) or 403 (authenticated).
 */

export interface OwnedRecord {
  authorId: number;
  status: PostStatus;
}

const EDITORS: Role[] = ['administrator', 'editor'];
const WRITERS: Role[] = ['administrator', 'editor', 'author', 'contributor'];
const PUBLISHERS: Role[] = ['administrator', 'editor', 'author'];

const hasRole = (actor: Actor, roles: Role[]) => !!actor.user && roles.includes(actor.user.role);
const owns = (actor: Actor, record: OwnedRecord) =>
  !!actor.user && actor.user.id === record.authorId;

/** Editors and administrators see and edit everything. */
export const isEditor = (actor: Actor) => hasRole(actor, EDITORS);

/** May create events, venues and organizers (contributor and above). */
export const canCreatePosts = (actor: Actor) => hasRole(actor, WRITERS);

/** May publish (and so choose any status); contributors' records go to draft/pending. */
export const canPublish = (actor: Actor) => hasRole(actor, PUBLISHERS);

/** May set an image by URL (WordPress `upload_files`). */
export const canUpload = (actor: Actor) => hasRole(actor, PUBLISHERS);

/** Category and tag management (CONTRACT §2: editors and administrators only). */
export const canManageTerms = (actor: Actor) => isEditor(actor);

/** Anyone may read published records; others per CONTRACT §2. */
export function canRead(actor: Actor, record: OwnedRecord): boolean {
  if (record.status === 'publish') return true;
  if (isEditor(actor)) return true;
  return hasRole(actor, WRITERS) && owns(actor, record);
}

/** Sees unpublished records of others in lists (editors), or only own ones (null = none). */
export function unpublishedScope(actor: Actor): 'all' | 'own' | 'none' {
  if (isEditor(actor)) return 'all';
  return hasRole(actor, WRITERS) ? 'own' : 'none';
}

/**
 * What contributors may still edit of their own (BEHAVIOR §8.2: draft, pending, own private).
 * Trash too: WordPress checks a trashed post against its pre-trash status, and a contributor's
 * record reaches the trash from these (so the contributor may still update it, and a second
 * DELETE is the 410 of CONTRACT §3, not a 403).
 */
const UNPUBLISHED: PostStatus[] = ['draft', 'pending', 'private', 'trash'];

/**
 * Name `authorId` as the author of a record on create or update. CONTRACT §2, as WordPress's
 * `edit_others_posts`: editors and administrators may name anyone, everyone else only themselves
 * (WP_REST_Posts_Controller refuses another `author` before anything else of the request).
 */
export function mayAttributeTo(actor: Actor, authorId: number): boolean {
  return isEditor(actor) || (!!actor.user && actor.user.id === authorId);
}

/** Update or delete that record. */
export function canEdit(actor: Actor, record: OwnedRecord): boolean {
  if (isEditor(actor)) return true;
  if (!owns(actor, record)) return false;
  if (hasRole(actor, ['author'])) return true;
  return hasRole(actor, ['contributor']) && UNPUBLISHED.includes(record.status);
}

/**
 * WordPress `unfiltered_html`: editors and administrators store HTML as sent; everyone else's
 * titles, descriptions and excerpts go through the allowlist filter (CONTRACT §6).
 */
export const canPostUnfilteredHtml = (actor: Actor) => isEditor(actor);
