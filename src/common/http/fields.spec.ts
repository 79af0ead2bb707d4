import { ApiError } from '../errors/api-error.js';
import { parseFields, pickFields } from './fields.js';

describe('_fields (WordPress rest_filter_response_fields)', () => {
  it('reads a comma or white-space list, or an array, and nothing as nothing', () => {
    expect(parseFields('id, title ,,venue.city')).toEqual({
      id: true,
      title: true,
      venue: { city: true },
    });
    expect(parseFields(['id', 'title'])).toEqual({ id: true, title: true });
    expect(parseFields(undefined)).toBeUndefined();
    expect(parseFields(' , ')).toBeUndefined();
  });

  it('lets a parent named whole win over its dotted children, in either order', () => {
    expect(parseFields('venue.city,venue')).toEqual({ venue: true });
    expect(parseFields('venue,venue.city')).toEqual({ venue: true });
    expect(parseFields('a.b.c,a.b')).toEqual({ a: { b: true } });
  });

  it('refuses more names, longer names or deeper names than it bounds', () => {
    const many = Array.from({ length: 101 }, (_, i) => `f${i}`).join(',');
    expect(() => parseFields(many)).toThrow(ApiError);
    expect(() => parseFields('x'.repeat(201))).toThrow(ApiError);
    expect(() => parseFields('a.b.c.d.e.f.g.h.i')).toThrow(ApiError);
    expect(() => parseFields({ id: 1 })).toThrow(ApiError);
  });

  it('keeps the named fields in the answer order, item by item in lists', () => {
    const answer = {
      events: [
        { id: 1, title: 'A', venue: { venue: 'Hall', city: 'Pécs' } },
        { id: 2, title: 'B', venue: [] },
      ],
      total: 2,
      rest_url: 'x',
    };
    expect(pickFields(answer, parseFields('total,events.venue.city,events.id')!)).toEqual({
      events: [
        { id: 1, venue: { city: 'Pécs' } },
        { id: 2, venue: [] },
      ],
      total: 2,
    });
    expect(pickFields(answer, parseFields('id')!)).toEqual({});
    expect(pickFields([{ a: 1, b: 2 }], parseFields('b')!)).toEqual([{ b: 2 }]);
    // A scalar where a dotted name expected an object stays as it is.
    expect(pickFields({ title: 'A' }, parseFields('title.rendered')!)).toEqual({ title: 'A' });
  });

  it('never takes a name from the prototype', () => {
    const tree = parseFields('constructor,__proto__,toString')!;
    expect(pickFields({ id: 1 }, tree)).toEqual({});
    const own = pickFields(JSON.parse('{"__proto__":{"x":1},"id":1}'), tree) as object;
    expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
    expect(Object.hasOwn(own, '__proto__')).toBe(true);
  });
});
