/**
 * The WordPress display filters the plugin applies to stored text (BEHAVIOR §4.10).
 *
 * They are pure functions of the stored string, and the same strings come back on every page
 * that shows a record (an event's venue on each of its events), so results are memoized: the
 * filters were about a tenth of the CPU time of a list request.
 */
import { LRUCache } from 'lru-cache';
import { lruBounds } from '../lru-bounds.js';
import { autop } from './autop.js';
import { phpTrim } from './sanitize.js';
import { texturize } from './texturize.js';

/**
 * A bounded memo of a string function: up to `maxEntries` results of inputs of at most
 * `maxInput` characters (longer ones are computed each time), and at most `maxChars` characters
 * of inputs and results together; the least recently used go first, so hot strings stay.
 */
export function memoizeText(
  fn: (s: string) => string,
  maxEntries = 20_000,
  maxInput = 16_384,
  maxChars = 16 * 1024 * 1024,
): (s: string) => string {
  const cache = new LRUCache<string, string>(
    lruBounds<string, string>(maxEntries, maxChars, (out, s) => s.length + out.length),
  );
  return (s: string) => {
    if (s.length > maxInput) return fn(s);
    const hit = cache.get(s);
    if (hit !== undefined) return hit;
    const out = fn(s);
    cache.set(s, out);
    return out;
  };
}

/** `the_title`: event `title`, venue `venue`, organizer `organizer`. */
export const renderTitle = memoizeText((s) => phpTrim(texturize(s)));

/** `the_content` without the memo (texturize runs before wpautop, both at priority 10). */
export const renderContentOnce = (s: string) => phpTrim(autop(texturize(s)));

/** `the_content`: `description`. */
export const renderContent = memoizeText(renderContentOnce);

/** `the_excerpt` on the stored excerpt only (no fallback to the description); `""` stays `""`. */
export function renderExcerpt(s: string): string {
  return s === '' ? '' : renderContent(s);
}
