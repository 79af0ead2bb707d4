import { DateTime, IANAZone } from 'luxon';
import { isValidTimezone, timezoneAbbr, toLuxonZone, wallClockToDateTime } from './zones.js';

describe('isValidTimezone', () => {
  it.each([
    'Europe/Budapest',
    'America/New_York',
    'UTC',
    'UTC+2',
    'UTC-5',
    'UTC+5.5',
    'UTC+5.75',
    'UTC+0',
  ])('accepts %s', (tz) => {
    expect(isValidTimezone(tz)).toBe(true);
  });

  it.each(['', 'Mars/Olympus_Mons', 'UTC+', 'UTC+5.33', 'UTC+15', 'GMT+2x', 'utc+2', 'foo'])(
    'rejects %j',
    (tz) => {
      expect(isValidTimezone(tz)).toBe(false);
    },
  );

  it('rejects non-strings', () => {
    expect(isValidTimezone(undefined)).toBe(false);
    expect(isValidTimezone(2)).toBe(false);
  });
});

describe('toLuxonZone', () => {
  it('maps UTC±N[.F] to fixed offsets', () => {
    expect(toLuxonZone('UTC+5.5')?.offset(0)).toBe(330);
    expect(toLuxonZone('UTC+5.75')?.offset(0)).toBe(345);
    expect(toLuxonZone('UTC-5')?.offset(0)).toBe(-300);
    expect(toLuxonZone('UTC+0')?.offset(0)).toBe(0);
    expect(toLuxonZone('UTC')?.offset(0)).toBe(0);
  });

  it('maps IANA names to IANA zones', () => {
    const zone = toLuxonZone('Europe/Budapest');
    expect(zone?.name).toBe('Europe/Budapest');
    expect(zone?.offset(Date.UTC(2026, 6, 1))).toBe(120);
  });

  it('returns null for unknown zones', () => {
    expect(toLuxonZone('Mars/Olympus_Mons')).toBeNull();
  });
});

/** The UTC time, as `YYYY-MM-DD HH:MM:SS`, of a wall clock (written as a UTC epoch) in `tz`. */
function utcOf(wall: number, tz: string): string | undefined {
  return wallClockToDateTime(wall, toLuxonZone(tz)!)?.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}

describe('wallClockToDateTime', () => {
  it('places an ordinary wall clock in the zone', () => {
    expect(utcOf(Date.UTC(2026, 0, 15, 12), 'Europe/Budapest')).toBe('2026-01-15 11:00:00');
    expect(utcOf(Date.UTC(2026, 0, 15, 12), 'UTC+5.5')).toBe('2026-01-15 06:30:00');
  });

  it('moves a time in a DST gap forward, like PHP', () => {
    expect(utcOf(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Budapest')).toBe('2026-03-29 01:30:00');
    expect(utcOf(Date.UTC(2026, 2, 8, 2, 30), 'America/New_York')).toBe('2026-03-08 07:30:00');
  });

  it('reads a repeated time as its first occurrence on both sides of Greenwich (RFC 5545)', () => {
    // PHP reads the second east of Greenwich (01:30, 16:30); CONTRACT §9 "Time" says why not.
    expect(utcOf(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Budapest')).toBe('2026-10-25 00:30:00');
    expect(utcOf(Date.UTC(2026, 10, 1, 1, 30), 'America/New_York')).toBe('2026-11-01 05:30:00');
    expect(utcOf(Date.UTC(2026, 3, 5, 2, 30), 'Australia/Sydney')).toBe('2026-04-04 15:30:00');
    // Chatham: +13:45 to +12:45 at 03:45 local, so 03:15 occurs twice.
    expect(utcOf(Date.UTC(2026, 3, 5, 3, 15), 'Pacific/Chatham')).toBe('2026-04-04 13:30:00');
    // Not repeated: one offset fits.
    expect(utcOf(Date.UTC(2026, 9, 25, 3, 30), 'Europe/Budapest')).toBe('2026-10-25 02:30:00');
    expect(utcOf(Date.UTC(2026, 9, 25, 1, 30), 'Europe/Budapest')).toBe('2026-10-24 23:30:00');
  });

  it('moves a time in a gap forward on both sides of Greenwich', () => {
    expect(utcOf(Date.UTC(2026, 9, 4, 2, 30), 'Australia/Sydney')).toBe('2026-10-03 16:30:00');
    // Chatham: +12:45 to +13:45 at 02:45 local.
    expect(utcOf(Date.UTC(2026, 8, 27, 3, 0), 'Pacific/Chatham')).toBe('2026-09-26 14:15:00');
  });
});

describe('timezoneAbbr', () => {
  it.each([
    ['Europe/Budapest', '2026-01-15 12:00:00', 'CET'],
    ['Europe/Budapest', '2026-07-15 12:00:00', 'CEST'],
    ['America/New_York', '2026-01-15 12:00:00', 'EST'],
    ['America/New_York', '2026-07-15 12:00:00', 'EDT'],
    ['UTC', '2026-07-15 12:00:00', 'UTC'],
    ['UTC+2', '2026-07-15 12:00:00', 'UTC+2'],
    ['UTC-5', '2026-01-15 12:00:00', 'UTC-5'],
    ['UTC+5.5', '2026-01-15 12:00:00', 'UTC+5.5'],
    ['America/Sao_Paulo', '2026-01-15 12:00:00', '-03'],
    ['Asia/Dubai', '2026-07-15 12:00:00', '+04'],
    ['Asia/Kathmandu', '2026-07-15 12:00:00', '+0545'],
    ['Asia/Kolkata', '2026-07-15 12:00:00', 'IST'],
    ['Europe/London', '2026-01-15 12:00:00', 'GMT'],
    ['Europe/London', '2026-07-15 12:00:00', 'BST'],
    ['Australia/Sydney', '2026-01-15 12:00:00', 'AEDT'],
    ['America/Juneau', '2026-07-15 12:00:00', 'AKDT'],
    ['Asia/Tokyo', '2026-07-15 12:00:00', 'JST'],
    ['Etc/GMT+5', '2026-07-15 12:00:00', '-05'],
  ])('%s at %s is %s', (tz, local, abbr) => {
    expect(timezoneAbbr(tz, local)).toBe(abbr);
  });

  it('follows the local time across the DST change', () => {
    // Budapest springs forward at 02:00 local on 2026-03-29.
    expect(timezoneAbbr('Europe/Budapest', '2026-03-29 01:59:59')).toBe('CET');
    expect(timezoneAbbr('Europe/Budapest', '2026-03-29 03:00:00')).toBe('CEST');
  });

  it('accepts a DateTime', () => {
    const instant = DateTime.fromISO('2026-07-15T12:00:00Z');
    expect(timezoneAbbr('America/New_York', instant)).toBe('EDT');
  });

  it('returns an empty string for an unknown zone or time', () => {
    expect(timezoneAbbr('Mars/Olympus_Mons', '2026-07-15 12:00:00')).toBe('');
    expect(timezoneAbbr('Europe/Budapest', 'soon')).toBe('');
  });
});

describe('timezoneAbbr at a repeated local time', () => {
  it('uses the first occurrence, whatever the current date', () => {
    expect(timezoneAbbr('America/New_York', '2026-11-01 01:30:00')).toBe('EDT');
    expect(timezoneAbbr('Europe/Budapest', '2026-10-25 02:30:00')).toBe('CEST');
  });
});

describe('the offsets an IANA zone keeps', () => {
  it('are the offsets luxon works out, at any instant of any zone', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const name of ['Europe/Budapest', 'America/Sao_Paulo', 'Australia/Lord_Howe']) {
      const kept = toLuxonZone(name)!;
      const plain = IANAZone.create(name);
      for (let i = 0; i < 2_000; i++) {
        // Instants from 1900 to 2100, each asked twice (the second answer is the kept one).
        const ts = Math.floor(-2.2e12 + random() * 6.3e12);
        expect([name, ts, kept.offset(ts)]).toEqual([name, ts, plain.offset(ts)]);
        expect(kept.offset(ts)).toBe(plain.offset(ts));
      }
      expect(kept.equals(plain)).toBe(true);
      expect(kept.name).toBe(name);
    }
  });
});
