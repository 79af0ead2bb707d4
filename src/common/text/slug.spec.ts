import {
  MAX_SLUG_LENGTH,
  removeAccents,
  sanitizeTitle,
  slugSuffixCandidates,
  truncateSlug,
  uniqueSlug,
  utf8UriEncode,
} from './slug.js';

describe('sanitizeTitle (sanitize_title)', () => {
  it.each([
    // BEHAVIOR §7.1.8 and the brief
    ['Hello, World!', 'hello-world'],
    ['v1.0', 'v1-0'],
    ['Árvíztűrő tükörfúrógép', 'arvizturo-tukorfurogep'],
    ['ÁRVÍZTŰRŐ TÜKÖRFÚRÓGÉP', 'arvizturo-tukorfurogep'],
    ['Știință și țară', 'stiinta-si-tara'],
    ['Ştiinţă şi ţară (cedilla)', 'stiinta-si-tara-cedilla'],
    ['Brâncuși în Târgu Jiu', 'brancusi-in-targu-jiu'],
    ['Café & Bar: "Ő" napja', 'cafe-bar-o-napja'],
    // more WordPress behaviour
    ['Zürich Straße', 'zurich-strase'], // default locale: ß → s
    ['Crème brûlée à la française', 'creme-brulee-a-la-francaise'],
    ['<b>Bold</b> title', 'bold-title'],
    ['Tom &amp; Jerry', 'tom-jerry'],
    ['path/to/file', 'path-to-file'],
    ['snake_case  and   spaces', 'snake_case-and-spaces'],
    ['--dashes--', 'dashes'],
    ['A – B — C', 'a-b-c'],
    ['“Curly” ‘quotes’ … ™ ©', 'curly-quotes'],
    ['2×4', '2x4'],
    ['100% sure', '100-sure'],
    ['already%20encoded', 'already%20encoded'],
    ['Привет мир', '%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82-%d0%bc%d0%b8%d1%80'],
    ['東京 2024', '%e6%9d%b1%e4%ba%ac-2024'],
    ['Price €10', 'price-e10'],
    ['!!!', ''],
  ])('%s → %s', (input, expected) => {
    expect(sanitizeTitle(input)).toBe(expected);
  });

  it('uses the fallback when nothing is left', () => {
    expect(sanitizeTitle('???', '42')).toBe('42');
  });

  it('handles decomposed (NFD) accents like the precomposed ones', () => {
    expect(sanitizeTitle('Cafe\u0301')).toBe('cafe');
  });

  it('cuts long slugs to MAX_SLUG_LENGTH without splitting an encoded character', () => {
    expect(MAX_SLUG_LENGTH).toBe(190);
    expect(sanitizeTitle('a'.repeat(300))).toBe('a'.repeat(190));
    const cyrillic = sanitizeTitle('ж'.repeat(100)); // 6 characters of slug per letter
    expect(cyrillic).toBe('%d0%b6'.repeat(31));
    expect(sanitizeTitle('word '.repeat(60)).length).toBeLessThanOrEqual(190);
    expect(sanitizeTitle('word '.repeat(60)).endsWith('-')).toBe(false);
  });
});

describe('slug helpers', () => {
  it('removeAccents keeps ASCII and non-Latin text', () => {
    expect(removeAccents('plain')).toBe('plain');
    expect(removeAccents('Őrség ÆØÅ œ Ł £5')).toBe('Orseg AEOA oe L 5');
    expect(removeAccents('жук')).toBe('жук');
  });

  it('utf8UriEncode encodes non-ASCII with lower-case hex and respects the length', () => {
    expect(utf8UriEncode('aé')).toBe('a%c3%a9');
    expect(utf8UriEncode('aéb', 6)).toBe('a');
    expect(utf8UriEncode('😀')).toBe('%f0%9f%98%80');
  });

  it('truncateSlug drops trailing hyphens', () => {
    expect(truncateSlug('abc-def', 4)).toBe('abc');
    expect(truncateSlug('ab-', 10)).toBe('ab');
    expect(truncateSlug('a%c3%a9', 6)).toBe('a');
  });

  it('uniqueSlug appends -2, -3, …', () => {
    expect(uniqueSlug('event', new Set())).toBe('event');
    expect(uniqueSlug('event', new Set(['event']))).toBe('event-2');
    expect(uniqueSlug('event', new Set(['event', 'event-2', 'event-3']))).toBe('event-4');
    expect(uniqueSlug('', new Set(['']))).toBe('');
  });

  it('uniqueSlug keeps suffixed slugs within the maximum length', () => {
    const base = 'a'.repeat(MAX_SLUG_LENGTH);
    const slug = uniqueSlug(base, new Set([base]));
    expect(slug).toBe('a'.repeat(MAX_SLUG_LENGTH - 2) + '-2');
  });

  it('slugSuffixCandidates lists the candidates in order', () => {
    expect(slugSuffixCandidates('x', 4)).toEqual(['x', 'x-2', 'x-3', 'x-4']);
    expect(slugSuffixCandidates('x', 0)).toEqual([]);
  });
});
