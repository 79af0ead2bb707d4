import { INVALID, isDeepEmpty, parseReferences } from './linked-references.js';

describe('parseReferences (BEHAVIOR §7.1.3)', () => {
  const venue = (input: unknown) => parseReferences(input, { csv: false });
  const organizer = (input: unknown) => parseReferences(input, { csv: true });

  it.each([undefined, null, '', 0, '0', [], {}, [0, ''], { venue: '' }, false, '  '])(
    'reads %p as no reference',
    (input) => {
      expect(venue(input)).toEqual([]);
    },
  );

  it('reads ids as numbers, numeric strings and {id}', () => {
    expect(venue(5)).toEqual([{ id: 5 }]);
    expect(venue('7')).toEqual([{ id: 7 }]);
    expect(venue({ id: '9', venue: 'ignored' })).toEqual([{ id: 9 }]);
    expect(venue([12])).toEqual([{ id: 12 }]);
  });

  it('reads objects without id as fields to create from', () => {
    expect(venue({ venue: 'Hall', city: 'Pécs' })).toEqual([
      { fields: { venue: 'Hall', city: 'Pécs' } },
    ]);
  });

  it('rejects what is no reference', () => {
    for (const input of ['foo', -3, 1.5, true, [[1]], { id: 'x' }, '1,2']) {
      expect(venue(input)).toBe(INVALID);
    }
  });

  it('reads organizer lists and comma-separated ids in order', () => {
    expect(organizer('3, 1,,2')).toEqual([{ id: 3 }, { id: 1 }, { id: 2 }]);
    expect(organizer([4, { id: 5 }, { organizer: 'Ann' }])).toEqual([
      { id: 4 },
      { id: 5 },
      { fields: { organizer: 'Ann' } },
    ]);
    expect(organizer('1,x')).toBe(INVALID);
  });

  it('knows deep emptiness', () => {
    expect(isDeepEmpty({ a: [], b: { c: '' } })).toBe(true);
    expect(isDeepEmpty({ a: 'x' })).toBe(false);
  });
});
