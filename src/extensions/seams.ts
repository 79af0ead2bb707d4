import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { EntityManager } from 'typeorm';
import type { ApiErrorData, Text } from '../common/errors/api-error.js';
import { PLUGIN_NAMESPACE } from '../common/http/links.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toWpValidationError } from '../common/http/validation.js';
import { isWebUrl } from '../common/http/web-url.js';
import type { Language } from '../config/config.js';
import { touch } from '../cache/dependencies.js';
import type { KeyedRows, KeyedTable } from '../database/plain-select.js';
import type { JournalEntry } from '../database/writes.js';
import type {
  CalendarLine,
  EventWriteContributor,
  PageDetail,
  ExtensionContext,
  LifecycleChange,
  ListConditionPort,
  ListParameterContributor,
  RecordKindName,
} from './contracts.js';
import type { ExtensionRegistry } from './registry.js';

/*
 * Where the core calls the registered modules: these functions are the core's side of the
 * surface (src/extensions/index.ts is the modules' side). The core passes plain data; the
 * modules never see the core's classes.
 */

function extensionContext(ctx: RequestContext): ExtensionContext {
  return {
    language: ctx.language,
    namespace: ctx.restBase.endsWith(`/${PLUGIN_NAMESPACE}`) ? 'plugin' : 'ours',
    actor: ctx.actor,
  };
}

/** How the reader sees one record: locked (protected, no password) and whether it may edit it. */
export interface ReaderOf {
  locked(id: number): boolean;
  /** The reader may edit it and asked `context=edit`. */
  editing(id: number): boolean;
}

/**
 * The modules' fields of a page of records, read in one call of each contributor for the whole
 * page, ready to join their payloads: a locked record shows each field's protected value, as
 * does a field for editors to any other reader.
 */
export interface PageContributions {
  /** The fields of record `id`'s payload, in payload order (a new object each call). */
  fieldsOf(id: number): Record<string, unknown>;
  /** Lets the contributors adjust the `json_ld` of the unlocked record `id` from its values. */
  adjustJsonLd(id: number, ld: Record<string, unknown>): void;
}

/**
 * The rows of the stored contributors' tables (PayloadContributor.stored) read with the records'
 * own rows (ExtensionRegistry.storedTables), by table: those not here are read apart.
 */
export type StoredRead = ReadonlyMap<KeyedTable, KeyedRows>;

/**
 * The contributions of the records `ids` (undefined when no module contributes to `kind`): the
 * presenters call it beside their other reads and put the fields into the payloads as they
 * build them (event.mapper), so that a payload is built once with its final keys.
 */
export async function contributionsOf(
  registry: ExtensionRegistry,
  kind: RecordKindName,
  ids: readonly number[],
  reader: ReaderOf,
  ctx: RequestContext,
  stored?: StoredRead,
): Promise<PageContributions | undefined> {
  const contributors = registry.payload(kind);
  if (!contributors.length || !ids.length) return undefined;
  const context = extensionContext(ctx);
  const records = ids.map((id) => ({ id }));
  const contributed = await Promise.all(
    contributors.map(async (c): Promise<Map<number, object>> => {
      if (!c.stored) return c.contribute!(records, context);
      const rows = stored?.get(c.stored) ?? (await registry.readStored(c.stored, ids));
      return new Map(ids.map((id) => [id, c.stored!.values(rows.get(id))]));
    }),
  );
  // Each contributor's fields of this namespace: worked out once, at the first page.
  const fieldsOf = registry.payloadFields(kind, context.namespace);
  const valuesOf = (i: number, id: number) =>
    (contributed[i].get(id) ?? contributors[i].defaults) as Record<string, unknown>;
  return {
    fieldsOf(id) {
      const locked = reader.locked(id);
      const added: Record<string, unknown> = {};
      for (let i = 0; i < contributors.length; i++) {
        const values = valuesOf(i, id);
        for (const { name, protectedValue, editors } of fieldsOf[i]) {
          const hidden = locked || (editors && !reader.editing(id));
          added[name] = hidden ? protectedValue : values[name];
        }
      }
      return added;
    },
    adjustJsonLd(id, ld) {
      if (reader.locked(id)) return;
      contributors.forEach((contributor, i) => contributor.jsonLd?.(ld, valuesOf(i, id)));
    },
  };
}

/**
 * The contributed fields of a page of built payloads (`payloads` by id, each replaced by its
 * payload with the fields): for the presenters whose mappers do not take them (venues,
 * organizers).
 */
export async function contributePayloads<P extends object>(
  registry: ExtensionRegistry,
  kind: RecordKindName,
  payloads: Map<number, P>,
  reader: ReaderOf,
  ctx: RequestContext,
): Promise<void> {
  const contributions = await contributionsOf(registry, kind, [...payloads.keys()], reader, ctx);
  if (!contributions) return;
  for (const [id, payload] of payloads) {
    const ld = (payload as Record<string, unknown>).json_ld as Record<string, unknown> | undefined;
    if (ld) contributions.adjustJsonLd(id, ld);
    payloads.set(id, withFields(payload, contributions.fieldsOf(id)));
  }
}

/**
 * A new object (never `delete`, which would leave the payload a slow dictionary-mode object for
 * every request that serves it): the payload's keys, the added ones, then the service's own
 * (CONTRACT §5, §9: the modules' fields, which add-ons of the plugin contribute, come with the
 * plugin's, before them). Built by spreads and named stores: a copy key by key (`out[key] =`)
 * also turns a payload of more than 16 keys into a dictionary, which V8 then serializes slowly.
 */
function withFields<P extends object>(payload: P, added: Record<string, unknown>): P {
  const {
    language,
    translations,
    recurrence,
    occurrences_remaining: remaining,
    ...rest
  } = payload as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest, ...added };
  if ('language' in payload) out.language = language;
  if ('translations' in payload) out.translations = translations;
  if ('recurrence' in payload) out.recurrence = recurrence;
  if ('occurrences_remaining' in payload) out.occurrences_remaining = remaining;
  return out as P;
}

/** The list parameters the modules read, parsed: what is in force, and every problem. */
export interface ListExtensions {
  /** Keyed by their JSON (the list's count and page caches key on the filters' JSON). */
  applied: Array<{
    contributor: ListParameterContributor;
    value: unknown;
    toJSON(): unknown;
  }>;
  errors: Record<string, Text>;
  echo: Record<string, string | number | undefined>;
}

/** `query`: the list's parameters (the raw query string's, with the declared ones as read). */
export function parseListParameters(
  registry: ExtensionRegistry,
  query: Readonly<Record<string, unknown>>,
  ctx: RequestContext,
): ListExtensions {
  const out: ListExtensions = { applied: [], errors: {}, echo: {} };
  const context = {
    ...extensionContext(ctx),
    settings: { geofenceRadiusKm: ctx.config.geofence.radiusKm },
  };
  for (const contributor of registry.listParameters) {
    const parsed = contributor.parse(query, context);
    if (parsed.errors && Object.keys(parsed.errors).length)
      Object.assign(out.errors, parsed.errors);
    else if (parsed.value !== undefined) {
      const value = parsed.value;
      out.applied.push({ contributor, value, toJSON: () => [contributor.parameters[0], value] });
      Object.assign(out.echo, contributor.echo(parsed.value));
    }
  }
  return out;
}

/** The cache tags the list's modules' filters add. */
export const listParameterTags = (applied: ListExtensions['applied'] = []) =>
  applied.flatMap(({ contributor, value }) => contributor.cacheTags?.(value) ?? []);

/**
 * The conditions of the list's module filters on a query builder's listed event: `eventId` is
 * its id column, `venueId()` gives its venue's (joining what it needs). Parameter names are made
 * private to each contributor (`:x` of the 2nd becomes `:ext1_x`).
 */
export function applyListConditions(
  applied: ListExtensions['applied'] = [],
  andWhere: (condition: string, parameters: Record<string, unknown>) => void,
  eventId: string,
  venueId: () => string,
): void {
  applied.forEach(({ contributor, value }, index) => {
    const port: ListConditionPort = {
      where(condition, parameters = {}) {
        const prefix = `ext${index}_`;
        const text = condition
          .replace(/(:(?:\.\.\.)?)([A-Za-z_]\w*)/g, (_, colon: string, name: string) => {
            if (!(name in parameters)) throw new Error(`list condition names no parameter ${name}`);
            return `${colon}${prefix}${name}`;
          })
          .replaceAll('{event}', eventId)
          .replace(/\{venue\}/g, () => venueId());
        const bound: Record<string, unknown> = {};
        for (const [name, v] of Object.entries(parameters)) {
          bound[`${prefix}${name}`] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
        }
        andWhere(text, bound);
      },
    };
    contributor.where(value, port);
  });
}

/** A write's module fields, validated: what each contributor saves. */
export type WriteFragments = Array<{
  contributor: EventWriteContributor<object>;
  values: Record<string, unknown>;
}>;

/**
 * Validates each write contributor's fragment of the request's body (fields it does not name
 * are left alone); the problems go to `errors` (and `details`), joining the write's one 400.
 */
export async function validateWriteFragments(
  registry: ExtensionRegistry,
  body: unknown,
  errors: Record<string, Text>,
  details: NonNullable<ApiErrorData['details']>,
): Promise<WriteFragments> {
  const out: WriteFragments = [];
  if (!body || typeof body !== 'object') return out;
  for (const contributor of registry.writes) {
    const names = Object.keys(contributor.fields);
    const given = Object.fromEntries(
      names.filter((n) => n in body).map((n) => [n, (body as Record<string, unknown>)[n]]),
    );
    if (!Object.keys(given).length) continue;
    const instance = plainToInstance(contributor.fragment, given);
    const problems = await validate(instance, { skipMissingProperties: true });
    if (problems.length) {
      const data = toWpValidationError(problems).data;
      Object.assign(errors, data.params);
      Object.assign(details, data.details);
    }
    // The contributor's own checks see the fields that passed the fragment's.
    const failed = new Set(problems.map((p) => p.property));
    const values = Object.fromEntries(
      names
        .filter((n) => n in given && !failed.has(n))
        .map((n) => [n, (instance as Record<string, unknown>)[n]]),
    );
    const more = contributor.check?.(values) ?? {};
    Object.assign(errors, more);
    if (!problems.length && !Object.keys(more).length) out.push({ contributor, values });
  }
  return out;
}

/** Saves a write's module fields in its transaction, after the event's row. */
export async function saveWriteFragments(
  fragments: WriteFragments | undefined,
  manager: EntityManager,
  eventId: number,
  created: boolean,
): Promise<void> {
  for (const { contributor, values } of fragments ?? []) {
    await contributor.save(manager, eventId, values, created);
    touch(...(contributor.touches ?? []));
  }
}

/** The committed changes as the lifecycle listeners hear them. */
export function lifecycleOf(entries: readonly JournalEntry[]): LifecycleChange[] {
  return entries.map((entry) => ({
    kind: entry.kind,
    id: entry.id,
    action:
      entry.action === 'updated' &&
      entry.status === 'publish' &&
      entry.previousStatus !== null &&
      entry.previousStatus !== 'publish'
        ? 'went_live'
        : entry.action,
  }));
}

const CALENDAR_NAME = /^[A-Z][A-Z0-9-]*(?:;[A-Z0-9-]+=[A-Za-z0-9-]+)*$/;

/** The modules' lines of an event's VEVENT (PayloadContributor.calendarLines), from its payload. */
export function calendarLinesOf(registry: ExtensionRegistry, payload: object): CalendarLine[] {
  return registry.payload('event').flatMap((contributor) => {
    if (!contributor.calendarLines) return [];
    const lines = contributor.calendarLines(payload);
    for (const line of lines) {
      if (!CALENDAR_NAME.test(line.name)) throw new Error(`bad calendar property ${line.name}`);
    }
    return lines;
  });
}

/**
 * The modules' schema.org properties on JSON-LD built from an event's payload (the public
 * pages): from the values the payload shows its reader (a protected event's change nothing).
 */
export function adjustJsonLd<T extends Record<string, unknown>>(
  registry: ExtensionRegistry,
  ld: T,
  payload: object,
): T {
  for (const contributor of registry.payload('event')) contributor.jsonLd?.(ld, payload);
  return ld;
}

/**
 * The modules' lines of an event page's details (PayloadContributor.pageDetails), from the
 * payload as the page's reader sees it; texts from the modules' catalogues in `language`. A link
 * that is not http(s) is shown as text.
 */
export function pageDetailsOf(
  registry: ExtensionRegistry,
  payload: object,
  language: Language,
): PageDetail[] {
  const text = (key: string) => registry.text(language, key) ?? key;
  return registry.payload('event').flatMap((contributor) =>
    (contributor.pageDetails?.(payload, text) ?? []).map((detail) => ({
      label: detail.label,
      value: detail.value,
      href: detail.href && isWebUrl(detail.href) ? detail.href : undefined,
    })),
  );
}

/**
 * The modules' write fields a source record carries (an import from another site): each field a
 * write contributor accepts, when the record gives it a value (null, a protected record's
 * blank, is no value).
 */
export function writeFieldsOf(
  registry: ExtensionRegistry,
  record: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const contributor of registry.writes) {
    for (const name of Object.keys(contributor.fields)) {
      if (record[name] !== undefined && record[name] !== null) out[name] = record[name];
    }
  }
  return out;
}
