import { publicationDates, searchFragments } from './linked-inputs.js';

describe('searchFragments (BEHAVIOR §5.3)', () => {
  it('cuts at every character that is not a letter, a digit or -', () => {
    expect(searchFragments('france, ile de')).toEqual(['france', 'ile', 'de']);
    expect(searchFragments('Saint-Étienne 42_b')).toEqual(['Saint-Étienne', '42', 'b']);
    expect(searchFragments('!!!')).toEqual([]);
  });
});

describe('publicationDates (BEHAVIOR §7.4.1, §7.1.2)', () => {
  const now = new Date('2024-03-10T12:00:00Z');

  it('is null when no date is given', () => {
    expect(publicationDates({}, 'Europe/Budapest', now)).toBeNull();
  });

  it('reads date in the site zone and derives the UTC date', () => {
    expect(publicationDates({ date: '2024-07-01 10:00:00' }, 'Europe/Budapest', now)).toEqual({
      date: '2024-07-01 10:00:00',
      dateUtc: '2024-07-01 08:00:00',
    });
  });

  it('reads date_utc in UTC and derives the local date', () => {
    expect(publicationDates({ date_utc: '2024-01-01 10:00' }, 'Europe/Budapest', now)).toEqual({
      date: '2024-01-01 11:00:00',
      dateUtc: '2024-01-01 10:00:00',
    });
  });

  it('keeps both when both are given, and reads timestamps as instants', () => {
    expect(
      publicationDates(
        { date: '2024-01-01 00:00:00', date_utc: '2024-01-05 00:00:00' },
        'UTC',
        now,
      ),
    ).toEqual({ date: '2024-01-01 00:00:00', dateUtc: '2024-01-05 00:00:00' });
    expect(publicationDates({ date: '1700000000' }, 'Europe/Budapest', now)).toEqual({
      date: '2023-11-14 23:13:20',
      dateUtc: '2023-11-14 22:13:20',
    });
    expect(publicationDates({ date: 'tomorrow' }, 'UTC', now)?.date).toBe('2024-03-11 00:00:00');
  });
});
