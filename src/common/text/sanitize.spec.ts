import {
  asText,
  escapeHtml,
  excerptWords,
  phpTrim,
  stripAllTags,
  stripTags,
  termName,
} from './sanitize.js';
import { basicInlineHtml } from './html-filter.js';

describe('stripTags (strip_tags)', () => {
  it.each([
    ['<b>bold</b> text', 'bold text'],
    ['a <br/> b', 'a  b'],
    ['<a href="x>y">link</a>', 'link'],
    ['a < b', 'a < b'],
    ['x<!-- comment -->y', 'xy'],
    ['<p>unclosed', 'unclosed'],
    ['no tags', 'no tags'],
  ])('%s', (input, expected) => {
    expect(stripTags(input)).toBe(expected);
  });

  it('stripAllTags drops script and style content', () => {
    expect(stripAllTags(' <script>alert(1)</script>Hi<style>p{}</style> ')).toBe('Hi');
  });
});

describe('asText (sanitize_text_field)', () => {
  it.each([
    ['  Main   Street\n12\t\tA  ', 'Main Street 12 A'],
    ['<b>Main</b> Street', 'Main Street'],
    ['<script>x()</script>Road', 'Road'],
    ['5 < 6', '5 &lt; 6'],
    ['a <b', 'a &lt;b'],
    ['Tom & Jerry', 'Tom & Jerry'],
    ['50%off %41BC', '50%off BC'],
    ['', ''],
  ])('%j', (input, expected) => {
    expect(asText(input)).toBe(expected);
  });
});

describe('escapeHtml (esc_html)', () => {
  it('escapes the five special characters', () => {
    expect(escapeHtml(`a & b "c" 'd' <e>`)).toBe('a &amp; b &quot;c&quot; &#039;d&#039; &lt;e&gt;');
  });
  it('does not double-encode entities', () => {
    expect(escapeHtml('&amp; &#039; &#x27; &copy; & x')).toBe('&amp; &#039; &#x27; &copy; &amp; x');
  });
  it('escapes a URL with a query string', () => {
    expect(escapeHtml('http://example.com/?a=1&b=2')).toBe('http://example.com/?a=1&amp;b=2');
  });
});

describe('termName', () => {
  it.each([
    ['A & B', 'A &amp; B'],
    ['A &amp; B', 'A &amp; B'],
    ['  <b>Music</b>\n  Live ', 'Music Live'],
    ['x > y', 'x &gt; y'],
    ['5 < 6', '5 &lt; 6'],
    [`"Quoted" 'name'`, `"Quoted" 'name'`],
  ])('%j', (input, expected) => {
    expect(termName(input)).toBe(expected);
  });
});

describe('basicInlineHtml (wp_filter_kses with $allowedtags)', () => {
  it.each([
    ['plain text', 'plain text'],
    ['<strong>bold</strong> and <em>em</em>', '<strong>bold</strong> and <em>em</em>'],
    ['<p>para</p><div class="x">div</div>', 'paradiv'],
    ['<script>alert(1)</script>', 'alert(1)'],
    [
      '<a href="https://x.org/?a=1&b=2" title=\'T\' onclick="evil()" target=_blank>link</a>',
      '<a href="https://x.org/?a=1&amp;b=2" title="T">link</a>',
    ],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JaVaScRiPt&#58;alert(1)">x</a>', '<a>x</a>'],
    ['<a href="/relative/path:x">x</a>', '<a href="/relative/path:x">x</a>'],
    ['<a href="mailto:a@b.c">mail</a>', '<a href="mailto:a@b.c">mail</a>'],
    ['<B>Upper</B>', '<b>Upper</b>'],
    ['<b class="x">b</b>', '<b>b</b>'],
    ['<abbr title="HyperText" lang="en">HTML</abbr>', '<abbr title="HyperText">HTML</abbr>'],
    [
      '<q cite="https://a.b">q</q><del datetime="2020">d</del>',
      '<q cite="https://a.b">q</q><del datetime="2020">d</del>',
    ],
    [
      '<blockquote>quote</blockquote><cite>c</cite>',
      '<blockquote>quote</blockquote><cite>c</cite>',
    ],
    [
      '<code>x</code><s>s</s><strike>k</strike><i>i</i>',
      '<code>x</code><s>s</s><strike>k</strike><i>i</i>',
    ],
    ['<b/>', '<b></b>'],
    ['a < b > c', 'a &lt; b &gt; c'],
    ['Tom & Jerry &amp; co', 'Tom &amp; Jerry &amp; co'],
    ['x<!-- hidden -->y', 'xy'],
    ['<img src="x.png" alt="pic">caption', 'caption'],
    ['<a title="say &quot;hi&quot;">t</a>', '<a title="say &quot;hi&quot;">t</a>'],
    ['<a title=\'it "is"\'>t</a>', '<a title="it &quot;is&quot;">t</a>'],
    ['unclosed <b', 'unclosed &lt;b'],
  ])('%j', (input, expected) => {
    expect(basicInlineHtml(input)).toBe(expected);
  });
});

describe('excerptWords (wp_trim_words)', () => {
  it('keeps short texts whole, as plain text', () => {
    expect(excerptWords('<p>An <b>event</b>\n description</p>')).toBe('An event description');
  });
  it('cuts after 55 words by default and appends &hellip;', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i + 1}`);
    const out = excerptWords(`<p>${words.join(' ')}</p>`);
    expect(out).toBe(words.slice(0, 55).join(' ') + '&hellip;');
  });
  it('accepts another count and marker', () => {
    expect(excerptWords('one two three', 2, '')).toBe('one two');
    expect(excerptWords('one two', 2)).toBe('one two');
  });
});

describe('phpTrim', () => {
  it('trims PHP whitespace only', () => {
    expect(phpTrim(' \t\n\r\0\x0Bx\u00a0 ')).toBe('x\u00a0');
  });
});
