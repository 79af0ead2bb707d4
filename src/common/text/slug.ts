/**
 * Slugs the WordPress way (BEHAVIOR §7.1.8): `sanitize_title()` = `remove_accents()` followed by
 * `sanitize_title_with_dashes()` in the "save" context, plus the suffixing of
 * `wp_unique_post_slug()` and the cutting of `_truncate_post_slug()`.
 */
import { stripTags } from './sanitize.js';

/** Longest stored slug (bytes of its percent-encoded form; the column holds 200, kept below). */
export const MAX_SLUG_LENGTH = 190;

/**
 * Latin letters that Unicode does not decompose into a base letter plus accents, with the ASCII
 * that slugs use for them (`ß` → `s` as in WordPress's default locale), and the two currency
 * signs WordPress folds.
 */
const UNDECOMPOSED: Record<string, string> = {
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Ø: 'O',
  ø: 'o',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Þ: 'TH',
  þ: 'th',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ĳ: 'IJ',
  ĳ: 'ij',
  ĸ: 'k',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: 'n',
  Ŋ: 'N',
  ŋ: 'n',
  ſ: 's',
  ß: 's',
  Ŧ: 'T',
  ŧ: 't',
  ɑ: 'a',
  ª: 'a',
  º: 'o',
  '€': 'E',
  '£': '',
};

const isCombiningMark = (code: number) => code >= 0x300 && code <= 0x36f;
const isAsciiLetter = (ch: string) => (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');

/**
 * WordPress `remove_accents()` for the default locale: accented Latin letters lose their accents
 * (`Árvíztűrő` → `Arvizturo`, `ș`/`ş` → `s`), a few letters are spelled out (`Æ` → `AE`); other
 * scripts are kept (`жук`, `й`). Done by decomposing (NFD), dropping the accents that follow a
 * Latin letter, and composing again.
 */
export function removeAccents(s: string): string {
  if (!/[^\p{ASCII}]/u.test(s)) return s;
  let out = '';
  let afterLatin = false;
  for (const ch of s.normalize('NFD')) {
    if (isCombiningMark(ch.codePointAt(0)!)) {
      if (!afterLatin) out += ch;
      continue;
    }
    const folded = UNDECOMPOSED[ch];
    out += folded ?? ch;
    afterLatin = folded !== undefined || isAsciiLetter(ch);
  }
  return out.normalize('NFC');
}

const utf8 = new TextEncoder();

/**
 * WordPress `utf8_uri_encode()`: non-ASCII characters become lower-case `%xx` UTF-8 octets;
 * stops before the character that would make the result longer than `length` (0 = no limit).
 */
export function utf8UriEncode(s: string, length = 0): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    const encoded =
      code < 0x80
        ? ch
        : [...utf8.encode(ch)].map((b) => '%' + b.toString(16).padStart(2, '0')).join('');
    if (length && out.length + encoded.length > length) break;
    out += encoded;
  }
  return out;
}

// Octets sanitize_title_with_dashes() removes in the "save" context: soft hyphen, ¡ ¿, angle and
// curly quotes, bullet, © ® ° … ™, acute/grave/macron/caron accents, zero-width and direction marks.
const STRIPPED_OCTETS = (
  '%c2%ad %c2%a1 %c2%bf %c2%ab %c2%bb %e2%80%b9 %e2%80%ba %e2%80%98 %e2%80%99 %e2%80%9c ' +
  '%e2%80%9d %e2%80%9a %e2%80%9b %e2%80%9e %e2%80%9f %e2%80%a2 %c2%a9 %c2%ae %c2%b0 %e2%80%a6 ' +
  '%e2%84%a2 %c2%b4 %cb%8a %cc%81 %cd%81 %cc%80 %cc%84 %cc%8c %e2%80%8b %e2%80%8c %e2%80%8d ' +
  '%e2%80%8e %e2%80%8f %e2%80%aa %e2%80%ab %e2%80%ac %e2%80%ad %e2%80%ae %ef%bb%bf %ef%bf%bc'
).split(' ');
// Octets that become a hyphen: NBSP, en/em dash, and the spaces that have a width.
const HYPHEN_OCTETS = (
  '%c2%a0 %e2%80%93 %e2%80%94 %e2%80%80 %e2%80%81 %e2%80%82 %e2%80%83 %e2%80%84 %e2%80%85 ' +
  '%e2%80%86 %e2%80%87 %e2%80%88 %e2%80%89 %e2%80%8a %e2%80%a8 %e2%80%a9 %e2%80%af'
).split(' ');
const HYPHEN_ENTITIES = ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;'];

const replaceEach = (s: string, needles: string[], replacement: string) =>
  needles.reduce((acc, needle) => acc.replaceAll(needle, replacement), s);

/** WordPress `sanitize_title_with_dashes()`, context "save". */
function sanitizeTitleWithDashes(title: string): string {
  let t = stripTags(title);
  // Keep escaped octets, drop other percent signs.
  t = t.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---');
  t = t.replaceAll('%', '');
  t = t.replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  t = utf8UriEncode(t.toLowerCase(), 200).toLowerCase();

  // Every octet needle has a `%` and every entity an `&`, and no replacement brings either back:
  // a title without them (most are) skips some sixty scans of the text.
  const octets = t.includes('%');
  if (octets) t = replaceEach(t, HYPHEN_OCTETS, '-');
  if (t.includes('&')) t = replaceEach(t, HYPHEN_ENTITIES, '-');
  t = t.replaceAll('/', '-');
  if (octets) {
    t = replaceEach(t, STRIPPED_OCTETS, '');
    t = t.replaceAll('%c3%97', 'x'); // ×
  }

  t = withoutEntities(t);
  t = t.replaceAll('.', '-');
  t = t.replace(/[^%a-z0-9 _-]/g, '');
  t = t.replace(/\s+/g, '-');
  t = t.replace(/-+/g, '-');
  return trimHyphens(t, true);
}

/** Drops hyphens at the end (and, with `start`, at the start) of `s`, in one pass. */
function trimHyphens(s: string, start = false): string {
  let from = 0;
  let to = s.length;
  if (start) while (from < to && s[from] === '-') from++;
  while (to > from && s[to - 1] === '-') to--;
  return s.slice(from, to);
}

/**
 * Removes what looks like an HTML entity: an `&`, at least one more character, up to the next `;`
 * on the same line. Line by line, each `&` looks for one `;`; when a line has none left, the
 * rest of the line is kept as it is, so the pass is linear.
 */
function withoutEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s
    .split('\n')
    .map((line) => {
      let out = '';
      let from = 0;
      for (;;) {
        const amp = line.indexOf('&', from);
        if (amp < 0 || amp + 1 >= line.length) break;
        const semi = line.indexOf(';', amp + 2);
        if (semi < 0) break;
        out += line.slice(from, amp);
        from = semi + 1;
      }
      return out + line.slice(from);
    })
    .join('\n');
}

/**
 * WordPress `sanitize_title()` for saving: `Hello, World!` → `hello-world`,
 * `Árvíztűrő tükörfúrógép` → `arvizturo-tukorfurogep`, `Привет` → `%d0%bf%d1%80…`.
 * Cut to {@link MAX_SLUG_LENGTH}; `fallback` when nothing is left.
 */
export function sanitizeTitle(title: string, fallback = ''): string {
  const slug = truncateSlug(sanitizeTitleWithDashes(removeAccents(title)), MAX_SLUG_LENGTH);
  return slug === '' ? fallback : slug;
}

/**
 * WordPress `_truncate_post_slug()`: cuts to at most `length` characters without splitting a
 * percent-encoded character, then drops trailing hyphens.
 */
export function truncateSlug(slug: string, length: number = MAX_SLUG_LENGTH): string {
  let out = slug;
  if (slug.length > length) {
    out = '';
    for (const unit of slug.match(/(?:%[0-9a-f]{2})+|[^%]|%/gi) ?? []) {
      for (const ch of splitEncodedCharacters(unit)) {
        if (out.length + ch.length > length) return trimHyphens(out);
        out += ch;
      }
    }
  }
  return trimHyphens(out);
}

/** Splits a run of `%xx` octets into the UTF-8 characters they encode (by their lead bytes). */
function splitEncodedCharacters(unit: string): string[] {
  if (!unit.startsWith('%') || unit.length === 1) return [unit];
  const octets = unit.match(/%[0-9a-f]{2}/gi) ?? [];
  const chars: string[] = [];
  for (let i = 0; i < octets.length;) {
    const lead = parseInt(octets[i].slice(1), 16);
    const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    chars.push(octets.slice(i, i + size).join(''));
    i += size;
  }
  return chars;
}

/**
 * The slugs tried in order by `wp_unique_post_slug()`: `base`, `base-2`, `base-3`, … (`count`
 * of them), each suffixed form cut so that it stays within {@link MAX_SLUG_LENGTH}.
 */
export function slugSuffixCandidates(base: string, count: number): string[] {
  const candidates: string[] = [];
  for (let n = 1; n <= count; n++) candidates.push(n === 1 ? base : withSuffix(base, n));
  return candidates;
}

function withSuffix(base: string, n: number): string {
  const suffix = `-${n}`;
  return truncateSlug(base, MAX_SLUG_LENGTH - suffix.length) + suffix;
}

/** `wp_unique_post_slug()`: the first of `base`, `base-2`, `base-3`, … not in `taken`. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (base === '' || !taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = withSuffix(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}
