/**
 * WordPress `wptexturize()` (wp-includes/formatting.php), default English translations, without
 * shortcodes: curly quotes, apostrophes, primes, dashes, ellipsis, trademark, multiplication sign
 * and bare `&` → `&#038;` (BEHAVIOR §4.10). Patterns are ported one to one so the output matches
 * WordPress byte for byte; PHP's `\A`/`\Z` become `^`/`$` (equivalent here since every `\Z`
 * alternative also accepts a newline).
 */
import { phpTrim } from './sanitize.js';

/** `wp_spaces_regexp()`. */
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

// Placeholders WordPress uses between passes; they look like HTML comments on purpose.
const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';

/** Elements whose content is never texturized (`no_texturize_tags`). */
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

/** Plain string replacements, applied in order like PHP `str_replace()` with arrays. */
const STATIC: [string, string][] = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((w): [string, string] => [w, w.replaceAll("'", APOS)]),
];

type Rule = [RegExp, string];

const APOS_RULES: Rule[] = [
  // '99' and '99" are ambiguous among other patterns; assume an abbreviated year at the end of a quotation.
  [
    new RegExp(`'(\\d\\d)'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'),
    `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`,
  ],
  [
    new RegExp(`'(\\d\\d)"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'),
    `${APOS_FLAG}$1${CLOSING_QUOTE}`,
  ],
  // '99 '99s '99's (apostrophe), but never '9 or '99% or '999 or '99.0.
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  // Quoted numbers like '0.42'.
  [new RegExp(`(?<=^|${SP})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // Single quote at start, or preceded by (, {, <, [, ", -, or spaces.
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SP})'`, 'g'), OPEN_SQ_FLAG],
  // Apostrophe in a word. No spaces, double apostrophes, or other punctuation.
  [new RegExp(`(?<!${SP})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];

const QUOTE_RULES: Rule[] = [
  // Quoted numbers like "42".
  [new RegExp(`(?<=^|${SP})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  // Double quote at start, or preceded by (, {, <, [, -, or spaces, and not followed by spaces.
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

/** `_get_wptexturize_split_regex()`: HTML comments and elements, each one delimiter. */
const SPLIT = /(<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?))/;

function applyRules(s: string, rules: Rule[]): string {
  return rules.reduce((acc, [re, replacement]) => acc.replace(re, replacement), s);
}

/** `_wptexturize_pushpop_element()`: tracks open `no_texturize_tags` elements. */
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
 * `wptexturize_primes()`: decides, per quotation opened by `openQuote`, whether a remaining
 * `needle` after a digit is a prime (9' = nine feet) or a closing quote.
 */
function texturizePrimes(
  haystack: string,
  needle: string,
  prime: string,
  openQuote: string,
  closeQuote: string,
): string {
  const flag = '<!--wp-prime-or-quote-->';
  const quotePattern = new RegExp(`${needle}(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${needle}`, 'g');
  const flagAfterDigit = new RegExp(`(?<=\\d)${flag}`, 'g');
  const flagNoDigit = new RegExp(`(?<!\\d)${flag}`, 'g');

  const sentences = haystack.split(openQuote).map((sentence, key) => {
    if (!sentence.includes(needle)) return sentence;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(quotePattern, () => {
        count++;
        return flag;
      });
      if (count > 1) {
        // Several closing-quote candidates: prefer one not after a digit, then one before a period,
        // then the rightmost.
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
  // 9x9 (times), but never 0x9999 (PCRE's `\d(?(?<=0)[\d.,]+|[\d.,]*)` spelled out).
  if (/(?<=\d)x\d/.test(t)) {
    t = t.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2');
  }
  return t.replace(AMPERSAND, '&#038;');
}

/** WordPress `wptexturize()`. */
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
