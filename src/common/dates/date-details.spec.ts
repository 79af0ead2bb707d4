import { DateTime } from 'luxon';
import {
  dateDetails,
  formatSql,
  localToDateTime,
  localToUtc,
  toIso8601WithOffset,
  utcToLocal,
  ZERO_DATE,
} from './date-details.js';

describe('dateDetails', () => {
  it('splits a stored date-time into zero-padded strings', () => {
    expect(dateDetails('2017-01-05 14:23:36')).toEqual({
      year: '2017',
      month: '01',
      day: '05',
      hour: '14',
      minutes: '23',
      seconds: '36',
    });
  });

  it('reads a date alone as midnight', () => {
    expect(dateDetails('2017-01-05')).toMatchObject({ hour: '00', minutes: '00', seconds: '00' });
  });

  it('rejects other shapes', () => {
    expect(() => dateDetails('tomorrow')).toThrow(RangeError);
  });
});

describe('formatSql', () => {
  it('prints YYYY-MM-DD HH:MM:SS in the DateTime zone', () => {
    const dt = DateTime.fromISO('2024-07-04T09:05:03', { zone: 'America/New_York' });
    expect(formatSql(dt)).toBe('2024-07-04 09:05:03');
    expect(formatSql(dt.toUTC())).toBe('2024-07-04 13:05:03');
  });
});

describe('localToUtc / utcToLocal', () => {
  it('converts with the zone rules in force at that date', () => {
    expect(localToUtc('2026-01-15 12:00:00', 'Europe/Budapest')).toBe('2026-01-15 11:00:00');
    expect(localToUtc('2026-07-15 12:00:00', 'Europe/Budapest')).toBe('2026-07-15 10:00:00');
    expect(localToUtc('2026-03-05 09:00:00', 'America/New_York')).toBe('2026-03-05 14:00:00');
    expect(utcToLocal('2026-03-05 14:00:00', 'America/New_York')).toBe('2026-03-05 09:00:00');
    expect(utcToLocal('2026-07-15 10:00:00', 'Europe/Budapest')).toBe('2026-07-15 12:00:00');
  });

  it('uses fixed offsets for UTC±N zones', () => {
    expect(localToUtc('2026-01-15 12:00:00', 'UTC+5.5')).toBe('2026-01-15 06:30:00');
    expect(localToUtc('2026-01-15 12:00:00', 'UTC-5')).toBe('2026-01-15 17:00:00');
    expect(utcToLocal('2026-01-15 06:30:00', 'UTC+5.75')).toBe('2026-01-15 12:15:00');
  });

  it('moves a nonexistent local time forward, like PHP', () => {
    expect(localToUtc('2026-03-29 02:30:00', 'Europe/Budapest')).toBe('2026-03-29 01:30:00');
    expect(localToDateTime('2026-03-29 02:30:00', 'Europe/Budapest').toFormat('HH:mm')).toBe(
      '03:30',
    );
    expect(localToUtc('2026-03-08 02:30:00', 'America/New_York')).toBe('2026-03-08 07:30:00');
  });

  it('passes the WordPress zero date through', () => {
    expect(localToUtc(ZERO_DATE, 'Europe/Budapest')).toBe(ZERO_DATE);
    expect(utcToLocal(ZERO_DATE, 'Europe/Budapest')).toBe(ZERO_DATE);
  });

  it('rejects impossible dates and unknown zones', () => {
    expect(() => localToUtc('2026-02-30 10:00:00', 'UTC')).toThrow(RangeError);
    expect(() => localToUtc('2026-01-01 25:00:00', 'UTC')).toThrow(RangeError);
    expect(() => localToUtc('2026-01-01 10:00:00', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('toIso8601WithOffset', () => {
  it('prints the offset in force, +00:00 for UTC', () => {
    expect(toIso8601WithOffset('2024-07-14 12:00:00', 'UTC')).toBe('2024-07-14T12:00:00+00:00');
    expect(toIso8601WithOffset('2024-07-14 12:00:00', 'Europe/Budapest')).toBe(
      '2024-07-14T12:00:00+02:00',
    );
    expect(toIso8601WithOffset('2024-01-14 12:00:00', 'America/New_York')).toBe(
      '2024-01-14T12:00:00-05:00',
    );
    expect(toIso8601WithOffset('2024-01-14 12:00:00', 'UTC+5.75')).toBe(
      '2024-01-14T12:00:00+05:45',
    );
  });
});
