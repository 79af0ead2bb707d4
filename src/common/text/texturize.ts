/**
 * Smart typography for titles and content (BEHAVIOR §4.10): the plugin's payloads carry curly
 * quotes, apostrophes, primes (6′, 9″), en and em dashes, the ellipsis, ™, the multiplication
 * sign of dimensions (2×4) and `&#038;` for a bare ampersand, as HTML entities, the way
 * WordPress shows post titles and content. Markup, comments and the content of code-like
 * elements are left as they are.
 *
 * How it works: the input is cut into markup and text runs (scanMarkup). In a text run, fixed
 * sequences are replaced first; then every straight quote is given a role from its neighbours
 * (QuoteMarks), in a fixed order of questions, and the quotes that could either end a quotation
 * or be a prime are settled per quotation (settleQuotation); then dashes, dimensions and
 * ampersands. Each decision looks at a few characters around one position and every step is a
 * single left-to-right pass, so the cost is linear in the input.
 */
import {
  ampersands,
  dashes,
  dimensions,
  ENTITY,
  hasDigitXDigit,
  isBlank,
  isDigit,
} from './dashes-and-signs.js';
import { phpTrim } from './sanitize.js';

/** Elements whose content is shown as typed (code, preformatted text, scripts, styles). */
const VERBATIM = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);

/** Old contractions that start with an apostrophe rather than an opening quote. */
const ELISIONS = [
  "tain't",
  'twere',
  'twas',
  'tis',
  'twill',
  'til',
  'bout',
  'nuff',
  'round',
  'cause',
  'em',
];

/** Replaced wherever they occur in text, in this order, before the quotes are looked at. */
const FIXED: ReadonlyArray<readonly [string, string]> = [
  ['...', ENTITY.ellipsis],
  ['``', ENTITY.openDouble],
  ["''", ENTITY.closeDouble],
  [' (tm)', ` ${ENTITY.trademark}`],
  ...ELISIONS.map(
    (word) =>
      [`'${word}`, `${ENTITY.apostrophe}${word.replaceAll("'", ENTITY.apostrophe)}`] as const,
  ),
];

// ------------------------------------------------------------------------------ characters

/** Characters after which a quote mark ends a quotation (besides spaces, `&gt;` and the end). */
const ENDERS = new Set(['.', ',', ':', ';', '!', '?', ')', '}', '-', ']']);
/** Characters after which a quote mark opens one (besides spaces, `&lt;` and the start). */
const SINGLE_OPENERS = new Set(['(', '[', '{', '"', '-']);
const DOUBLE_OPENERS = new Set(['(', '[', '{', '-']);
/** What may follow an apostrophe inside a word: anything but these (and spaces, `&lt;`/`&gt;`). */
const NOT_IN_WORD = new Set([
  '.',
  ',',
  ':',
  ';',
  '!',
  '?',
  '"',
  "'",
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '-',
]);

// ------------------------------------------------------------------------------ quote marks

type Role = 'apostrophe' | 'open' | 'close' | 'prime';

/**
 * The text run as cells: each character, and for a quote mark that has been given a role, that
 * role. A quote with a role no longer counts as a quote, a digit or a space for the questions
 * asked of its neighbours.
 */
class QuoteMarks {
  readonly roles: Array<Role | undefined>;

  constructor(readonly text: string) {
    this.roles = Array.from({ length: text.length }, () => undefined);
  }

  /** The character at `i` as the rules see it (`\0` for a quote that has a role). */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.text.length) return undefined;
    return this.roles[i] === undefined ? this.text[i] : '\0';
  }

  /** `s` starts at `i` (in characters as the rules see them). */
  has(i: number, s: string): boolean {
    for (let k = 0; k < s.length; k++) if (this.at(i + k) !== s[k]) return false;
    return true;
  }

  /** A space (a blank character or `&nbsp;`) starts at `i`. */
  spaceAt(i: number): boolean {
    return isBlank(this.at(i)) || this.has(i, '&nbsp;');
  }

  /** A space ends right before `i`. */
  spaceBefore(i: number): boolean {
    return isBlank(this.at(i - 1)) || this.has(i - 6, '&nbsp;');
  }

  /** After position `i - 1`, a quotation may end: the end, a space, `&gt;` or punctuation. */
  endsAt(i: number, end = this.text.length): boolean {
    if (i >= end) return true;
    const c = this.at(i);
    return (c !== undefined && ENDERS.has(c)) || this.has(i, '&gt;') || this.spaceAt(i);
  }

  /** Before `i`, a quotation may start: the start, a space, `&lt;` or one of `openers`. */
  startsAfter(i: number, openers: ReadonlySet<string>): boolean {
    if (i === 0) return true;
    const c = this.at(i - 1);
    return (c !== undefined && openers.has(c)) || this.has(i - 4, '&lt;') || this.spaceBefore(i);
  }

  /** An unassigned `mark` at `i`. */
  isMark(i: number, mark: string): boolean {
    return this.roles[i] === undefined && this.text[i] === mark;
  }

  /** The end of a number (a digit, then digits, `.` and `,`) starting at `i`, or -1. */
  numberEnd(i: number): number {
    if (!isDigit(this.at(i))) return -1;
    let j = i + 1;
    for (let c = this.at(j); isDigit(c) || c === '.' || c === ','; c = this.at(++j));
    return j;
  }

  /** Gives every unassigned `mark` that `test` accepts a role, left to right. */
  each(mark: string, test: (i: number) => boolean | void): void {
    for (let i = this.text.indexOf(mark); i !== -1; i = this.text.indexOf(mark, i + 1)) {
      if (this.isMark(i, mark)) test(i);
    }
  }

  render(): string {
    let out = '';
    for (let i = 0; i < this.text.length; i++) {
      const role = this.roles[i];
      out += role === undefined ? this.text[i] : OUTPUT[this.text[i] as "'" | '"'][role];
    }
    return out;
  }
}

/** What each role of each mark prints (a `"` after `'99` closes a double quotation). */
const OUTPUT = {
  "'": {
    apostrophe: ENTITY.apostrophe,
    open: ENTITY.openSingle,
    close: ENTITY.closeSingle,
    prime: ENTITY.prime,
  },
  '"': {
    apostrophe: ENTITY.closeDouble,
    open: ENTITY.openDouble,
    close: ENTITY.closeDouble,
    prime: ENTITY.doublePrime,
  },
} as const;

/** Single quotes: each question is asked of every still unassigned `'` before the next one. */
function singleQuotes(q: QuoteMarks): void {
  // '99' and '99" closing a quotation: the year's mark is an apostrophe.
  q.each("'", (i) => {
    if (!isDigit(q.at(i + 1)) || !isDigit(q.at(i + 2)) || !q.endsAt(i + 4)) return false;
    if (q.isMark(i + 3, "'")) q.roles[i + 3] = 'close';
    else if (q.isMark(i + 3, '"')) q.roles[i + 3] = 'close';
    else return false;
    q.roles[i] = 'apostrophe';
    return true;
  });
  // '99 or '99s on its own: an apostrophe, unless more digits, a % or a decimal part follow.
  q.each("'", (i) => {
    if (!isDigit(q.at(i + 1)) || !isDigit(q.at(i + 2))) return false;
    const next = q.at(i + 3);
    if (next !== undefined) {
      if (next === '%' || isDigit(next)) return false;
      if ((next === '.' || next === ',') && isDigit(q.at(i + 4))) return false;
    }
    q.roles[i] = 'apostrophe';
    return true;
  });
  quotedNumbers(q, "'");
  // After a space, an opening bracket, a dash or a double quote: an opening quote.
  q.each("'", (i) => {
    if (!q.startsAfter(i, SINGLE_OPENERS)) return false;
    q.roles[i] = 'open';
    return true;
  });
  // Inside a word (no space before, a letter-like character after): an apostrophe.
  q.each("'", (i) => {
    if (q.spaceBefore(i) || i + 1 >= q.text.length) return false;
    const next = q.at(i + 1)!;
    if (NOT_IN_WORD.has(next) || q.spaceAt(i + 1)) return false;
    if (q.has(i + 1, '&lt;') || q.has(i + 1, '&gt;')) return false;
    q.roles[i] = 'apostrophe';
    return true;
  });
  settleQuotations(q, "'", ENTITY.closeSingle);
}

/** Double quotes, after the single ones. */
function doubleQuotes(q: QuoteMarks): void {
  quotedNumbers(q, '"');
  // After a space, an opening bracket or a dash, and before something: an opening quote.
  q.each('"', (i) => {
    if (!q.startsAfter(i, DOUBLE_OPENERS) || q.spaceAt(i + 1)) return false;
    q.roles[i] = 'open';
    return true;
  });
  settleQuotations(q, '"', ENTITY.closeDouble);
  // Whatever double quote is left closes something.
  q.each('"', (i) => {
    q.roles[i] = 'close';
    return true;
  });
}

/** A number in quotes at the start or after a space: `'42'`, `"3.5"`. */
function quotedNumbers(q: QuoteMarks, mark: "'" | '"'): void {
  let from = 0;
  q.each(mark, (i) => {
    if (i < from || !(i === 0 || q.spaceBefore(i))) return false;
    const end = q.numberEnd(i + 1);
    if (end === -1 || !q.isMark(end, mark)) return false;
    q.roles[i] = 'open';
    q.roles[end] = 'close';
    from = end + 1;
    return true;
  });
}

/**
 * The marks still unassigned are closing quotes or primes (6' = six feet). They are settled per
 * stretch: the text after each opening mark up to the next one, and the text before the first.
 * In a stretch after an opening mark that has no closing mark yet, the places where the
 * quotation may end are weighed: if there are several, those not right after a digit close it,
 * or when each of them follows a digit, the one before a full stop (else the last one) closes it
 * and the others are primes. Everywhere else a mark right after a digit is a prime, and then a
 * mark where a quotation may end closes one.
 */
function settleQuotations(q: QuoteMarks, mark: "'" | '"', closing: string): void {
  const bounds = [-1];
  for (let i = 0; i < q.text.length; i++) {
    if (q.roles[i] === 'open' && q.text[i] === mark) bounds.push(i);
  }
  bounds.push(q.text.length);
  const afterDigit = (i: number) => isDigit(q.at(i - 1));
  for (let k = 0; k + 1 < bounds.length; k++) {
    const start = bounds[k] + 1;
    const end = bounds[k + 1];
    const marks: number[] = [];
    for (let i = start; i < end; i++) if (q.isMark(i, mark)) marks.push(i);
    if (!marks.length) continue;
    const unresolved = k > 0 && !closedWithin(q, start, end, closing);
    if (unresolved) {
      const enders = marks.filter((i) => q.endsAt(i + 1, end));
      if (enders.length > 1) {
        const free = enders.filter((i) => !afterDigit(i));
        if (free.length) {
          for (const i of free) q.roles[i] = 'close';
        } else {
          const beforeStop = enders.filter((i) => q.at(i + 1) === '.');
          q.roles[(beforeStop.length ? beforeStop : enders).at(-1)!] = 'close';
        }
      } else if (enders.length === 1) {
        q.roles[enders[0]] = 'close';
      }
      for (const i of marks) if (q.roles[i] === undefined && afterDigit(i)) q.roles[i] = 'prime';
      for (const i of enders) if (q.roles[i] === undefined) q.roles[i] = 'close';
      continue;
    }
    for (const i of marks) if (afterDigit(i)) q.roles[i] = 'prime';
    for (const i of marks) {
      if (q.roles[i] === undefined && q.endsAt(i + 1, end)) q.roles[i] = 'close';
    }
  }
}

/** Has the stretch a closing quote of the kind already (given a role, or typed as an entity)? */
function closedWithin(q: QuoteMarks, start: number, end: number, closing: string): boolean {
  for (let i = start; i < end; i++) {
    const role = q.roles[i];
    if (role === undefined) {
      if (q.text.startsWith(closing, i) && i + closing.length <= end) return true;
    } else if (role === 'close' && OUTPUT[q.text[i] as "'" | '"'].close === closing) {
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------------------ the rest

/** One run of text outside markup and verbatim elements. */
function typeset(text: string): string {
  let t = text;
  for (const [from, to] of FIXED) if (t.includes(from)) t = t.replaceAll(from, to);
  if (t.includes("'") || t.includes('"')) {
    const marks = new QuoteMarks(t);
    if (t.includes("'")) singleQuotes(marks);
    doubleQuotes(marks);
    t = marks.render();
  }
  if (t.includes('-')) t = dashes(t);
  // Only text with a digit-x-digit somewhere is looked at for dimensions at all, as in WordPress
  // (so `9,x34` alone stays, but not next to a `2x4`).
  if (hasDigitXDigit(t)) t = dimensions(t);
  return ampersands(t);
}

// ------------------------------------------------------------------------------ markup

/** Where the markup token starting at `i` (a `<`) ends: a comment at `-->`, a tag at `>`. */
function markupEnd(t: string, i: number): number {
  if (t.startsWith('<!--', i)) {
    const close = t.indexOf('-->', i + 2);
    return close === -1 ? t.length : close + 3;
  }
  const close = t.indexOf('>', i + 1);
  return close === -1 ? t.length : close + 1;
}

/**
 * Follows the verbatim elements a tag opens or closes. The name is what follows `<` or `</` up
 * to the first space, or up to the tag's last character; a closing tag only counts when it
 * closes the innermost open one.
 */
function trackVerbatim(tag: string, open: string[]): void {
  const closing = tag.length <= 1 || tag[1] === '/';
  if (closing && !open.length) return;
  const from = closing ? 2 : 1;
  const space = tag.indexOf(' ');
  const name = space === -1 ? tag.slice(from, -1) : tag.slice(from, Math.max(from, space));
  if (!VERBATIM.has(name)) return;
  if (!closing) open.push(name);
  else if (open.at(-1) === name) open.pop();
}

/** Typesets `text` outside tags, comments and verbatim elements. */
export function texturize(text: string): string {
  if (!text) return text;
  const open: string[] = [];
  let out = '';
  for (let i = 0; i < text.length;) {
    const lt = text.indexOf('<', i);
    const textEnd = lt === -1 ? text.length : lt;
    if (textEnd > i) {
      const run = text.slice(i, textEnd);
      out += open.length || phpTrim(run) === '' ? run : typeset(run);
    }
    if (lt === -1) break;
    const end = markupEnd(text, lt);
    const token = text.slice(lt, end);
    if (token.startsWith('<!--')) {
      out += token;
    } else {
      // A bare `&` in an attribute value is written as an entity too.
      const tag = ampersands(token);
      trackVerbatim(tag, open);
      out += tag;
    }
    i = end;
  }
  return out;
}
