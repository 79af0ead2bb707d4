import { idsOf, isDescending, parseOrderBy } from './term-filters.js';

describe('parseOrderBy', () => {
  it.each([
    [undefined, 'name'],
    ['name', 'name'],
    ['NAME', 'name'],
    ['id', 'id'],
    ['term_id', 'id'],
    ['slug', 'slug'],
    ['description', 'description'],
    ['count', 'count'],
    ['parent', 'parent'],
    ['term_group', 'none'],
    ['none', 'none'],
    ['include_slugs', 'name'],
    ['taxonomy', 'name'],
    ['whatever', 'name'],
  ])('%s sorts by %s', (orderby, key) => {
    expect(parseOrderBy(orderby, false)).toEqual({ key });
  });

  it('orders by the include list only when there is one', () => {
    expect(parseOrderBy('include', true)).toEqual({ key: 'include' });
    expect(parseOrderBy('include', false)).toEqual({ key: 'name' });
  });
});

describe('isDescending', () => {
  it('is ascending by default and for asc in any case, descending otherwise', () => {
    expect(isDescending(undefined)).toBe(false);
    expect(isDescending('asc')).toBe(false);
    expect(isDescending('ASC')).toBe(false);
    expect(isDescending('desc')).toBe(true);
    expect(isDescending('sideways')).toBe(true);
  });
});

describe('idsOf', () => {
  it('keeps the numeric items once: slugs select nothing', () => {
    expect(idsOf([3, 'music', 1, 3])).toEqual([3, 1]);
    expect(idsOf(['music'])).toEqual([]);
  });
});
