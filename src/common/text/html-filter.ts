/**
 * The write-side HTML filter (CONTRACT §6 "Content HTML", BEHAVIOR §7.6): stored HTML is parsed
 * and written out again by sanitize-html with one of the allowlists of `allowlists.ts`, so what
 * is stored is always well-formed and holds only allowed elements, attributes and URL schemes.
 *
 * Like WordPress, a removed element keeps its text (`<script>x</script>` → `x`, escaped, so it
 * is inert); comments are dropped; text is re-escaped (`&` → `&amp;`, stray `<`/`>` → `&lt;`/
 * `&gt;`; a `<` that never reaches a `>` is text, as in WordPress). Entities are decoded before URLs are checked, so `jav&#x09;ascript:` is caught.
 */
import sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_STYLES,
  INLINE_ALLOWED_ATTRIBUTES,
  INLINE_ALLOWED_TAGS,
  POST_ALLOWED_ATTRIBUTES,
  POST_ALLOWED_TAGS,
  URL_ATTRIBUTES,
  URL_SCHEMES,
} from './allowlists.js';
import { escapeLoneLessThan } from './sanitize.js';

const COMMON: sanitizeHtml.IOptions = {
  allowedSchemes: URL_SCHEMES,
  allowedSchemesAppliedToAttributes: URL_ATTRIBUTES,
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  // Keep the text of removed elements (it is escaped), as WordPress does.
  nonTextTags: [],
};

const POST_OPTIONS: sanitizeHtml.IOptions = {
  ...COMMON,
  allowedTags: POST_ALLOWED_TAGS,
  allowedAttributes: POST_ALLOWED_ATTRIBUTES,
  allowedStyles: ALLOWED_STYLES,
};

const INLINE_OPTIONS: sanitizeHtml.IOptions = {
  ...COMMON,
  allowedTags: INLINE_ALLOWED_TAGS,
  allowedAttributes: INLINE_ALLOWED_ATTRIBUTES,
};

/**
 * Descriptions and excerpts of users without `unfiltered_html` (authors, contributors):
 * WordPress's post allowlist. Editors' and administrators' HTML is stored as sent.
 */
export function filterPostHtml(html: string): string {
  return html === '' ? '' : sanitizeHtml(escapeLoneLessThan(html), POST_OPTIONS);
}

/**
 * Term descriptions — and titles of users without `unfiltered_html` — keep only `a` (href,
 * title), `abbr`, `acronym`, `b`, `blockquote`, `cite`, `code`, `del`, `em`, `i`, `q`, `s`,
 * `strike`, `strong`; other tags go, their text stays.
 */
export function basicInlineHtml(html: string): string {
  return html === '' ? '' : sanitizeHtml(escapeLoneLessThan(html), INLINE_OPTIONS);
}

/** How a writer's HTML is stored: titles and content (descriptions, excerpts). */
export interface ContentFilter {
  title(s: string): string;
  content(s: string): string;
}

const AS_SENT: ContentFilter = { title: (s) => s, content: (s) => s };

/** Text without a `<` holds no markup: it is stored as sent (`Jane & Co` keeps its `&`). */
const onMarkup = (filter: (s: string) => string) => (s: string) =>
  s.includes('<') ? filter(s) : s;
const ALLOWLISTED: ContentFilter = {
  title: onMarkup(basicInlineHtml),
  content: onMarkup(filterPostHtml),
};

/**
 * The filter for a writer: as sent with `unfiltered_html` (editors, administrators), else titles
 * with the inline list and descriptions/excerpts with the post list, as WordPress does.
 */
export function contentFilter(unfilteredHtml: boolean): ContentFilter {
  return unfilteredHtml ? AS_SENT : ALLOWLISTED;
}
