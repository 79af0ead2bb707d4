/**
 * Write-side sanitizing and small HTML helpers, each mirroring the WordPress/PHP function named
 * in its comment (BEHAVIOR §7.4.1 "stored as text", §7.6 term name and description, §4.9 JSON-LD).
 */

/** Characters PHP's trim() removes; String.prototype.trim() would also eat NBSP and friends. */
const PHP_TRIM_CHARS = ' \t\n\r\0\x0B';

/** PHP `trim()` with its default character list. */
export function phpTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PHP_TRIM_CHARS.includes(s[start]!)) start++;
  while (end > start && PHP_TRIM_CHARS.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/**
 * An `&` that already starts a character reference. WordPress checks named entities against a
 * list (wp_kses_normalize_entities); any well-formed name is accepted here.
 */
const ENTITY_AHEAD = /^&(?:[A-Za-z][A-Za-z0-9]{0,31}|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});/;

function isEntityAt(s: string, i: number): boolean {
  return ENTITY_AHEAD.test(s.slice(i, i + 40));
}

/** Escapes `&` (unless it starts an entity) and the characters listed in `map`. */
function escapeWith(s: string, map: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '&') out += isEntityAt(s, i) ? '&' : '&amp;';
    else out += map[ch] ?? ch;
  }
  return out;
}

const HTML_QUOTES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
};
const HTML_NO_QUOTES: Record<string, string> = { '<': '&lt;', '>': '&gt;' };

/**
 * WordPress `esc_html()`/`esc_attr()` (`_wp_specialchars` with ENT_QUOTES): `&` → `&amp;`,
 * `"` → `&quot;`, `'` → `&#039;`, `<` → `&lt;`, `>` → `&gt;`. Like WordPress it does not
 * double-encode an existing entity (`&amp;` stays `&amp;`).
 */
export function escapeHtml(s: string): string {
  return escapeWith(s, HTML_QUOTES);
}

/**
 * PHP `strip_tags()`: removes tags, comments and `<?…?>` blocks, keeps the text between them.
 * A `<` followed by whitespace (or ending the string) is text, as in PHP; quoted `>` inside a
 * tag does not end it.
 */
export function stripTags(s: string): string {
  if (!s.includes('<')) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt === -1) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, lt);
    const next = s[lt + 1];
    if (next === undefined || /\s/.test(next)) {
      out += '<';
      i = lt + 1;
      continue;
    }
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      i = end === -1 ? s.length : end + 3;
      continue;
    }
    i = skipTag(s, lt);
  }
  return out;
}

/** Index just past the tag starting at `start` (PHP strip_tags: quotes and nested `<` count). */
function skipTag(s: string, start: number): number {
  let depth = 0;
  let quote = '';
  for (let i = start; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '<') {
      depth++;
    } else if (ch === '>') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return s.length;
}

/** WordPress `wp_strip_all_tags()` without line-break removal: drops script/style with content. */
export function stripAllTags(s: string): string {
  return phpTrim(stripTags(s.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')));
}

/**
 * WordPress `wp_pre_kses_less_than()`: a `<` that never reaches a `>` (before the next `<` or the
 * end) is text, so it is escaped instead of swallowing the rest as a tag.
 */
function escapeLoneLessThan(s: string): string {
  return s.replace(/<[^>]*?(?:(?=<)|>|$)/g, (m) => (m.includes('>') ? m : escapeHtml(m)));
}

/**
 * "Stored as text" — WordPress `sanitize_text_field()`: tags stripped (a lone `<` kept as
 * `&lt;`), line breaks, tabs and runs of spaces collapsed to one space, trimmed, and
 * percent-encoded octets (`%20`) removed as WordPress does.
 */
export function asText(s: string): string {
  let t = s;
  if (t.includes('<')) {
    t = stripAllTags(escapeLoneLessThan(t)).replaceAll('<\n', '&lt;\n');
  }
  t = phpTrim(t.replace(/[\r\n\t ]+/g, ' '));
  const octet = /%[a-f0-9]{2}/i;
  if (octet.test(t)) {
    while (octet.test(t)) t = t.replace(/%[a-f0-9]{2}/gi, '');
    t = phpTrim(t.replace(/ +/g, ' '));
  }
  return t;
}

/**
 * Term names — WordPress `pre_term_name` filters: `sanitize_text_field`, `wp_filter_kses`,
 * `_wp_specialchars` (ENT_NOQUOTES, no double encoding): `A & B` → `A &amp; B`.
 */
export function termName(s: string): string {
  return escapeWith(asText(s), HTML_NO_QUOTES);
}

/** WordPress `$allowedtags` (kses for term descriptions), minus the obsolete `acronym`. */
const INLINE_TAGS: Record<string, readonly string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};
const URI_ATTRIBUTES = new Set(['href', 'cite']);

/** WordPress `wp_allowed_protocols()`. */
const ALLOWED_PROTOCOLS = new Set(
  'http https ftp ftps mailto news irc irc6 ircs gopher nntp feed telnet mms rtsp sms svn tel fax xmpp webcal urn'.split(
    ' ',
  ),
);

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: [string, string | undefined][];
  end: number;
}

/** Parses the tag starting at `start` (`<` or `</`, a name, attributes, `>`); null if none. */
function readTag(s: string, start: number): Tag | null {
  const head = /<(\/?)([A-Za-z][A-Za-z0-9-]*)/y;
  head.lastIndex = start;
  const m = head.exec(s);
  if (!m) return null;
  const tag: Tag = {
    name: m[2]!.toLowerCase(),
    closing: m[1] === '/',
    selfClosing: false,
    attributes: [],
    end: 0,
  };
  const attr = /\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/y;
  let i = head.lastIndex;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === '>') {
      tag.end = i + 1;
      return tag;
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '/') {
      tag.selfClosing = true;
      i++;
      continue;
    }
    attr.lastIndex = i;
    const a = attr.exec(s);
    if (!a) return null; // a stray quote: not a well-formed tag
    tag.selfClosing = false;
    tag.attributes.push([a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4]]);
    i = attr.lastIndex;
  }
  return null;
}

/** kses `wp_kses_bad_protocol()`, simplified: a URI with a scheme outside the list is refused. */
function hasAllowedProtocol(uri: string): boolean {
  const decoded = uri.replace(/&#0*58;|&#x0*3a;|&colon;/gi, ':').toLowerCase();
  const plain = [...decoded].filter((ch) => ch > ' ').join(''); // controls and spaces dropped
  const colon = plain.indexOf(':');
  if (colon === -1 || /[/?#]/.test(plain.slice(0, colon))) return true;
  return ALLOWED_PROTOCOLS.has(plain.slice(0, colon).replace(/[^a-z0-9+.-]/g, ''));
}

function renderTag(tag: Tag): string {
  const allowed = INLINE_TAGS[tag.name];
  if (!allowed) return '';
  if (tag.closing) return `</${tag.name}>`;
  const seen = new Set<string>();
  let attributes = '';
  for (const [name, value] of tag.attributes) {
    if (!allowed.includes(name) || value === undefined || seen.has(name)) continue;
    if (URI_ATTRIBUTES.has(name) && !hasAllowedProtocol(value)) continue;
    seen.add(name);
    attributes += ` ${name}="${escapeWith(value, HTML_QUOTES)}"`;
  }
  return `<${tag.name}${attributes}${tag.selfClosing ? ' /' : ''}>`;
}

/**
 * Term descriptions — WordPress `wp_filter_kses` with `$allowedtags`: keeps `a` (href, title),
 * `abbr`, `b`, `blockquote`, `cite`, `code`, `del`, `em`, `i`, `q`, `s`, `strike`, `strong`;
 * other tags and comments are removed but their text is kept; stray `<`/`>` and bare `&` are
 * escaped. Unlike kses, an `href`/`cite` with a forbidden scheme is dropped whole.
 */
export function basicInlineHtml(s: string): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    const text = lt === -1 ? s.slice(i) : s.slice(i, lt);
    out += escapeWith(text, { '>': '&gt;' });
    if (lt === -1) break;
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      i = end === -1 ? s.length : end + 3;
      continue;
    }
    const tag = readTag(s, lt);
    if (tag) {
      out += renderTag(tag);
      i = tag.end;
    } else {
      out += '&lt;';
      i = lt + 1;
    }
  }
  return out;
}

/**
 * WordPress `wp_trim_words()`: the first `count` words of the text of `html` (tags, script and
 * style removed), joined by single spaces; `more` is appended only when words were cut.
 */
export function excerptWords(html: string, count = 55, more = '&hellip;'): string {
  const words = stripAllTags(html)
    .split(/[\n\r\t ]+/)
    .filter((w) => w !== '');
  if (words.length <= count) return words.join(' ');
  return words.slice(0, count).join(' ') + more;
}
