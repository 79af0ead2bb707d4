import { threadCpuMs } from '../cpu.js';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DateTime } from 'luxon';
import {
  DATE_TEXT_PATTERNS,
  dateProblem,
  isValidDateTime,
  MAX_DATE_LENGTH,
  parseDateTime,
} from './strtotime.js';
import { eventWallClock } from './wall-clock.js';

interface GoldenCase {
  input: string;
  now_utc: string;
  timezone: string;
  local: string | false;
  utc: string | false;
}

const GOLDEN_PATH = path.join(__dirname, '../../../test/fixtures/strtotime-golden.json');
const golden = (JSON.parse(readFileSync(GOLDEN_PATH, 'utf8')) as { cases: GoldenCase[] }).cases;

const SQL = 'yyyy-MM-dd HH:mm:ss';

function utcDate(sql: string): Date {
  return DateTime.fromSQL(sql, { zone: 'UTC' }).toJSDate();
}

/** [local, utc] as the fixture writes them. */
function render(input: string, zone: string, now: Date): [string | false, string | false] {
  const result = parseDateTime(input, zone, now);
  return result ? [result.toFormat(SQL), result.toUTC().toFormat(SQL)] : [false, false];
}

describe('parseDateTime — PHP 8.2 golden data', () => {
  it('has the full fixture', () => {
    expect(golden).toHaveLength(976);
  });

  // Every case runs: PHP's local wall clock and UTC instant must both match, except where PHP
  // reads a repeated local time as its second occurrence (zones east of Greenwich): the service
  // reads it as the first, as RFC 5545 and every calendar application do (CONTRACT §9 "Time"),
  // an hour earlier.
  const repeatedSecond = (local: string | false, utc: string | false, zone: string) =>
    local !== false &&
    utc !== false &&
    DateTime.fromSQL(utc, { zone: 'UTC' }).minus({ hours: 1 }).setZone(zone).toFormat(SQL) ===
      local;
  it.each(golden.map((c, i) => [i + 1, c] as const))(
    'case %i: %j',
    (_index, { input, now_utc, timezone, local, utc }) => {
      const expected =
        repeatedSecond(local, utc, timezone) && !/[a-z]/i.test(input)
          ? DateTime.fromSQL(utc as string)
              .minus({ hours: 1 })
              .toFormat(SQL)
          : utc;
      expect({
        input,
        timezone,
        now_utc,
        result: render(input, timezone, utcDate(now_utc)),
      }).toEqual({ input, timezone, now_utc, result: [local, expected] });
    },
  );
});

describe('parseDateTime', () => {
  // Wednesday 2026-03-04 10:30 UTC.
  const now = utcDate('2026-03-04 10:30:00');
  const local = (input: string | number, zone = 'UTC', at = now) =>
    parseDateTime(input, zone, at)?.toFormat(SQL) ?? null;
  const utc = (input: string, zone: string) =>
    parseDateTime(input, zone, now)?.toUTC().toFormat(SQL) ?? null;

  it('reads all-digit strings and numbers as Unix timestamps', () => {
    expect(local('1700000000')).toBe('2023-11-14 22:13:20');
    expect(local(1700000000, 'America/New_York')).toBe('2023-11-14 17:13:20');
    expect(local('-86400')).toBe('1969-12-31 00:00:00');
    expect(local('+86400')).toBe('1970-01-02 00:00:00');
    expect(local(Number.NaN)).toBeNull();
  });

  it('reads database and ISO 8601 formats', () => {
    expect(local('2018-01-01 16:00:00', 'Europe/Budapest')).toBe('2018-01-01 16:00:00');
    expect(local('2018-01-01 16:00', 'Europe/Budapest')).toBe('2018-01-01 16:00:00');
    expect(local('2018-01-01')).toBe('2018-01-01 00:00:00');
    expect(local('2018-01-01T16:00:00+02:00')).toBe('2018-01-01 14:00:00');
    expect(local('2018-01-01T16:00:00.123Z', 'America/New_York')).toBe('2018-01-01 11:00:00');
    expect(local('2018-01-01T16:00:00', 'America/New_York')).toBe('2018-01-01 16:00:00');
  });

  it('is lenient with overflowing dates, as PHP is', () => {
    expect(local('2024-02-30')).toBe('2024-03-01 00:00:00');
    expect(local('2024-01-01 24:00:00')).toBe('2024-01-02 00:00:00');
  });

  it('rejects what PHP rejects', () => {
    for (const input of [
      '',
      '   ',
      'foo',
      'before my birthday',
      '"before my birthday"',
      'not a strtotime parsable string',
      '2024-13-01',
      'tomorrow 25:00',
    ]) {
      expect([input, parseDateTime(input, 'UTC', now)]).toEqual([input, null]);
    }
  });

  it('resolves relative words against now in the given zone', () => {
    expect(local('tomorrow 9am', 'America/New_York')).toBe('2026-03-05 09:00:00');
    expect(parseDateTime('tomorrow 9am', 'America/New_York', now)?.toUTC().toFormat(SQL)).toBe(
      '2026-03-05 14:00:00',
    );
    expect(local('yesterday 23:59')).toBe('2026-03-03 23:59:00');
    expect(local('+10 days')).toBe('2026-03-14 10:30:00');
    expect(local('+24 months')).toBe('2028-03-04 10:30:00');
  });

  it('counts "next <weekday>" from tomorrow, like PHP', () => {
    expect(local('next wednesday')).toBe('2026-03-11 00:00:00');
    expect(local('next thursday')).toBe('2026-03-05 00:00:00');
    expect(local('wednesday')).toBe('2026-03-04 00:00:00');
    expect(local('this wednesday')).toBe('2026-03-04 00:00:00');
    expect(local('second wednesday')).toBe('2026-03-18 00:00:00');
    expect(local('last wednesday')).toBe('2026-02-25 00:00:00');
  });

  it('implements "<ordinal> <weekday> of <month>"', () => {
    expect(local('first monday of january 2027')).toBe('2027-01-04 00:00:00');
    expect(local('third friday of next month')).toBe('2026-04-17 00:00:00');
    expect(local('last friday of next month')).toBe('2026-04-24 00:00:00');
    expect(local('last sunday of march 2026')).toBe('2026-03-29 00:00:00');
    expect(local('first sunday of march 2026 10:00')).toBe('2026-03-01 10:00:00');
    // "next month" from January 31st is still February.
    expect(local('first monday of next month', 'UTC', utcDate('2027-01-31 12:00:00'))).toBe(
      '2027-02-01 00:00:00',
    );
  });

  it('picks "<weekday> this week" in the Monday-based week', () => {
    const sunday = utcDate('2026-03-29 12:00:00');
    expect(local('saturday this week', 'UTC', sunday)).toBe('2026-03-28 00:00:00');
    expect(local('monday this week', 'UTC', sunday)).toBe('2026-03-23 00:00:00');
    expect(local('sunday this week', 'UTC', sunday)).toBe('2026-03-29 00:00:00');
    expect(local('friday next week', 'UTC', sunday)).toBe('2026-04-03 00:00:00');
    expect(local('this week friday')).toBe('2026-03-06 00:00:00');
  });

  it('honours a trailing IANA zone name', () => {
    expect(local('2026-05-01 10:00:00 Europe/Budapest', 'UTC')).toBe('2026-05-01 08:00:00');
    expect(local('tomorrow noon Asia/Tokyo', 'UTC')).toBe('2026-03-05 03:00:00');
  });

  it('handles DST gaps like PHP and overlaps as RFC 5545', () => {
    // A time skipped by the clock change moves forward by the gap.
    expect(local('2026-03-29 02:30:00', 'Europe/Budapest')).toBe('2026-03-29 03:30:00');
    expect(local('2026-03-08 02:30:00', 'America/New_York')).toBe('2026-03-08 03:30:00');
    // A repeated time: its first occurrence on both sides of Greenwich (RFC 5545; PHP takes the
    // second east of it, 01:30 in Budapest: CONTRACT §9 "Time").
    expect(utc('2026-11-01 01:30:00', 'America/New_York')).toBe('2026-11-01 05:30:00');
    expect(utc('2026-10-25 02:30:00', 'Europe/Budapest')).toBe('2026-10-25 00:30:00');
    expect(utc('2026-04-05 02:30:00', 'Australia/Sydney')).toBe('2026-04-04 15:30:00');
    // Independent of the current date (luxon's own guess uses today's offset).
    const summer = utcDate('2026-07-01 00:00:00');
    expect(parseDateTime('2026-11-01 01:30:00', 'America/New_York', summer)?.offset).toBe(-240);
  });

  it('accepts UTC±N zones', () => {
    const result = parseDateTime('2026-05-01 10:00:00', 'UTC+5.5', now);
    expect(result?.toUTC().toFormat(SQL)).toBe('2026-05-01 04:30:00');
  });

  it('throws on an unknown zone', () => {
    expect(() => parseDateTime('now', 'Mars/Olympus_Mons', now)).toThrow(RangeError);
  });

  it('leaves the global Date untouched', () => {
    const before = Date;
    parseDateTime('next monday', 'Europe/Budapest', now);
    expect(Date).toBe(before);
    expect(new Date(2026, 0, 1).getFullYear()).toBe(2026);
  });
});

describe('isValidDateTime', () => {
  it('accepts what strtotime() parses and rejects the rest', () => {
    expect(isValidDateTime('tomorrow 9am')).toBe(true);
    expect(isValidDateTime('1700000000')).toBe(true);
    expect(isValidDateTime(1700000000)).toBe(true);
    expect(isValidDateTime('2024-13-01')).toBe(false);
    expect(isValidDateTime('foo')).toBe(false);
    expect(isValidDateTime('')).toBe(false);
    expect(isValidDateTime(null)).toBe(false);
    expect(isValidDateTime({})).toBe(false);
  });

  it('rejects instants without a four-digit year, which cannot be stored', () => {
    expect(isValidDateTime('0000-00-00 00:00:00')).toBe(false);
    expect(isValidDateTime('-0001-01-01')).toBe(false);
    expect(isValidDateTime(-99999999999)).toBe(false);
    expect(isValidDateTime('0001-01-02 00:00:00')).toBe(true);
    expect(isValidDateTime('9999-12-30 23:59:59')).toBe(true);
    expect(isValidDateTime('9999-12-31 12:00:00')).toBe(false);
  });
});

/** Milliseconds of CPU `fn` takes (the best of three runs, so that one GC pause does not count; CPU time, so that a loaded machine does not count either). */
function cpuMs(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = threadCpuMs();
    fn();
    best = Math.min(best, threadCpuMs() - started);
  }
  return best;
}

// The outside security probe: each took 1-23 s of blocked event loop before the bound and the
// rewritten patterns (`"a" + 15,000 spaces + "!"` 1.7 s, 40 KB 9.6 s on this machine).
const PROBES: Record<string, string> = {
  'a + 15,000 spaces + !': `a${' '.repeat(15_000)}!`,
  'a + 40,000 spaces + !': `a${' '.repeat(40_000)}!`,
  'a + 80,000 spaces + !': `a${' '.repeat(80_000)}!`,
  'next week + 20,000 spaces': `next week${' '.repeat(20_000)}`,
  'next week + 20,000 spaces + !': `next week${' '.repeat(20_000)}!`,
  'saturday + 20,000 spaces': `saturday${' '.repeat(20_000)}`,
  '20,000 × "first mon of"': 'first mon of\n'.repeat(20_000),
  '20,000 × "a/"': `${'a/'.repeat(20_000)} `,
};

describe('parseDateTime bounds its input (outside security probe)', () => {
  const now = utcDate('2026-03-04 10:30:00');

  it.each(Object.entries(PROBES))('refuses %s at once', (_name, input) => {
    expect(input.length).toBeGreaterThan(MAX_DATE_LENGTH);
    expect(parseDateTime(input, 'Europe/Budapest', now)).toBeNull();
    expect(dateProblem(input)).toBe('too_long');
    expect(eventWallClock(input, 'UTC', now)).toBeNull();
    // Refused before parsing: the probe's inputs took 1.7-9.6 s; the bound leaves room for a busy machine.
    expect(cpuMs(() => parseDateTime(input, 'Europe/Budapest', now))).toBeLessThan(250);
  });

  it('reads text of exactly the maximum length, and refuses one character more', () => {
    const date = '2026-11-23 18:00';
    const padded = date.padEnd(MAX_DATE_LENGTH, ' ');
    expect(parseDateTime(padded, 'UTC', now)?.toFormat(SQL)).toBe('2026-11-23 18:00:00');
    expect(dateProblem(padded)).toBeNull();
    expect(parseDateTime(`${padded} `, 'UTC', now)).toBeNull();
    expect(dateProblem(`${padded} `)).toBe('too_long');
  });

  it('parses the worst text within the bound in well under 50 ms', () => {
    const fill = (unit: string, tail = '') =>
      unit.repeat(MAX_DATE_LENGTH).slice(0, MAX_DATE_LENGTH - tail.length) + tail;
    const worst = [
      fill(' ', '!'),
      `a ${'a'.repeat(MAX_DATE_LENGTH - 3)}!`,
      `a${' '.repeat(MAX_DATE_LENGTH - 2)}!`,
      fill('next week ', '!'),
      `next week${' '.repeat(MAX_DATE_LENGTH - 10)}!`,
      fill('first mon of '),
      fill('next '),
      fill('+1 day '),
      fill('sat this week '),
      fill('-'),
      fill('a/'),
      fill('1 ', 'Europe/Budapest'),
    ];
    for (const input of worst) {
      expect(input.length).toBeLessThanOrEqual(MAX_DATE_LENGTH);
      expect(cpuMs(() => parseDateTime(input, 'Europe/Budapest', now))).toBeLessThan(250);
    }
  });

  it('classifies refused dates for their messages', () => {
    expect(dateProblem('next friday 8pm')).toBeNull();
    expect(dateProblem('not a date')).toBe('unparseable');
    expect(dateProblem('0000-00-00')).toBe('out_of_range');
    expect(dateProblem(['2026-01-01'])).toBe('type');
    expect(dateProblem('x'.repeat(MAX_DATE_LENGTH + 1))).toBe('too_long');
  });
});

describe('the date patterns are linear', () => {
  // Long, repetitive text of the kinds that made backtracking patterns quadratic.
  const LONG = [
    ...Object.values(PROBES),
    ' '.repeat(50_000),
    `${'\t'.repeat(50_000)}x`,
    'next week '.repeat(5_000),
    `${'next week'.repeat(1)}${' \t'.repeat(20_000)}monday!`,
    `${'monday '.repeat(7_000)}!`,
    `${'first monday '.repeat(4_000)}x`,
    `${'1'.repeat(50_000)}x`,
    `2026-01-01T10:00:00${'0'.repeat(50_000)}x`,
    `${'Europe/'.repeat(7_000)}!`,
  ];

  it.each(Object.entries(DATE_TEXT_PATTERNS))(
    '%s runs on 50 KB of input in well under a second (quadratic took seconds)',
    (_name, pattern) => {
      for (const input of LONG) {
        expect(cpuMs(() => pattern.exec(input))).toBeLessThan(250);
      }
    },
  );

  it('still reads the week phrases with the rewritten pattern', () => {
    // Wednesday 2026-03-04.
    const now = utcDate('2026-03-04 10:30:00');
    const local = (input: string) => parseDateTime(input, 'UTC', now)?.toFormat(SQL);
    expect(local('saturday this week')).toBe('2026-03-07 00:00:00');
    expect(local('saturday   next week 18:00')).toBe('2026-03-14 18:00:00');
    expect(local('next week friday')).toBe('2026-03-13 00:00:00');
    expect(local('2026-05-01 10:00:00   Europe/Budapest')).toBe('2026-05-01 08:00:00');
  });
});

describe('parseDateTime of a text read again', () => {
  it('answers the same instant within a second and zone, and reads it anew after', () => {
    const at = new Date('2026-03-04T10:00:00.100Z');
    const first = parseDateTime('+3 days 18:00', 'UTC', at);
    expect(parseDateTime('+3 days 18:00', 'UTC', new Date('2026-03-04T10:00:00.900Z'))).toBe(first);
    expect(first?.toISO()).toBe('2026-03-07T18:00:00.000Z');
    // Another zone, another second: other readings.
    expect(parseDateTime('+3 days 18:00', 'Europe/Budapest', at)?.toISO()).toBe(
      '2026-03-07T18:00:00.000+01:00',
    );
    expect(parseDateTime('+1 second', 'UTC', new Date('2026-03-04T10:00:01.000Z'))?.toISO()).toBe(
      '2026-03-04T10:00:02.000Z',
    );
    expect(parseDateTime('+1 second', 'UTC', at)?.toISO()).toBe('2026-03-04T10:00:01.000Z');
    expect(parseDateTime('not a date', 'UTC', at)).toBeNull();
    expect(parseDateTime('not a date', 'UTC', at)).toBeNull();
  });
});
