import type { Language } from '../config/config.js';
import type { PostColumns } from '../posts/post-columns.js';
import type { WritableStatus } from '../posts/post-status.js';
import type { LinkedKind } from './linked-kind.js';
import type { MapContext, MapOptions } from './linked-mapper.js';

/** The write fields venues and organizers share (BEHAVIOR §7.4.1, §7.5; CONTRACT §6). */
export interface LinkedWriteFields {
  author?: number;
  date?: string;
  date_utc?: string;
  description?: string;
  status?: WritableStatus;
  image?: string;
  password?: string;
  /** Create only: the record this one translates (CONTRACT §5). */
  translation_of?: number;
  /** Update only: the language to move the record to (CONTRACT §5). */
  language?: Language;
}

/** The list parameters venues and organizers share (BEHAVIOR §5.3). */
export interface LinkedListQuery {
  page?: number;
  per_page?: number;
  search?: string;
  event?: number;
  has_events?: boolean;
  only_with_upcoming?: boolean;
  status?: string | string[];
}

/** Create fields validated by the service of `kind` (opaque to callers; `LinkedEventLinks.applyPlan` reads them). */
interface ValidatedCreateInput {
  kind: LinkedKind['kind'];
  fields: LinkedWriteFields;
}

/**
 * One reference of an event's `venue`/`organizer` field, checked but not yet applied: an existing
 * record to link, or validated fields to create (or reuse, §7.4.2) a record from; `null` is
 * "no record" (skipped).
 */
type LinkedPlanItem = { id: number } | { create: ValidatedCreateInput } | null;
export type LinkedPlan = LinkedPlanItem[];

/**
 * What makes a linked-post kind (venue, organizer) different from the other: its names, its DTO,
 * its own fields and its mapper. The queries, writes and event links of both kinds are the same
 * classes, given one of these.
 */
export interface LinkedDefinition<
  E extends PostColumns,
  C extends LinkedWriteFields,
  U extends LinkedWriteFields,
  P extends object = object,
> {
  readonly kind: LinkedKind;
  /** The create DTO class, to validate inline records of events like `POST /{collection}`. */
  readonly createDto: new () => C;
  /** Venues: one per event; organizers: a list (BEHAVIOR §7.1.3). */
  readonly multiple: boolean;
  /** The TEC object of a record (pure mapper of the kind). */
  toTec(record: E, ctx: MapContext, options: MapOptions): P;
  /** A new, empty record of the kind. */
  newRecord(): E;
  /** The name field of a write (`venue` / `organizer`). */
  nameOf(input: C | U): string | undefined;
  /**
   * Copies the kind's own fields from a write. `create` fills defaults for omitted ones; `update`
   * touches only the fields given (CONTRACT §6).
   */
  applyDetails(record: E, input: C | U, mode: 'create' | 'update'): void;
}
