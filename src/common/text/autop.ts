/**
 * WordPress `wpautop()` (wp-includes/formatting.php) with `$br = true`, ported rule by rule
 * (BEHAVIOR §4.10): blank-line separated blocks become `<p>…</p>`, single newlines `<br />`,
 * block-level elements are not wrapped, `<pre>` content and newlines inside tags are untouched.
 * PHP's `\s` is ASCII-only, so it is spelled out as `S` (JS `\s` would also match NBSP).
 */

import { phpTrim } from './sanitize.js';

const S = '[ \\t\\n\\v\\f\\r]';

const ALLBLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|' +
  'area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|' +
  'header|footer|nav|figure|figcaption|details|menu|summary)';

const re = (source: string, flags = 'g') => new RegExp(source, flags);

/** `get_html_split_regex()`: comments, CDATA sections and elements, each one delimiter. */
const HTML_SPLIT =
  /(<(?:(?=!--|!\[CDATA\[)(?:(?=!-)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!-)!\[CDATA\[[^\]]*(?:\](?!\]>)[^\]]*)*(?:\]\]>)?)|(?!!--|!\[CDATA\[)[^>]*>?))/;

/** `wp_replace_in_html_tags()` for a single needle: replaces only inside tags and comments. */
function replaceInHtmlTags(haystack: string, needle: string, replacement: string): string {
  return haystack
    .split(HTML_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part.replaceAll(needle, replacement) : part))
    .join('');
}

/** Rules applied in order; each is `preg_replace(pattern, replacement)`. */
const BEFORE_SPLIT: [RegExp, string][] = [
  // Several <br>s in a row become a paragraph break.
  [re(`<br${S}*/?>${S}*<br${S}*/?>`), '\n\n'],
  // Double line break above block-level opening tags and below closing ones (and after <hr>).
  [re(`(<${ALLBLOCKS}[ \\t\\n\\v\\f\\r/>])`), '\n\n$1'],
  [re(`(</${ALLBLOCKS}>)`), '$1\n\n'],
  [re(`(<hr${S}*?/?>)`), '$1\n\n'],
];

const AFTER_WRAP: [RegExp, string][] = [
  // Under certain strange conditions it could create a P of entirely whitespace.
  [re(`<p>${S}*</p>`), ''],
  // Add a closing <p> inside <div>, <address>, or <form> tag if missing.
  [/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>'],
  // An opening or closing block element tag wrapped in a <p>: unwrap it.
  [re(`<p>${S}*(</?${ALLBLOCKS}[^>]*>)${S}*</p>`), '$1'],
  // In some cases <li> may get wrapped in <p>.
  [/<p>(<li.+?)<\/p>/g, '$1'],
  // A <blockquote> wrapped in a <p>: move the <p> inside.
  [/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>'],
  [/<\/blockquote><\/p>/g, '</p></blockquote>'],
  // Block tags preceded by an opening <p> or followed by a closing </p>: drop the <p>.
  [re(`<p>${S}*(</?${ALLBLOCKS}[^>]*>)`), '$1'],
  [re(`(</?${ALLBLOCKS}[^>]*>)${S}*</p>`), '$1'],
];

/**
 * `preg_replace('|(?<!<br />)\s*\n|', "<br />\n", …)` without its quadratic cost on long runs of
 * spaces: in each whitespace run, everything from the run's start (its second character when the
 * run follows `<br />`) to its last newline becomes one `<br />\n`.
 */
function newlinesToBr(text: string): string {
  return text.replace(/[ \t\n\v\f\r]+/g, (run: string, offset: number) => {
    const last = run.lastIndexOf('\n');
    const start = text.slice(Math.max(0, offset - 6), offset) === '<br />' ? 1 : 0;
    if (last < start) return run;
    return run.slice(0, start) + '<br />\n' + run.slice(last + 1);
  });
}

/**
 * WordPress `wpautop()`. WordPress ends the result with a newline; it is dropped here because
 * every caller trims (`"An event content"` → `"<p>An event content</p>"`).
 */
export function autop(input: string): string {
  if (phpTrim(input) === '') return '';
  let text = input + '\n';

  // <pre> blocks are set aside and restored at the end.
  const preTags = new Map<string, string>();
  if (text.includes('<pre')) {
    const parts = text.split('</pre>');
    const last = parts.pop() ?? '';
    text = '';
    for (const part of parts) {
      const start = part.indexOf('<pre');
      if (start === -1) {
        text += part; // malformed HTML
        continue;
      }
      const name = `<pre wp-pre-tag-${preTags.size}></pre>`;
      preTags.set(name, part.slice(start) + '</pre>');
      text += part.slice(0, start) + name;
    }
    text += last;
  }

  for (const [pattern, replacement] of BEFORE_SPLIT) text = text.replace(pattern, replacement);
  text = text.replace(/\r\n|\r/g, '\n');
  // Newlines inside tags are protected by a placeholder.
  text = replaceInHtmlTags(text, '\n', ' <!-- wpnl --> ');

  // Collapse line breaks around <option>, <param>/<embed>, <source>/<track> and <figcaption>.
  if (text.includes('<option')) {
    text = text.replace(re(`${S}*<option`), '<option').replace(re(`</option>${S}*`), '</option>');
  }
  if (text.includes('</object>')) {
    text = text
      .replace(re(`(<object[^>]*>)${S}*`), '$1')
      .replace(re(`${S}*</object>`), '</object>')
      .replace(re(`${S}*(</?(?:param|embed)[^>]*>)${S}*`), '$1');
  }
  if (text.includes('<source') || text.includes('<track')) {
    text = text
      .replace(re(`([<\\[](?:audio|video)[^>\\]]*[>\\]])${S}*`), '$1')
      .replace(re(`${S}*([<\\[]/(?:audio|video)[>\\]])`), '$1')
      .replace(re(`${S}*(<(?:source|track)[^>]*>)${S}*`), '$1');
  }
  if (text.includes('<figcaption')) {
    text = text
      .replace(re(`${S}*(<figcaption[^>]*>)`), '$1')
      .replace(re(`</figcaption>${S}*`), '</figcaption>');
  }

  text = text.replace(/\n\n+/g, '\n\n');
  text = text
    .split(re(`\\n${S}*\\n`, ''))
    .filter((block) => block !== '')
    .map((block) => `<p>${block.replace(/^\n+|\n+$/g, '')}</p>\n`)
    .join('');

  for (const [pattern, replacement] of AFTER_WRAP) text = text.replace(pattern, replacement);

  // Remaining newlines become <br />, except inside script/style/svg/math.
  text = text.replace(/<(script|style|svg|math)[\s\S]*?<\/\1>/g, (m) =>
    m.replaceAll('\n', '<WPPreserveNewline />'),
  );
  text = text.replaceAll('<br>', '<br />').replaceAll('<br/>', '<br />');
  text = newlinesToBr(text);
  text = text.replaceAll('<WPPreserveNewline />', '\n');

  // No <br /> right after a block tag, or right before some of them.
  text = text.replace(re(`(</?${ALLBLOCKS}[^>]*>)${S}*<br />`), '$1');
  text = text.replace(re(`<br />(${S}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`), '$1');
  // PHP's `$` also matches before a final newline.
  text = text.replace(/\n<\/p>(?=\n?$)/, '</p>');

  if (preTags.size > 0) {
    text = text.replace(/<pre wp-pre-tag-\d+><\/pre>/g, (name) => preTags.get(name) ?? name);
  }
  if (text.includes('<!-- wpnl -->')) {
    text = text.replaceAll(' <!-- wpnl --> ', '\n').replaceAll('<!-- wpnl -->', '\n');
  }
  return text.replace(/\n$/, '');
}
