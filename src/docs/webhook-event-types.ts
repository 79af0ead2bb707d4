/** The record kinds a subscription can hear of, by the names the API gives them. */
const WEBHOOK_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
/** What happened to the record; `published` is an update (or create) that made a post public. */
const WEBHOOK_ACTIONS = ['created', 'updated', 'published', 'trashed', 'deleted'] as const;

/**
 * Every `<kind>.<action>` a subscription may name, and `*` for all of them: part of the documented
 * contract (the schemas' enums), which the dispatcher follows.
 */
export const EVENT_TYPES: readonly string[] = [
  '*',
  ...WEBHOOK_KINDS.flatMap((kind) => WEBHOOK_ACTIONS.map((action) => `${kind}.${action}`)),
];
