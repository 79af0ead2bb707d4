import { normalizeWriteItems } from './term-items.js';

describe('normalizeWriteItems', () => {
  it('accepts lists and comma-separated strings, trimming and dropping empty items', () => {
    expect(normalizeWriteItems('tags', 'rock, jazz ,, 12')).toEqual(['rock', 'jazz', 12]);
    expect(normalizeWriteItems('tags', ['rock', 5, ' 7 ', 'a,b'])).toEqual([
      'rock',
      5,
      7,
      'a',
      'b',
    ]);
    expect(normalizeWriteItems('tags', 9)).toEqual([9]);
    expect(normalizeWriteItems('tags', { 0: 'x', 1: '2' })).toEqual(['x', 2]);
  });

  it('reads "", [] and null as no terms', () => {
    expect(normalizeWriteItems('tags', '')).toEqual([]);
    expect(normalizeWriteItems('tags', [])).toEqual([]);
    expect(normalizeWriteItems('tags', null)).toEqual([]);
  });

  it.each([[[{ name: 'X' }]], [[['a']]], [[null]], [[true]], [true], [{ name: 'X' }], [[NaN]]])(
    'rejects %j with rest_invalid_param on the field',
    (input) => {
      expect(() => normalizeWriteItems('categories', input)).toThrow(
        expect.objectContaining({
          code: 'rest_invalid_param',
          data: expect.objectContaining({ params: { categories: expect.anything() } }),
        }),
      );
    },
  );
});
