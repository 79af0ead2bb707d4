/**
 * Write-side text helpers and small HTML utilities, each behaving like the WordPress/PHP function
 * named in its comment (BEHAVIOR §7.4.1 "stored as text", §7.6 term names, §4.9 JSON-LD). All of
 * them walk the input once; the HTML allowlist filter lives in `html-filter.ts`.
 */

/** Characters PHP's trim() removes; String.prototype.trim() would also eat NBSP and friends. */
const PHP_TRIM_CHARS = ' \t\n\r\0\x0B';

/** PHP `trim()` with its default character list. */
export function phpTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PHP_TRIM_CHARS.includes(s[start])) start++;
  while (end > start && PHP_TRIM_CHARS.includes(s[end - 1])) end--;
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
    const ch = s[i];
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
 * PHP `strip_tags()`: the text outside tags, comments and `<?…?>` blocks. Scanned once, left to
 * right: a `<` followed by whitespace or ending the input is text; inside a tag, quoted parts
 * may hold `>` and a nested `<` needs its own `>` before the tag ends; an unterminated tag or
 * comment swallows the rest.
 */
export function stripTags(s: string): string {
  if (!s.includes('<')) return s;
  let out = '';
  let from = 0;
  for (let at = s.indexOf('<'); at !== -1; at = s.indexOf('<', from)) {
    out += s.slice(from, at);
    const next = s.charAt(at + 1);
    if (next === '' || isSpace(next)) {
      out += '<';
      from = at + 1;
    } else if (s.startsWith('!--', at + 1)) {
      const close = s.indexOf('-->', at + 4);
      from = close === -1 ? s.length : close + 3;
    } else {
      from = endOfTag(s, at);
    }
  }
  return out + s.slice(from);
}

const isSpace = (ch: string) => ch === ' ' || (ch >= '\t' && ch <= '\r');

/** Where the tag opened at `at` ends (just past its `>`), or the input's length. */
function endOfTag(s: string, at: number): number {
  let open = 0;
  let quote = '';
  for (let i = at; i < s.length; i++) {
    const ch = s[i];
    if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '<') open++;
    else if (ch === '>' && --open === 0) return i + 1;
  }
  return s.length;
}

/**
 * WordPress `wp_strip_all_tags()` without its line-break option: like {@link stripTags}, but a
 * `<script>` or `<style>` element goes with its content (up to its closing tag; an unclosed one
 * keeps its content, as the unmatched pattern leaves it), and the result is trimmed.
 */
export function stripAllTags(s: string): string {
  return phpTrim(stripTags(dropScriptsAndStyles(s)));
}

function dropScriptsAndStyles(s: string): string {
  // Tested before lower-casing: most texts have neither, and a copy of each cost as much as
  // the rest of a feed entry.
  if (!/<s(?:cript|tyle)/i.test(s)) return s;
  const lower = s.toLowerCase();
  const find = {
    '<script': finder(lower, '<script'),
    '<style': finder(lower, '<style'),
    '>': finder(lower, '>'),
    '</script>': finder(lower, '</script>'),
    '</style>': finder(lower, '</style>'),
  };
  let out = '';
  let from = 0;
  let search = 0;
  for (;;) {
    const script = find['<script'](search);
    const style = find['<style'](search);
    const at = script === -1 ? style : style === -1 ? script : Math.min(script, style);
    if (at === -1) break;
    const closing = at === script ? '</script>' : '</style>';
    const tagEnd = find['>'](at);
    const close = tagEnd === -1 ? -1 : find[closing](tagEnd);
    if (close === -1) {
      // This one never ends; a later opening of the other kind still may.
      search = at + 1;
      continue;
    }
    out += s.slice(from, at);
    from = search = close + closing.length;
  }
  return out + s.slice(from);
}

/**
 * `indexOf(needle, from)` for calls whose `from` never decreases: the last answer is reused
 * while it is still ahead, so the text is scanned about once per needle.
 */
function finder(hay: string, needle: string): (from: number) => number {
  let found = -2;
  return (from: number) => {
    if (found === -2 || (found !== -1 && found < from)) found = hay.indexOf(needle, from);
    return found;
  };
}

/**
 * WordPress `wp_pre_kses_less_than()`: a `<` that never reaches a `>` (before the next `<` or the
 * end) is text, so it is escaped instead of swallowing the rest as a tag.
 */
export function escapeLoneLessThan(s: string): string {
  const nextGt = finder(s, '>');
  let out = '';
  let from = 0;
  for (let at = s.indexOf('<'); at !== -1; at = s.indexOf('<', from)) {
    const gt = nextGt(at);
    const nextLt = s.indexOf('<', at + 1);
    if (gt !== -1 && (nextLt === -1 || gt < nextLt)) {
      out += s.slice(from, gt + 1);
      from = gt + 1;
    } else {
      const end = nextLt === -1 ? s.length : nextLt;
      out += s.slice(from, at) + escapeHtml(s.slice(at, end));
      from = end;
    }
  }
  return out + s.slice(from);
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
  const withoutOctets = dropOctets(t);
  if (withoutOctets !== t) t = phpTrim(withoutOctets.replace(/ +/g, ' '));
  return t;
}

/**
 * Removes `%xx` octets until none is left (`%%4141` → ``): one pass with a stack, since removing
 * one can only form a new one from what precedes it.
 */
function dropOctets(s: string): string {
  if (!s.includes('%')) return s;
  const kept: string[] = [];
  for (const ch of s) {
    kept.push(ch);
    const n = kept.length;
    if (n >= 3 && kept[n - 3] === '%' && isHex(kept[n - 2]) && isHex(kept[n - 1])) {
      kept.length = n - 3;
    }
  }
  return kept.join('');
}

const isHex = (ch: string) => /^[0-9a-f]$/i.test(ch);

/**
 * Term names — WordPress `pre_term_name` filters: `sanitize_text_field`, `wp_filter_kses`,
 * `_wp_specialchars` (ENT_NOQUOTES, no double encoding): `A & B` → `A &amp; B`.
 */
export function termName(s: string): string {
  return escapeWith(asText(s), HTML_NO_QUOTES);
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
