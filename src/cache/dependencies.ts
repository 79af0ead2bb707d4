import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tags } from './write-version.js';

/**
 * The tags of docs/caches.md: what a read depends on, and what a write may have altered. A
 * cached value stays current while none of its tags has changed since it was read.
 *
 * - `event:<id>`, `venue:<id>`, `organizer:<id>`, `term:<id>` (categories and tags share ids):
 *   one record, its row and its links.
 * - `events`, `venues`, `organizers`, `terms`: the membership and order of the lists of a kind.
 * - `term-counts`: some term's count of published events (term lists show and sort by them).
 * - `term-shape`: what an embedded term shows beyond its own tag: its ancestors' slugs (a term's
 *   name, slug or parent changed), a count moved by an event's status (see writeTags).
 * - `group:<table>`: a record of `table` that is in a translation group changed (the others of
 *   its group show it among their translations when their reader may read it).
 */
export const ANYTHING = '*';

/** The record kinds of writes and caches, as tags name them. */
export function recordTag(kind: string, id: number): string {
  return `${kind === 'category' || kind === 'tag' ? 'term' : kind}:${id}`;
}

/** The tag of the lists of a kind (`event` → `events`, `category` → `terms`). */
export function listTag(kind: string): string {
  if (kind === 'category' || kind === 'tag') return 'terms';
  return `${kind}s`;
}

/** The translation-group tag of a kind's records. */
export function groupTag(kind: string): string {
  return `group:${listTag(kind)}`;
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

/** A change a write names (Writes' RecordChange). */
interface NamedChange {
  kind: string;
  id: number;
  action: string;
}

/**
 * What a committed write may have altered: each record it names, the lists of its kind and the
 * translation groups of its kind; a venue or an organizer trashed or deleted also leaves the
 * events that used it (their links are removed); a term written changes what embeds it and the
 * term lists; plus whatever its work `touch`ed. An event whose status moved (`statusMoved`:
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
  for (const { kind, id, action } of changes) {
    tags.add(recordTag(kind, id));
    tags.add(listTag(kind));
    tags.add(groupTag(kind));
    if (kind === 'category' || kind === 'tag') {
      tags.add('term-shape');
      tags.add('term-counts');
    }
    if (
      (kind === 'venue' || kind === 'organizer') &&
      (action === 'trashed' || action === 'deleted')
    )
      tags.add('events');
  }
  return [...tags];
}
