/**
 * Typographic texturizing as WordPress's `wptexturize()` does it for English (BEHAVIOR §4.10):
 * curly quotes, apostrophes, primes, dashes, ellipsis, trademark, multiplication sign and bare
 * `&` → `&#038;`; markup, comments and code-like elements are left alone. Every pattern looks at
 * a bounded neighbourhood of the character it rewrites, so the cost is linear in the input.
 */
import { phpTrim } from './sanitize.js';

/** What counts as a space between words. */
const SP = '[\\r\\n\\t ]|\\u00a0|&nbsp;';

const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

// Markers used between passes, shaped like HTML comments so no later pattern touches them.
const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';

/** Elements whose content is never texturized. */
const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];

const COCKNEY = [
  "'tain't",
  "'twere",
  "'twas",
  "'tis",
  "'twill",
  "'til",
  "'bout",
  "'nuff",
  "'round",
  "'cause",
  "'em",
];

/** Literal replacements, applied in this order. */
const STATIC: [string, string][] = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((w): [string, string] => [w, w.replaceAll("'", APOS)]),
];

type Rule = [RegExp, string];

const APOS_RULES: Rule[] = [
  // A two-digit year closing a quotation: '99' and '99" (the year's mark is an apostrophe).
  [
    new RegExp(`'(\\d\\d)'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'),
    `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`,
  ],
  [
    new RegExp(`'(\\d\\d)"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'),
    `${APOS_FLAG}$1${CLOSING_QUOTE}`,
  ],
  // A two-digit year on its own ('99, '99s): an apostrophe; not before one or three digits,
  // a percent sign or a decimal part.
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  // A number in single quotes after a space or at the start.
  [new RegExp(`(?<=^|${SP})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // An opening single quote: at the start, or after a bracket, dash, double quote or space.
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SP})'`, 'g'), OPEN_SQ_FLAG],
  // Between letters of a word (not before a space, quote or punctuation): an apostrophe.
  [new RegExp(`(?<!${SP})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];

const QUOTE_RULES: Rule[] = [
  // A number in double quotes after a space or at the start.
  [new RegExp(`(?<=^|${SP})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  // An opening double quote: at the start or after a bracket, dash or space, followed by text.
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SP})"(?!${SP})`, 'g'), OPEN_Q_FLAG],
];

const DASH_RULES: Rule[] = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SP})--(?=$|${SP})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SP})-(?=$|${SP})`, 'g'), EN_DASH],
];

/** A bare `&` (not starting an entity) → `&#038;`. */
const AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Splits text from comments and tags (each kept as one delimiter). */
const SPLIT = /(<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?))/;

function applyRules(s: string, rules: Rule[]): string {
  return rules.reduce((acc, [re, replacement]) => acc.replace(re, replacement), s);
}

/** Keeps the stack of open no-texturize elements up to date for one tag. */
function pushPopElement(tag: string, stack: string[]): void {
  let opening: boolean;
  let offset: number;
  if (tag.length > 1 && tag[1] !== '/') {
    opening = true;
    offset = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    offset = 2;
  }
  const space = tag.indexOf(' ');
  const name = space === -1 ? tag.slice(offset, -1) : tag.slice(offset, Math.max(offset, space));
  if (!NO_TEXTURIZE_TAGS.includes(name)) return;
  if (opening) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}

/**
 * For each quotation opened by `openQuote`, decides whether a remaining `needle` after a digit
 * is a prime (9' = nine feet) or the quotation's closing mark.
 */
const PRIME_FLAG = '<!--wp-prime-or-quote-->';
const FLAG_AFTER_DIGIT = new RegExp(`(?<=\\d)${PRIME_FLAG}`, 'g');
const FLAG_NO_DIGIT = new RegExp(`(?<!\\d)${PRIME_FLAG}`, 'g');
/** Per quotation mark: where it may close a quotation, and where it follows a digit. */
const PRIME_PATTERNS = {
  "'": {
    quote: new RegExp(`'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'),
    prime: /(?<=\d)'/g,
  },
  '"': {
    quote: new RegExp(`"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'),
    prime: /(?<=\d)"/g,
  },
};

function texturizePrimes(
  haystack: string,
  needle: "'" | '"',
  prime: string,
  openQuote: string,
  closeQuote: string,
): string {
  const flag = PRIME_FLAG;
  const { quote: quotePattern, prime: primePattern } = PRIME_PATTERNS[needle];
  const flagAfterDigit = FLAG_AFTER_DIGIT;
  const flagNoDigit = FLAG_NO_DIGIT;

  const sentences = haystack.split(openQuote).map((sentence, key) => {
    if (!sentence.includes(needle)) return sentence;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(quotePattern, () => {
        count++;
        return flag;
      });
      if (count > 1) {
        // More than one place could close the quotation: one not after a digit wins, else one
        // before a full stop, else the last one; the rest are primes.
        let count2 = 0;
        sentence = sentence.replace(flagNoDigit, () => {
          count2++;
          return closeQuote;
        });
        if (count2 === 0) {
          const pos = sentence.includes(`${flag}.`)
            ? sentence.lastIndexOf(`${flag}.`)
            : sentence.lastIndexOf(flag);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + flag.length);
        }
        sentence = sentence.replace(primePattern, prime).replace(flagAfterDigit, prime);
        sentence = sentence.replaceAll(flag, closeQuote);
      } else if (count === 1) {
        sentence = sentence.replaceAll(flag, closeQuote).replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime).replace(quotePattern, closeQuote);
    }
    if (needle === '"') sentence = sentence.replaceAll('"', closeQuote);
    return sentence;
  });
  return sentences.join(openQuote);
}

/** Texturizes one run of text that is outside any tag and any no-texturize element. */
function texturizeText(text: string): string {
  let t = STATIC.reduce((acc, [from, to]) => acc.replaceAll(from, to), text);
  if (t.includes("'")) {
    t = applyRules(t, APOS_RULES);
    t = texturizePrimes(t, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
    t = t.replaceAll(APOS_FLAG, APOS).replaceAll(OPEN_SQ_FLAG, OPENING_SINGLE_QUOTE);
  }
  if (t.includes('"')) {
    t = applyRules(t, QUOTE_RULES);
    t = texturizePrimes(t, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
    t = t.replaceAll(OPEN_Q_FLAG, OPENING_QUOTE);
  }
  if (t.includes('-')) t = applyRules(t, DASH_RULES);
  // Dimensions such as 2x4 take a multiplication sign; hexadecimal like 0x1F does not. Each side
  // is at most 32 characters long, so a long run of digits costs no more than its length.
  if (/(?<=\d)x\d/.test(t)) t = markDimensions(t);
  return t.replace(AMPERSAND, '&#038;');
}

const isWordChar = (c: string | undefined) =>
  c !== undefined &&
  ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isNumberChar = (c: string | undefined) =>
  c !== undefined && ((c >= '0' && c <= '9') || c === '.' || c === ',');
const atWordEdge = (t: string, i: number) => isWordChar(t[i - 1]) !== isWordChar(t[i]);
/** Longest operand on either side of the `x`, so a long run of digits costs its length only. */
const MAX_OPERAND = 32;

/**
 * `2x4` → `2&#215;4` for dimensions, not hexadecimal (`0x1F`): a word that starts with a digit
 * (a leading 0 needs another digit or separator after it), then digits, `.` and `,` up to an `x`,
 * then a digit and more of the same up to the end of the word; each side at most 32 characters.
 * A single left-to-right pass that looks at most 33 characters ahead of each position.
 */
function markDimensions(t: string): string {
  let out = '';
  let copied = 0;
  let p = 0;
  while (p < t.length) {
    const first = t[p];
    if (first < '0' || first > '9' || !atWordEdge(t, p)) {
      p++;
      continue;
    }
    let q = p + 1;
    while (q < t.length && q - p <= MAX_OPERAND && isNumberChar(t[q])) q++;
    const leftOk = q - p <= MAX_OPERAND && (first !== '0' || q - p >= 2);
    if (!leftOk || t[q] !== 'x' || !(t[q + 1] >= '0' && t[q + 1] <= '9')) {
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
    out += t.slice(copied, q) + '&#215;' + t.slice(q + 1, r);
    copied = r;
    p = r;
  }
  return copied === 0 ? t : out + t.slice(copied);
}

/** Texturizes `text` outside tags, comments and no-texturize elements. */
export function texturize(text: string): string {
  if (!text) return text;
  const stack: string[] = [];
  return text
    .split(SPLIT)
    .filter((part) => part !== '')
    .map((part) => {
      if (part.startsWith('<')) {
        if (part.startsWith('<!--')) return part;
        // WordPress fixes bare `&` inside tags (attribute values) too.
        const tag = part.replace(AMPERSAND, '&#038;');
        pushPopElement(tag, stack);
        return tag;
      }
      if (phpTrim(part) === '' || stack.length > 0) return part;
      return texturizeText(part);
    })
    .join('');
}
