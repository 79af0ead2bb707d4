import { ANNOUNCED_ACTIONS, RECORD_KINDS, type EventType } from '../common/records/record-kinds.js';

/** What a subscription names: an event type, or `*` for all of them. */
export type SubscribedType = EventType | '*';

/**
 * Every `<kind>.<action>` a subscription may name, and `*` for all of them: part of the documented
 * contract (the schemas' enums), which the dispatcher follows. Derived from the record kinds and
 * the announced actions (common/records).
 */
export const EVENT_TYPES: readonly SubscribedType[] = [
  '*',
  ...RECORD_KINDS.flatMap((kind) =>
    ANNOUNCED_ACTIONS.map((action): EventType => `${kind}.${action}`),
  ),
];
