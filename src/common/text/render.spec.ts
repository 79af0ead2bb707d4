import { memoizeText, renderContent, renderExcerpt, renderTitle } from './render.js';

describe('render', () => {
  it('renders titles: texturize and trim', () => {
    expect(renderTitle('  Rock & Roll  ')).toBe('Rock &#038; Roll');
    expect(renderTitle("Don't stop")).toBe('Don&#8217;t stop');
    expect(renderTitle('An event')).toBe('An event');
  });

  it('renders content: texturize, paragraphs, trim', () => {
    expect(renderContent('An event content')).toBe('<p>An event content</p>');
    expect(renderContent('Rock & Roll\n\nIt\'s "live"')).toBe(
      '<p>Rock &#038; Roll</p>\n<p>It&#8217;s &#8220;live&#8221;</p>',
    );
    expect(renderContent('')).toBe('');
  });

  it('renders excerpts like content; empty stays empty', () => {
    expect(renderExcerpt('')).toBe('');
    expect(renderExcerpt('An event excerpt')).toBe('<p>An event excerpt</p>');
  });

  it('gives the same answers from its memo', () => {
    const text = 'Rock & Roll\n\nIt\'s "live"';
    expect(renderContent(text)).toBe(renderContent(text));
    expect(renderTitle("Don't stop")).toBe('Don&#8217;t stop');
  });
});

describe('memoizeText', () => {
  it('computes an input once, keeps at most maxEntries and skips long inputs', () => {
    const fn = vi.fn((s: string) => s.toUpperCase());
    const memo = memoizeText(fn, 4, 10);
    expect(memo('a')).toBe('A');
    expect(memo('a')).toBe('A');
    expect(fn).toHaveBeenCalledTimes(1);
    for (const s of ['b', 'c', 'd', 'e']) memo(s);
    // Full at 4: the least recently used ('a') was dropped to make room for 'e'.
    fn.mockClear();
    expect(memo('e')).toBe('E');
    expect(memo('c')).toBe('C');
    expect(fn).not.toHaveBeenCalled();
    expect(memo('a')).toBe('A');
    expect(fn).toHaveBeenCalledTimes(1);
    const long = 'x'.repeat(11);
    memo(long);
    memo(long);
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('keeps at most maxChars characters of inputs and results, dropping the least recently used', () => {
    const fn = vi.fn((s: string) => s.toUpperCase());
    // Each 5-character input costs 10 (input and result): two fit in 25, not three.
    const memo = memoizeText(fn, 100, 10, 25);
    for (const s of ['aaaaa', 'bbbbb', 'aaaaa', 'ccccc']) memo(s);
    fn.mockClear();
    memo('aaaaa');
    memo('ccccc');
    expect(fn).not.toHaveBeenCalled();
    memo('bbbbb');
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
