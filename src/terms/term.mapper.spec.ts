import { toEmbeddedTerm, toTecTerm, type TermRecord } from './term.mapper.js';

const ctx = { siteUrl: 'http://site.test', restBase: 'http://site.test/hu/cal/events/v1' };
const category: TermRecord = {
  id: 7,
  taxonomy: 'cal_events_cat',
  name: 'Jazz &amp; Blues',
  slug: 'jazz-blues',
  description: 'Raw <em>text</em>',
  parent: 3,
  count: 2,
  language: 'hu',
  translationGroup: 7,
};
const tag: TermRecord = { ...category, id: 8, taxonomy: 'post_tag', slug: 'outdoor', parent: 0 };

describe('toTecTerm', () => {
  it('maps a category with its ancestors in the url and an up link', () => {
    const term = toTecTerm(category, ['arts', 'music'], ctx, { en: 5, hu: 7 });
    expect(term).toEqual({
      id: 7,
      count: 2,
      description: 'Raw <em>text</em>',
      name: 'Jazz &amp; Blues',
      slug: 'jazz-blues',
      taxonomy: 'cal_events_cat',
      parent: 3,
      meta: [],
      url: 'http://site.test/events/category/arts/music/jazz-blues/',
      urls: {
        self: 'http://site.test/hu/cal/events/v1/categories/7',
        collection: 'http://site.test/hu/cal/events/v1/categories',
        up: 'http://site.test/hu/cal/events/v1/categories/3',
      },
      language: 'hu',
      translations: { en: 5, hu: 7 },
    });
    expect(Object.keys(term)).toEqual([
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      'url',
      'urls',
      'language',
      'translations',
    ]);
  });

  it('maps a tag without parent; a term without loaded translations lists itself', () => {
    const term = toTecTerm(tag, [], ctx);
    expect('parent' in term).toBe(false);
    expect(term.translations).toEqual({ hu: 8 });
    expect(term.url).toBe('http://site.test/tag/outdoor/');
    expect(term.urls).toEqual({
      self: 'http://site.test/hu/cal/events/v1/tags/8',
      collection: 'http://site.test/hu/cal/events/v1/tags',
    });
  });
});

describe('toEmbeddedTerm', () => {
  it('keeps the raw record shape, with parent 0 on tags', () => {
    const term = toEmbeddedTerm(tag, ctx);
    expect(term).toEqual({
      name: 'Jazz &amp; Blues',
      slug: 'outdoor',
      term_group: 0,
      term_taxonomy_id: 8,
      taxonomy: 'post_tag',
      description: 'Raw <em>text</em>',
      parent: 0,
      count: 2,
      filter: 'raw',
      id: 8,
      urls: {
        self: 'http://site.test/hu/cal/events/v1/tags/8',
        collection: 'http://site.test/hu/cal/events/v1/tags',
      },
    });
    expect(Object.keys(toEmbeddedTerm(category, ctx)).at(-1)).toBe('urls');
  });
});
