/**
 * The typesetting of texturize.ts that is not about quotes: dashes, `&` that starts no entity,
 * and `2x4` dimensions, with the character tests both use.
 */

/** The characters WordPress prints, as the entities it prints them with. */
export const ENTITY = {
  openDouble: '&#8220;',
  closeDouble: '&#8221;',
  openSingle: '&#8216;',
  closeSingle: '&#8217;',
  apostrophe: '&#8217;',
  prime: '&#8242;',
  doublePrime: '&#8243;',
  enDash: '&#8211;',
  emDash: '&#8212;',
  ellipsis: '&#8230;',
  trademark: '&#8482;',
  times: '&#215;',
  ampersand: '&#038;',
} as const;

export const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
export const isBlank = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u00a0';

/** `--`/`---` and a lone `-` between spaces become dashes (not in `xn--` domain names). */
export function dashes(t: string): string {
  let out = '';
  for (let i = 0; i < t.length;) {
    if (t[i] !== '-') {
      out += t[i++];
      continue;
    }
    let run = 1;
    while (t[i + run] === '-') run++;
    const spaced = spaceEndsAt(t, i) && (i + run >= t.length || spaceStartsAt(t, i + run));
    out += dashRun(run, spaced, t.slice(Math.max(0, i - 2), i) === 'xn');
    i += run;
  }
  return out;
}

/**
 * A run of hyphens: every `---` is an em dash; a `--` on its own between spaces is an em dash,
 * else an en dash (not right after `xn`, as in punycode names); a single `-` between spaces is
 * an en dash.
 */
function dashRun(run: number, spaced: boolean, afterXn: boolean): string {
  if (run === 1) return spaced ? ENTITY.enDash : '-';
  if (run === 2 && spaced) return ENTITY.emDash;
  let out = ENTITY.emDash.repeat(Math.floor(run / 3));
  const rest = run % 3;
  if (rest === 2) out += run === 2 && afterXn ? '--' : ENTITY.enDash;
  else if (rest === 1) out += '-';
  return out;
}

const spaceEndsAt = (t: string, i: number) =>
  i === 0 || isBlank(t[i - 1]) || t.slice(i - 6, i) === '&nbsp;';
const spaceStartsAt = (t: string, i: number) => isBlank(t[i]) || t.startsWith('&nbsp;', i);

/** `&` that does not start an entity (`&amp;`, `&#38;`, `&#x26;`) → `&#038;`. */
export function ampersands(t: string): string {
  let out = '';
  let copied = 0;
  for (let i = t.indexOf('&'); i !== -1; i = t.indexOf('&', i + 1)) {
    if (startsEntity(t, i)) continue;
    out += t.slice(copied, i) + ENTITY.ampersand;
    copied = i + 1;
  }
  return copied === 0 ? t : out + t.slice(copied);
}

/** An ASCII letter from `a` to `last`, either case. */
const isLetterUpTo = (c: string | undefined, last: string) => {
  if (c === undefined || c.length !== 1 || c > 'z') return false;
  const lower = c.toLowerCase();
  return lower >= 'a' && lower <= last;
};
const isHex = (c: string | undefined) => isDigit(c) || isLetterUpTo(c, 'f');
const isNameChar = (c: string | undefined) =>
  isLetterUpTo(c, 'z') || (c !== undefined && c >= '1' && c <= '4');

/** An entity starts at `i`: `&#digits;`, `&#xhex;` or a name of up to eight characters. */
function startsEntity(t: string, i: number): boolean {
  let j = i + 1;
  if (t[j] === '#') {
    j++;
    const hex = t[j] === 'x' || t[j] === 'X';
    if (hex) j++;
    const from = j;
    while (hex ? isHex(t[j]) : isDigit(t[j])) j++;
    return j > from && t[j] === ';';
  }
  const from = j;
  while (j - from < 8 && isNameChar(t[j])) j++;
  return j > from && t[j] === ';';
}

const isWordChar = (c: string | undefined) =>
  c !== undefined &&
  ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isNumberChar = (c: string | undefined) => isDigit(c) || c === '.' || c === ',';
const atWordEdge = (t: string, i: number) => isWordChar(t[i - 1]) !== isWordChar(t[i]);
/** Longest operand on either side of the `x`, so a long run of digits costs its length only. */
const MAX_OPERAND = 32;

/**
 * `2x4` → `2&#215;4` for dimensions, not hexadecimal (`0x1F`): a word that starts with a digit
 * (a leading 0 needs another digit or separator after it), then digits, `.` and `,` up to an `x`,
 * then a digit and more of the same up to the end of the word; each side at most 32 characters.
 * A single left-to-right pass that looks at most 33 characters ahead of each position.
 */
export function dimensions(t: string): string {
  let out = '';
  let copied = 0;
  let p = 0;
  while (p < t.length) {
    const first = t[p];
    if (!isDigit(first) || !atWordEdge(t, p)) {
      p++;
      continue;
    }
    let q = p + 1;
    while (q < t.length && q - p <= MAX_OPERAND && isNumberChar(t[q])) q++;
    const leftOk = q - p <= MAX_OPERAND && (first !== '0' || q - p >= 2);
    if (!leftOk || t[q] !== 'x' || !isDigit(t[q + 1])) {
      p++;
      continue;
    }
    // The right side is as long as it can be (within the bound), then shortened to a word edge.
    let r = q + 2;
    while (r < t.length && r - (q + 1) < MAX_OPERAND && isNumberChar(t[r])) r++;
    while (r > q + 1 && !atWordEdge(t, r)) r--;
    if (r <= q + 1) {
      p++;
      continue;
    }
    out += t.slice(copied, q) + ENTITY.times + t.slice(q + 1, r);
    copied = r;
    p = r;
  }
  return copied === 0 ? t : out + t.slice(copied);
}

export function hasDigitXDigit(t: string): boolean {
  for (let i = t.indexOf('x'); i !== -1; i = t.indexOf('x', i + 1)) {
    if (isDigit(t[i - 1]) && isDigit(t[i + 1])) return true;
  }
  return false;
}
