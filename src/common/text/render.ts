/**
 * The WordPress display filters the plugin applies to stored text (BEHAVIOR §4.10).
 */
import { autop } from './autop.js';
import { phpTrim } from './sanitize.js';
import { texturize } from './texturize.js';

/** `the_title`: event `title`, venue `venue`, organizer `organizer`. */
export function renderTitle(s: string): string {
  return phpTrim(texturize(s));
}

/** `the_content`: `description` (texturize runs before wpautop, both at priority 10). */
export function renderContent(s: string): string {
  return phpTrim(autop(texturize(s)));
}

/** `the_excerpt` on the stored excerpt only (no fallback to the description); `""` stays `""`. */
export function renderExcerpt(s: string): string {
  return s === '' ? '' : renderContent(s);
}
