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

describe('formatSql and the ISO 8601 forms, written without toFormat', () => {
  // A fixed-seed generator: the same random date-times on every run.
  let seed = 53;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const ZONES = [
    'UTC',
    'Europe/Budapest',
    'Europe/Bucharest',
    'America/New_York',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'America/St_Johns',
    'Pacific/Chatham',
  ];
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');

  it('write what luxon toFormat writes, DST changes, odd offsets and years 1000-9999 included', () => {
    for (let i = 0; i < 3_000; i++) {
      const zone = ZONES[i % ZONES.length];
      const local = `${pad(1000 + Math.floor(random() * 9000), 4)}-${pad(1 + Math.floor(random() * 12))}-${pad(1 + Math.floor(random() * 28))} ${pad(Math.floor(random() * 24))}:${pad(Math.floor(random() * 60))}:${pad(Math.floor(random() * 60))}`;
      const dt = localToDateTime(local, zone);
      expect([local, zone, formatSql(dt)]).toEqual([
        local,
        zone,
        dt.toFormat('yyyy-MM-dd HH:mm:ss'),
      ]);
      expect([local, zone, toIso8601WithOffset(local, zone)]).toEqual([
        local,
        zone,
        dt.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ"),
      ]);
    }
  });

  it('leave to toFormat what it writes otherwise (another numbering system, an invalid date)', () => {
    const arab = DateTime.fromISO('2030-03-05T07:08:09', { zone: 'UTC', numberingSystem: 'arab' });
    expect(formatSql(arab)).toBe(arab.toFormat('yyyy-MM-dd HH:mm:ss'));
    expect(formatSql(arab)).not.toMatch(/^\d/);
    const invalid = DateTime.invalid('test');
    expect(formatSql(invalid)).toBe(invalid.toFormat('yyyy-MM-dd HH:mm:ss'));
  });
});
