import type { EntityManager, MigrationInterface } from 'typeorm';
import type { Actor } from '../common/actor.js';
import type { Text } from '../common/errors/api-error.js';
import type { Language } from '../config/config.js';

/*
 * The extension surface's contracts (docs/extending.md): what a module implements to add fields
 * to the payloads, a filter to the events list, fields to the writes, a listener of the records'
 * lifecycle, descriptions to the OpenAPI documents, and tables with their migrations. Each maps
 * onto a hook of the WordPress plugin (tribe_rest_event_data, tribe_events_archive_get_args,
 * tribe_events_update_meta, ...). Everything a module needs comes from `src/extensions/index.ts`.
 */

/** `ours` is `cal/events/v1`, `plugin` is `/wp-json/tribe/events/v1` (CONTRACT §6). */
export type RestNamespaceName = 'ours' | 'plugin';

/** The records payload contributors extend. */
export type RecordKindName = 'event' | 'venue' | 'organizer';

/** An OpenAPI 3.0 schema; its `description` is a key of the module's catalogue. */
export type OpenApiSchema = Record<string, unknown>;

/** Who sees a contributed field's value (the others get its `protectedValue`). */
export type FieldVisibility = 'everyone' | 'editors';

/** One field a payload contributor adds, declared once (payload, protection, documents). */
export interface ContributedField<V = unknown> {
  /** What a password-protected record shows a reader without the password (and hidden readers). */
  protectedValue: V;
  /** `editors`: only a reader who may edit the record and asks `context=edit` sees the value. */
  visibility?: FieldVisibility;
  /** The namespaces whose payload carries it (default: both). */
  namespaces?: readonly RestNamespaceName[];
  /** Its OpenAPI schema (with `description`: a key of the module's catalogue). */
  schema: OpenApiSchema;
}

/** What a contributor knows of the request it answers. */
export interface ExtensionContext {
  language: Language;
  namespace: RestNamespaceName;
  actor: Actor;
}

/** A record of the page being presented. */
export interface ContributedRecord {
  id: number;
}

/**
 * Where a payload contributor's values are kept when that is a table of the module's with one row
 * per record at most (`key`: the column of the record's id): the core reads `columns` itself,
 * with the records' own rows when it reads them (a list page: one statement, no query of the
 * module's) and else in one query per page. Names are plain SQL identifiers (letters, digits,
 * `_`), checked when the module registers.
 */
export interface StoredValues<F extends object> {
  readonly table: string;
  readonly key: string;
  readonly columns: readonly string[];
  /** A record's values from its row (`undefined`: it has none). */
  values(row: Readonly<Record<string, unknown>> | undefined): F;
}

/**
 * Adds fields to every payload of one record kind, for a whole page at once: either from a table
 * of the module's that the core reads (`stored`: the cheaper form, no query of its own on a list
 * page), or by `contribute`, called once per page with every record that is built (it must run a
 * fixed number of queries, never one per record); records it leaves out of the map get
 * `defaults`. One of the two, not both. Its values are kept with the payloads in the record
 * cache: a change to what it reads must come with a write that names the record (a write
 * contributor's does).
 */
export interface PayloadContributor<F extends object = Record<string, unknown>> {
  readonly kind: RecordKindName;
  /** Every field it adds, in payload order. */
  readonly fields: { readonly [K in keyof F]: ContributedField<F[K]> };
  /** What a record it has nothing stored for shows. */
  readonly defaults: F;
  readonly stored?: StoredValues<F>;
  contribute?(
    records: readonly ContributedRecord[],
    ctx: ExtensionContext,
  ): Promise<Map<number, F>>;
  /**
   * Single reads of an unlocked record carry `json_ld`: the contributor may adjust it (schema.org
   * properties) from its values.
   */
  jsonLd?(ld: Record<string, unknown>, values: F): void;
  /**
   * Lines of the record's VEVENT in the iCalendar feeds (events only), from the values its
   * payload shows the feed's reader (a protected record's are its protected values).
   */
  calendarLines?(values: F): CalendarLine[];
  /**
   * Lines of the record's public page (events only: the event page's details), from the values
   * its payload shows the page's reader (a protected record read without its password shows its
   * protected values, so a field hidden from the reader never reaches the page). `text` gives a
   * key of the module's catalogue (`<module>.<key>`) in the reader's language.
   */
  pageDetails?(values: F, text: (key: string) => string): PageDetail[];
}

/** A line of a public page's details: a label and a value, a link when `href` is http(s). */
export interface PageDetail {
  label: string;
  value: string;
  href?: string;
}

/** An iCalendar property (`CONFERENCE;VALUE=URI;FEATURE=VIDEO`) and its value. */
export interface CalendarLine {
  /** The property name with its parameters: letters, digits, `-`, `;NAME=VALUE`. */
  name: string;
  value: string;
  /** A URI: written as is (else escaped as iCalendar text). */
  uri?: boolean;
}

/** The fields of events (tribe_rest_event_data). */
export type EventPayloadContributor<F extends object = Record<string, unknown>> =
  PayloadContributor<F> & { readonly kind: 'event' };
/** The fields of venues (tribe_rest_venue_data). */
export type VenuePayloadContributor<F extends object = Record<string, unknown>> =
  PayloadContributor<F> & { readonly kind: 'venue' };
/** The fields of organizers (tribe_rest_organizer_data). */
export type OrganizerPayloadContributor<F extends object = Record<string, unknown>> =
  PayloadContributor<F> & { readonly kind: 'organizer' };

/**
 * The narrow port a list-parameter contributor turns its value into SQL through: a condition on
 * the listed event, with `{event}` and `{venue}` standing for its id and its venue's id, and
 * named parameters (`:name`) only, bound by the driver; names are made private to the
 * contributor. No value is ever spliced into the text.
 */
export interface ListConditionPort {
  where(condition: string, parameters?: Record<string, string | number | boolean | null>): void;
}

/** What a list parameter's parsing found: a value in force, or the reasons it is invalid. */
export interface ParsedListParameter<V> {
  value?: V;
  errors?: Record<string, Text>;
}

/**
 * A parameter of `GET /events` (tribe_events_archive_get_args): read from the query string,
 * validated (its problems join the list's one 400), echoed in `rest_url` and the paging links,
 * turned into SQL through the port. The response cache keys on the whole query string, so the
 * parameter is part of every cache key; `cacheTags` names what else the list then depends on.
 */
export interface ListParameterContributor<V = unknown> {
  /** The query parameters it reads, in documentation order. */
  readonly parameters: readonly string[];
  /** Their OpenAPI schemas (with `description`: a key of the module's catalogue). */
  readonly documentation: Readonly<Record<string, OpenApiSchema>>;
  parse(
    query: Readonly<Record<string, unknown>>,
    ctx: ListParameterContext,
  ): ParsedListParameter<V>;
  /** The parameters in force, as `rest_url` and the paging links carry them. */
  echo(value: V): Record<string, string | number | undefined>;
  where(value: V, port: ListConditionPort): void;
  /** Cache tags (docs/caches.md) the filtered list depends on besides its events. */
  cacheTags?(value: V): string[];
}

export interface ListParameterContext extends ExtensionContext {
  /** The site's settings a filter may read (the geofence radius). */
  settings: { geofenceRadiusKm: number };
}

/** A class with class-validator decorators: the fields a write contributor accepts. */
export type FragmentClass<D extends object> = new () => D;

/**
 * Fields of event writes (tribe_events_update_meta): a class-validator fragment validated with
 * the rest of the request (its problems join the write's one 400, their messages keys of the
 * project's catalogues), then `save` in the write's transaction, after the event's row.
 */
export interface EventWriteContributor<D extends object = Record<string, unknown>> {
  readonly fragment: FragmentClass<D>;
  /** The body fields it owns (the fragment's properties), in documentation order. */
  readonly fields: Readonly<Record<keyof D & string, OpenApiSchema>>;
  /** Extra checks across the fields (after the fragment's own); reasons by field name. */
  check?(values: Partial<D>): Record<string, Text>;
  /** Cache tags its `save` changes (what its list parameters' `cacheTags` name). */
  readonly touches?: readonly string[];
  save(
    manager: EntityManager,
    eventId: number,
    values: Partial<D>,
    created: boolean,
  ): Promise<void>;
}

/** A lifecycle step of a record, as webhooks hear it. */
export type LifecycleAction = 'created' | 'updated' | 'trashed' | 'deleted' | 'went_live';

export interface LifecycleChange {
  kind: RecordKindName | 'category' | 'tag';
  id: number;
  action: LifecycleAction;
}

/**
 * Hears every committed write's changes, after the commit, outside the transaction (a failing
 * listener never fails the write). `went_live`: a post updated into `publish` from another
 * status (created published is `created`), or a scheduled post whose date the clock reached
 * (nothing is written then: every running process's clock tells its own listeners, once per
 * post, from the process's start on).
 */
export interface LifecycleListener {
  onChanges(changes: readonly LifecycleChange[]): void | Promise<void>;
}

/** A module's own texts: `{ en: { key: text }, hu: ..., ro: ... }` (keys without prefix). */
export type ModuleCatalogue = Readonly<Record<Language, Readonly<Record<string, string>>>>;

/** A migration class of the module's own tables (both engines). */
export type ModuleMigration = new () => MigrationInterface;
