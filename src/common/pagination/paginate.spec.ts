import { buildArchive, pageOf } from './paginate.js';

const base = {
  key: 'events',
  collectionUrl: 'http://x/cal/events/v1/events',
  query: { status: 'publish' },
};

describe('pageOf', () => {
  it('defaults to page 1 of 10 and clamps per_page', () => {
    expect(pageOf({}, 50)).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(pageOf({ page: 3, per_page: 500 }, 50)).toEqual({ page: 3, perPage: 50, offset: 100 });
  });

  it('keeps the offset of an enormous page within what SQL can bind', () => {
    expect(pageOf({ page: 2 ** 63, per_page: 50 }, 50).offset).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('buildArchive', () => {
  it('orders the post envelope keys and links pages', () => {
    const a = buildArchive({
      ...base,
      items: [1, 2],
      total: 25,
      page: pageOf({ page: 2 }, 50),
      layout: 'posts',
    });
    expect(Object.keys(a.body)).toEqual([
      'events',
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ]);
    expect(a.totalPages).toBe(3);
    const prev = new URL(a.body.previous_rest_url as string);
    expect(prev.pathname).toBe('/cal/events/v1/events/');
    expect(prev.searchParams.has('page')).toBe(false);
    expect(new URL(a.body.next_rest_url as string).searchParams.get('page')).toBe('3');
    expect(new URL(a.body.rest_url as string).searchParams.get('status')).toBe('publish');
  });

  it('has no links on a single page and zero pages when empty', () => {
    const a = buildArchive({ ...base, items: [], total: 0, page: pageOf({}, 50), layout: 'posts' });
    expect(a.body).toEqual({ events: [], rest_url: expect.any(String), total: 0, total_pages: 0 });
  });

  it('uses the term layout, with a previous link past the last page', () => {
    const a = buildArchive({
      ...base,
      key: 'tags',
      items: [],
      total: 3,
      page: pageOf({ page: 5 }, 50),
      layout: 'terms',
    });
    expect(Object.keys(a.body)).toEqual([
      'rest_url',
      'total',
      'total_pages',
      'tags',
      'previous_rest_url',
    ]);
  });
});
