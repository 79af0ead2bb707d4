import type { ListedChange } from '../cache/dependencies.js';
import type { EventEntity } from './event.entity.js';
import type { LinkChanges } from './event-write-plan.js';

/** Columns that no list filters or orders by (BEHAVIOR §5.2): their change moves no list. */
const UNLISTED: ReadonlySet<string> = new Set([
  'slug',
  'modified',
  'modifiedUtc',
  'imageUrl',
  'imageId',
  'translationGroup',
  'startUtc',
  'endUtc',
  'timezone',
  'allDay',
  'cost',
  'currencySymbol',
  'currencyPosition',
  'website',
  'showMap',
  'showMapLink',
  'sticky',
  'seriesId',
  'seriesStart',
]);
/** Columns that only searches read. */
const SEARCHED: ReadonlySet<string> = new Set(['title', 'excerpt', 'description']);

/**
 * Where an update of a single event can move the events lists (docs/caches.md): its dates before
 * and after, and whether a column the lists read changed (any column not known to be unread
 * counts), or only the searched text, or neither. A recurring event (before or after) is listed
 * by its occurrences: undefined, every list.
 */
export function listedChange(
  was: Readonly<EventEntity>,
  event: EventEntity,
  links: Pick<LinkChanges, 'organizerPlan' | 'terms'>,
): ListedChange | undefined {
  const recurring = (e: Readonly<EventEntity>) =>
    e.recurrence !== null || e.occurrencesUntil !== null;
  if (recurring(was) || recurring(event)) return undefined;
  const dates: Array<[string, string]> = [[was.startDate, was.endDate]];
  if (event.startDate !== was.startDate || event.endDate !== was.endDate)
    dates.push([event.startDate, event.endDate]);
  // Links re-sent as they were (linkChanges left them out) move nothing.
  let moved: ListedChange['moved'] = links.organizerPlan || links.terms.length ? 'all' : 'none';
  const before = was as unknown as Record<string, unknown>;
  const after = event as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (moved === 'all') break;
    if (UNLISTED.has(key) || sameValue(before[key], after[key])) continue;
    moved = SEARCHED.has(key) ? 'text' : 'all';
  }
  return { dates, moved };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
