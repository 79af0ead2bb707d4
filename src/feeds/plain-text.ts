import { decodeHTML } from 'entities';
import { stripAllTags } from '../common/text/index.js';

/** Rendered HTML (a title, a description) as plain text for formats that carry no markup. */
export function plainText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  const withBreaks = html.replace(/<\/p>|<br\s*\/?>/gi, '\n');
  return decodeHTML(stripAllTags(withBreaks))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}
