/**
 * The records the API serves and the changes a write makes to them: the one home of their names
 * (the API's own, e.g. `category` for `tribe_events_cat`). Writes, translations, public URLs,
 * the importer's map, the webhooks' event types and the documents all derive theirs from here.
 */

/** The posts: records with a status and a publication date. */
export const POST_KINDS = ['event', 'venue', 'organizer'] as const;
export type PostKind = (typeof POST_KINDS)[number];

/** The posts an event links to (its venues and organizers). */
const LINKED_KINDS = ['venue', 'organizer'] as const satisfies readonly PostKind[];
export type LinkedKind = (typeof LINKED_KINDS)[number];

/** The terms, by the API's names of their taxonomies. */
const TERM_KINDS = ['category', 'tag'] as const;
export type TermKind = (typeof TERM_KINDS)[number];

/** Every record kind a write can change, posts first. */
export const RECORD_KINDS = [...POST_KINDS, ...TERM_KINDS] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** What a committed write did to a record. */
const CHANGE_ACTIONS = ['created', 'updated', 'trashed', 'deleted'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/**
 * What is announced of a change (the webhooks' event types): its action, or `published` for a
 * post that became public, by a write into `publish` or by its scheduled date going by (it went
 * live, which no write records).
 */
export const ANNOUNCED_ACTIONS = [
  'created',
  'updated',
  'published',
  'trashed',
  'deleted',
] as const satisfies readonly (ChangeAction | 'published')[];
export type AnnouncedAction = (typeof ANNOUNCED_ACTIONS)[number];

/** The action announced of a change (a change action missing above fails the type check here). */
export const announcedAction = (action: ChangeAction, published: boolean): AnnouncedAction =>
  published ? 'published' : action;

/** A webhook event type: `<kind>.<announced action>`. */
export type EventType = `${RecordKind}.${AnnouncedAction}`;

const POSTS: ReadonlySet<string> = new Set(POST_KINDS);
const TERMS: ReadonlySet<string> = new Set(TERM_KINDS);
const LINKED: ReadonlySet<string> = new Set(LINKED_KINDS);

export const isPostKind = (kind: string): kind is PostKind => POSTS.has(kind);
export const isTermKind = (kind: string): kind is TermKind => TERMS.has(kind);
export const isLinkedKind = (kind: string): kind is LinkedKind => LINKED.has(kind);
