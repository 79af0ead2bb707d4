import { readFileSync } from 'node:fs';
import path from 'node:path';
import { texturize } from './texturize.js';

/**
 * 4,000 generated inputs (quotes, digits, dashes, entities, tags and spaces in random mixes) with
 * their recorded output: the behaviour is pinned, so any change to it shows here and has to be
 * meant.
 */
const GOLDEN = (
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../test/fixtures/texturize-golden.json'), 'utf8'),
  ) as { cases: Array<[string, string]> }
).cases;

describe('texturize (wptexturize)', () => {
  it.each([
    // BEHAVIOR §4.10 examples
    ["Don't", 'Don&#8217;t'],
    ['A & B', 'A &#038; B'],
    ['An event content', 'An event content'],
    // the example of the wptexturize() docblock
    [
      `'cause today's effort makes it worth tomorrow's "holiday" ...`,
      '&#8217;cause today&#8217;s effort makes it worth tomorrow&#8217;s &#8220;holiday&#8221; &#8230;',
    ],
    ['He said "Hello" to me', 'He said &#8220;Hello&#8221; to me'],
    ['"Quoted."', '&#8220;Quoted.&#8221;'],
    ["a 'single' word", 'a &#8216;single&#8217; word'],
    ["'Single at start'", '&#8216;Single at start&#8217;'],
    ['(the "word")', '(the &#8220;word&#8221;)'],
    ["back in '99", 'back in &#8217;99'],
    ['a 9" nail', 'a 9&#8243; nail'],
    ["it is 6' tall", 'it is 6&#8242; tall'],
    ['"42"', '&#8220;42&#8221;'],
    ['wait...', 'wait&#8230;'],
    ['a---b', 'a&#8212;b'],
    ['a -- b', 'a &#8212; b'],
    ['1--2', '1&#8211;2'],
    ['a - b', 'a &#8211; b'],
    ['well-known', 'well-known'],
    ['xn--domain', 'xn--domain'],
    ['Brand (tm)', 'Brand &#8482;'],
    ['Brand(tm)', 'Brand(tm)'],
    ['2x4 and 1024x768', '2&#215;4 and 1024&#215;768'],
    ['0x1F', '0x1F'],
    ['&amp; &#038; &#x26; &copy;', '&amp; &#038; &#x26; &copy;'],
    ['AT&T', 'AT&#038;T'],
  ])('%s', (input, expected) => {
    expect(texturize(input)).toBe(expected);
  });

  it('leaves tags alone but fixes a bare & in attributes, as WordPress does', () => {
    expect(texturize('<a href="/x?a=1&b=2" title="it\'s">Tom\'s</a>')).toBe(
      '<a href="/x?a=1&#038;b=2" title="it\'s">Tom&#8217;s</a>',
    );
  });

  it('does not texturize inside code, pre, kbd, tt, script, style', () => {
    expect(texturize(`<code>"a" -- b's & c</code> "d"`)).toBe(
      `<code>"a" -- b's & c</code> &#8220;d&#8221;`,
    );
    expect(texturize('<pre class="x">a -- b</pre>')).toBe('<pre class="x">a -- b</pre>');
    expect(texturize('<kbd>x...</kbd> y...')).toBe('<kbd>x...</kbd> y&#8230;');
  });

  it('leaves comments alone', () => {
    expect(texturize('<!-- "x" -- --> "y"')).toBe('<!-- "x" -- --> &#8220;y&#8221;');
  });

  it('returns empty input unchanged', () => {
    expect(texturize('')).toBe('');
  });

  it('matches the pinned behaviour on 4,000 generated inputs', () => {
    const wrong = GOLDEN.filter(([input, expected]) => texturize(input) !== expected);
    expect(
      wrong.slice(0, 5).map(([input, expected]) => ({ input, expected, got: texturize(input) })),
    ).toEqual([]);
    expect(GOLDEN).toHaveLength(4000);
  });
});
