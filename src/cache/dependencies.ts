import { AsyncLocalStorage } from 'node:async_hooks';
import { isLinkedKind, isTermKind } from '../common/records/record-kinds.js';

/**
 * What a change may have altered (docs/caches.md, "Tags"): a record (`event:12`, `term:7`), the
 * lists of a kind (`events`), ... A bump without tags may have altered anything.
 */
export type Tags = readonly string[];

/**
 * The tags of docs/caches.md: what a read depends on, and what a write may have altered. A
 * cached value stays current while none of its tags has changed since it was read.
 *
 * - `event:<id>`, `venue:<id>`, `organizer:<id>`, `term:<id>` (categories and tags share ids):
 *   one record, its row and its links.
 * - `events`, `venues`, `organizers`, `terms`: the membership and order of the lists of a kind.
 * - `events@<window>`: the membership and order of the events lists whose date window overlaps
 *   `window` (windowTag); `events-text@<window>`: the same for searches (an event's text changed).
 * - `term-counts`: some term's count of published events (term lists show and sort by them).
 * - `term-shape`: what an embedded term shows beyond its own tag: its ancestors' slugs (a term's
 *   name, slug or parent changed), a count moved by an event's status (see writeTags).
 * - `group:<table>:<group>`: a record of `table` in translation group `<group>` changed (the
 *   others of its group show it among their translations when their reader may read it);
 *   `group:<table>`: a record in a group that the write cannot name changed (every group).
 */
export const ANYTHING = '*';

/** The record kinds of writes and caches, as tags name them. */
export function recordTag(kind: string, id: number): string {
  return `${isTermKind(kind) ? 'term' : kind}:${id}`;
}

/** The tag of the lists of a kind (`event` → `events`, `category` → `terms`). */
export function listTag(kind: string): string {
  if (isTermKind(kind)) return 'terms';
  return `${kind}s`;
}

/**
 * The tag of translation group `group` of a kind's records; without `group`, of a group a write
 * cannot name, which every reader of a group of the kind depends on too.
 */
export function groupTag(kind: string, group?: number): string {
  return group === undefined ? `group:${listTag(kind)}` : `group:${listTag(kind)}:${group}`;
}

/**
 * The tags a read collects while it runs (a request's answer, a record's payload being built):
 * what it looked at registers here (`dependsOn`), nested collections add theirs to the outer
 * one. `ANYTHING` in the set: the read depends on more than its tags can say.
 */
const collector = new AsyncLocalStorage<Set<string>>();

/** Says that the read running now depends on `tags` (nothing when no read collects). */
export function dependsOn(tags: Tags | undefined): void {
  const into = collector.getStore();
  if (!into) return;
  if (!tags) into.add(ANYTHING);
  else for (const tag of tags) into.add(tag);
}

/**
 * Runs `read` collecting what it depends on; resolves with its result and those tags (undefined:
 * anything). The tags also count for the read around this one, if any.
 */
export async function collecting<T>(read: () => Promise<T>): Promise<[T, Tags | undefined]> {
  const outer = collector.getStore();
  const tags = new Set<string>();
  const result = await collector.run(tags, read);
  if (outer) for (const tag of tags) outer.add(tag);
  return [result, tags.has(ANYTHING) ? undefined : [...tags]];
}

/**
 * Runs `work` (the start of a read) with a fresh collection, handing the set to `use` for the
 * code that runs later in the same asynchronous context (an Observable's subscription).
 */
export function collectInto<T>(tags: Set<string>, work: () => T): T {
  return collector.run(tags, work);
}

/**
 * The tags a write's own work touches beyond the records it names (Writes.run collects them):
 * term counts kept in step with an event's links, translation groups rearranged.
 */
const touches = new AsyncLocalStorage<Set<string>>();

/** Says that the write running now may alter `tags` as well (`ANYTHING`: anything). */
export function touch(...tags: string[]): void {
  const into = touches.getStore();
  if (into) for (const tag of tags) into.add(tag);
}

/** Runs a write's `work`, collecting what it `touch`es into `into`. */
export function touching<T>(into: Set<string>, work: () => Promise<T>): Promise<T> {
  return touches.run(into, work);
}

/**
 * The dates an event list covers, as the list's filters compare them with each listed event's
 * (or occurrence's) local start and end: `start` within [startFrom, startTo] and `end` within
 * [endFrom, endTo], each bound closed (a strict filter counts its bound too) and absent when
 * open. The date strings compare as the database compares the columns (text).
 */
export interface EventWindow {
  startFrom?: string;
  startTo?: string;
  endFrom?: string;
  endTo?: string;
}

/** The two kinds of windowed tags: any listed field, or the text that searches read. */
export type WindowedTag = 'events' | 'events-text';

const BOUNDS = ['startFrom', 'startTo', 'endFrom', 'endTo'] as const;

/**
 * The tag of a window: `events@<startFrom>|<startTo>|<endFrom>|<endTo>`, each bound escaped (no
 * space or comma: tags travel comma-separated in one line between processes).
 */
export function windowTag(name: WindowedTag, window: EventWindow): string {
  return `${name}@${BOUNDS.map((b) => encodeURIComponent(window[b] ?? '')).join('|')}`;
}

/** The window of a windowed tag (`name@...`), or undefined when the tag is none. */
export function parseWindow(tag: string): { name: string; window: EventWindow } | undefined {
  const at = tag.indexOf('@');
  if (at < 0) return undefined;
  const parts = tag.slice(at + 1).split('|');
  if (parts.length !== BOUNDS.length) return undefined;
  const window: EventWindow = {};
  BOUNDS.forEach((bound, i) => {
    if (parts[i]) window[bound] = decodeURIComponent(parts[i]);
  });
  return { name: tag.slice(0, at), window };
}

/** Whether some start and end lie within both windows (an open bound meets everything). */
export function overlaps(a: EventWindow, b: EventWindow): boolean {
  const meet = (lo1?: string, hi1?: string, lo2?: string, hi2?: string) =>
    (lo1 === undefined || hi2 === undefined || lo1 <= hi2) &&
    (lo2 === undefined || hi1 === undefined || lo2 <= hi1);
  return (
    meet(a.startFrom, a.startTo, b.startFrom, b.startTo) &&
    meet(a.endFrom, a.endTo, b.endFrom, b.endTo)
  );
}

/**
 * Where an event write can move the events lists: the local start and end the event had in
 * lists before the write and has after it (one pair when they did not move, none for what no
 * list held), and what of what lists read changed: `all` (dates, status, visibility, language,
 * links, flags, order: membership or order may move), `text` (title, excerpt, description:
 * only searches may move) or `none`. A list whose window holds none of the pairs cannot change.
 * Only a single event can say it: a recurring one is listed by its occurrences.
 */
export interface ListedChange {
  dates: ReadonlyArray<readonly [start: string, end: string]>;
  moved: 'all' | 'text' | 'none';
}

/** A change a write names (Writes' RecordChange). */
interface NamedChange {
  kind: string;
  id: number;
  action: string;
  /** For an event: where it can move lists (undefined: anywhere). */
  listed?: ListedChange;
  /** The record's translation group (null: none; undefined: not known, any group). */
  group?: number | null;
}

/** The write tag of an event listed from `start` to `end`. */
const at = (name: WindowedTag, start: string, end: string) =>
  windowTag(name, { startFrom: start, startTo: start, endFrom: end, endTo: end });

/** What moves every events list (an event change that cannot say where it is listed). */
const EVERY_EVENTS_LIST = windowTag('events', {});

/**
 * What a committed write may have altered: each record it names, the lists of its kind and its
 * translation group (every group of its kind when the write did not give the record); a venue or an organizer trashed or deleted also leaves the
 * events that used it (their links are removed); a term written changes what embeds it and the
 * term lists; plus whatever its work `touch`ed. An event write moves the events lists whose
 * windows hold its dates before or after (ListedChange; every list when it cannot say). An
 * event whose status moved (`statusMoved`:
 * published, trashed, out of a schedule whose date passed) may move its terms' counts without a
 * recount naming them: what shows counts is dropped. A write that names nothing may have
 * altered anything (undefined).
 */
export function writeTags(
  changes: readonly NamedChange[],
  touched: ReadonlySet<string>,
  statusMoved = false,
): Tags | undefined {
  if (touched.has(ANYTHING) || (!changes.length && !touched.size)) return undefined;
  const tags = new Set(touched);
  if (statusMoved) {
    tags.add('term-shape');
    tags.add('term-counts');
  }
  for (const { kind, id, action, listed, group } of changes) {
    tags.add(recordTag(kind, id));
    if (kind === 'event') {
      if (!listed) tags.add(EVERY_EVENTS_LIST);
      else if (listed.moved !== 'none') {
        const name = listed.moved === 'text' ? 'events-text' : 'events';
        for (const [start, end] of listed.dates) tags.add(at(name, start, end));
      }
    }
    tags.add(listTag(kind));
    if (group !== null) tags.add(groupTag(kind, group));
    if (isTermKind(kind)) {
      tags.add('term-shape');
      tags.add('term-counts');
    }
    if (isLinkedKind(kind) && (action === 'trashed' || action === 'deleted')) {
      tags.add('events');
      tags.add(EVERY_EVENTS_LIST);
    }
  }
  return [...tags];
}
