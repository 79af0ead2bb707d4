import { threadCpuMs } from '../cpu.js';
import * as fc from 'fast-check';
import { RRule } from 'rrule';
import { expandSeries, type SeriesAnchor } from './expand.js';
import { parseRecurrence, parseRule, type Recurrence } from './rules.js';

const rec = (rules: string[], exdates: string[] = [], rdates: string[] = []): Recurrence => {
  const parsed = parseRecurrence({ rules, exdates, rdates });
  if (!parsed || 'key' in parsed) throw new Error(JSON.stringify(parsed));
  return parsed;
};
const expand = (r: Recurrence, anchor: SeriesAnchor, horizon = '2030-12-31 23:59:59') => {
  const out = expandSeries(r, anchor, { horizon });
  if ('key' in out) throw new Error(JSON.stringify(out));
  return out.occurrences;
};
const at = (start: string, end: string, zone: string, allDay = false): SeriesAnchor => ({
  start,
  end,
  zone,
  allDay,
});

describe('expandSeries: wall clocks across daylight-saving changes', () => {
  it.each([
    // zone, a week before the spring change, the UTC hour before and after it
    ['Europe/Budapest', '2027-03-22 19:00:00', '18:00:00', '17:00:00', '2027-03-29'],
    ['America/New_York', '2027-03-08 19:00:00', '00:00:00', '23:00:00', '2027-03-15'],
    ['Australia/Sydney', '2027-03-29 19:00:00', '08:00:00', '09:00:00', '2027-04-05'],
    ['Australia/Adelaide', '2027-03-29 19:00:00', '08:30:00', '09:30:00', '2027-04-05'],
    ['Asia/Kolkata', '2027-03-22 19:00:00', '13:30:00', '13:30:00', '2027-03-29'],
  ])('%s: 19:00 stays 19:00 local', (zone, start, utcBefore, utcAfter, secondDay) => {
    const end = `${start.slice(0, 10)} 21:00:00`;
    const occ = expand(rec(['FREQ=WEEKLY;COUNT=3']), at(start, end, zone));
    expect(occ.map((o) => o.start.slice(11))).toEqual(['19:00:00', '19:00:00', '19:00:00']);
    expect(occ.map((o) => o.end.slice(11))).toEqual(['21:00:00', '21:00:00', '21:00:00']);
    expect(occ[0].startUtc.slice(11)).toBe(utcBefore);
    expect(occ[1].start.slice(0, 10)).toBe(secondDay);
    expect(occ[1].startUtc.slice(11)).toBe(utcAfter);
  });

  it('keeps 19:00 in Budapest in November too (autumn change)', () => {
    const occ = expand(
      rec(['FREQ=DAILY;UNTIL=20271101']),
      at('2027-10-30 19:00:00', '2027-10-30 21:00:00', 'Europe/Budapest'),
    );
    expect(occ.map((o) => [o.start, o.startUtc])).toEqual([
      ['2027-10-30 19:00:00', '2027-10-30 17:00:00'],
      ['2027-10-31 19:00:00', '2027-10-31 18:00:00'],
      ['2027-11-01 19:00:00', '2027-11-01 18:00:00'],
    ]);
  });

  it('moves a time the spring change skips forward, its end alike, as every event does', () => {
    const occ = expand(
      rec(['FREQ=DAILY;COUNT=3']),
      at('2027-03-27 02:30:00', '2027-03-27 03:00:00', 'Europe/Budapest'),
    );
    expect(occ.map((o) => [o.start, o.end, o.startUtc, o.endUtc])).toEqual([
      ['2027-03-27 02:30:00', '2027-03-27 03:00:00', '2027-03-27 01:30:00', '2027-03-27 02:00:00'],
      ['2027-03-28 03:30:00', '2027-03-28 04:00:00', '2027-03-28 01:30:00', '2027-03-28 02:00:00'],
      // Only the occurrence in the gap moves: the next one is at 02:30 again.
      ['2027-03-29 02:30:00', '2027-03-29 03:00:00', '2027-03-29 00:30:00', '2027-03-29 01:00:00'],
    ]);
  });

  it('keeps all-day series all-day, spanning as many days as the event', () => {
    const occ = expand(
      rec(['FREQ=WEEKLY;COUNT=2']),
      at('2027-03-26 00:00:00', '2027-03-27 23:59:59', 'Europe/Budapest', true),
    );
    expect(occ.map((o) => [o.start, o.end])).toEqual([
      ['2027-03-26 00:00:00', '2027-03-27 23:59:59'],
      ['2027-04-02 00:00:00', '2027-04-03 23:59:59'],
    ]);
  });
});

describe('expandSeries: month ends and leap years', () => {
  const utc = at('2027-01-31 10:00:00', '2027-01-31 11:00:00', 'UTC');
  const days = (o: Array<{ start: string }>) => o.map((x) => x.start.slice(0, 10));

  it('BYMONTHDAY=31 skips the months without a 31st', () => {
    expect(days(expand(rec(['FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4']), utc))).toEqual([
      '2027-01-31',
      '2027-03-31',
      '2027-05-31',
      '2027-07-31',
    ]);
  });

  it('BYMONTHDAY=-1 is the last day of each month', () => {
    expect(days(expand(rec(['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4']), utc))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
    ]);
  });

  it('29 February comes every four years, and February of a leap year has 29 days', () => {
    const leap = at('2028-02-29 10:00:00', '2028-02-29 11:00:00', 'UTC');
    expect(days(expand(rec(['FREQ=YEARLY;COUNT=3']), leap))).toEqual([
      '2028-02-29',
      '2032-02-29',
      '2036-02-29',
    ]);
    const jan = at('2028-01-31 10:00:00', '2028-01-31 11:00:00', 'UTC');
    expect(days(expand(rec(['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=2']), jan))).toEqual([
      '2028-01-31',
      '2028-02-29',
    ]);
    // 2100 is no leap year.
    const c = at('2096-02-29 10:00:00', '2096-02-29 11:00:00', 'UTC');
    expect(days(expand(rec(['FREQ=YEARLY;COUNT=2']), c, '2200-01-01 00:00:00'))).toEqual([
      '2096-02-29',
      '2104-02-29',
    ]);
  });

  it('BYDAY ordinals and BYSETPOS', () => {
    const jan = at('2027-01-12 19:00:00', '2027-01-12 21:00:00', 'Europe/Budapest');
    expect(days(expand(rec(['FREQ=MONTHLY;BYDAY=2TU;COUNT=3']), jan))).toEqual([
      '2027-01-12',
      '2027-02-09',
      '2027-03-09',
    ]);
    const fri = at('2027-01-29 19:00:00', '2027-01-29 21:00:00', 'UTC');
    expect(days(expand(rec(['FREQ=MONTHLY;BYDAY=-1FR;COUNT=3']), fri))).toEqual([
      '2027-01-29',
      '2027-02-26',
      '2027-03-26',
    ]);
    expect(
      days(expand(rec(['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3']), fri)),
    ).toEqual(['2027-01-29', '2027-02-26', '2027-03-31']);
  });

  it('applies exclusion days, exclusion times and added dates', () => {
    const tue = at('2027-01-05 19:00:00', '2027-01-05 21:00:00', 'Europe/Budapest');
    const occ = expand(
      rec(
        ['FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270114'],
        ['2027-01-07', '2027-01-12 19:00'],
        ['2027-01-08 18:00'],
      ),
      tue,
    );
    expect(occ.map((o) => o.start)).toEqual([
      '2027-01-05 19:00:00',
      '2027-01-08 18:00:00',
      '2027-01-14 19:00:00',
    ]);
    expect(occ[1].end).toBe('2027-01-08 20:00:00');
  });
});

describe('expandSeries: bounds', () => {
  const a = at('2027-01-01 10:00:00', '2027-01-01 11:00:00', 'UTC');

  it('stops an unbounded series at its horizon', () => {
    const out = expandSeries(rec(['FREQ=DAILY']), a, { horizon: '2027-01-10 23:59:59' });
    expect('occurrences' in out && out.occurrences.length).toBe(10);
    expect('horizon' in out && out.horizon).toBe('2027-01-10 23:59:59');
  });

  it('refuses too many occurrences, too many steps and too much time, naming the bound', () => {
    expect(parseRule('FREQ=DAILY;COUNT=1001')).toEqual({
      key: 'recurrence.too_many_occurrences',
      args: { max: 1000 },
    });
    expect(expandSeries(rec(['FREQ=DAILY;UNTIL=20300101']), a, { horizon: '' })).toEqual({
      key: 'recurrence.too_many_occurrences',
      args: { max: 1000 },
    });
    const never = rec(['FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30']);
    const started = threadCpuMs();
    expect(expandSeries(never, a, { horizon: '2029-01-01 00:00:00' })).toEqual({
      key: 'recurrence.too_many_steps',
      args: { max: 20000 },
    });
    expect(threadCpuMs() - started).toBeLessThan(2000);
    expect(
      expandSeries(rec(['FREQ=DAILY;COUNT=10']), a, {
        horizon: '',
        limits: { occurrences: 1000, steps: 20000, ms: 0 },
      }),
    ).toEqual({ key: 'recurrence.too_slow', args: { max: 0 } });
  });
});

describe('expandSeries: series that start long ago (issue 44)', () => {
  const DENSE =
    'FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28';
  const horizon = '2028-12-31 23:59:59';

  it.each(['0001-01-03', '1000-01-01', '1900-01-01', '9000-01-01'])(
    'counts every occurrence from a start in %s, and refuses at the bound at once',
    (day) => {
      const a = at(`${day} 10:00:00`, `${day} 11:00:00`, 'Europe/Budapest');
      const started = threadCpuMs();
      const out = expandSeries(rec([DENSE]), a, {
        horizon: day > '2028' ? '9999-12-30 23:59:59' : horizon,
      });
      expect(out).toEqual({ key: 'recurrence.too_many_occurrences', args: { max: 1000 } });
      // Before: every year since the start was stepped (43,315 occurrences from 1900).
      expect(threadCpuMs() - started).toBeLessThan(1000);
    },
  );

  it('keeps a refusal cheap with ten dense rules from the year 1', () => {
    const rules = Array.from({ length: 10 }, (_, i) => `FREQ=DAILY;INTERVAL=${i + 1}`);
    const a = at('0001-01-03 10:00:00', '0001-01-03 11:00:00', 'UTC');
    const started = threadCpuMs();
    expect(expandSeries(rec(rules), a, { horizon })).toEqual({
      key: 'recurrence.too_many_occurrences',
      args: { max: 1000 },
    });
    expect(threadCpuMs() - started).toBeLessThan(2000);
  });

  it('stores an old series within the bound whole, from its start', () => {
    const a = at('1100-03-01 10:00:00', '1100-03-01 11:00:00', 'UTC');
    const out = expandSeries(rec(['FREQ=YEARLY']), a, { horizon });
    expect('occurrences' in out && out.occurrences.length).toBe(2028 - 1100 + 1);
    expect('occurrences' in out && out.occurrences[0].start).toBe('1100-03-01 10:00:00');
  });
});

describe('parseRule', () => {
  it.each([
    ['FREQ=HOURLY', 'recurrence.freq_unsupported'],
    ['FREQ=WEEKLY;BYHOUR=10', 'recurrence.part_unsupported'],
    ['FREQ=WEEKLY;COUNT=2;UNTIL=20270101', 'recurrence.count_and_until'],
    ['FREQ=WEEKLY;BYDAY=2TU', 'recurrence.byday_ordinal_freq'],
    ['FREQ=MONTHLY;BYDAY=6TU', 'recurrence.byday_ordinal'],
    ['FREQ=WEEKLY;BYMONTHDAY=3', 'recurrence.part_freq'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'recurrence.part_invalid'],
    ['FREQ=MONTHLY;BYSETPOS=1', 'recurrence.bysetpos_alone'],
    ['FREQ=DAILY;UNTIL=20270230', 'recurrence.until_invalid'],
    ['FREQ=DAILY;INTERVAL=0', 'recurrence.interval'],
    ['INTERVAL=2', 'recurrence.freq_missing'],
    ['FREQ=DAILY;FREQ=WEEKLY', 'recurrence.part_repeated'],
  ])('%s → %s', (text, key) => {
    expect(parseRule(text)).toMatchObject({ key });
  });
});

/**
 * Occurrence dates compared with an independent RFC 5545 implementation (rrule, a different
 * library from the one the product expands with) on generated rules whose start matches them.
 */
describe('expandSeries agrees with rrule on generated rules', () => {
  const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
  const rrDays = [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA, RRule.SU];
  const ruleArb = fc.oneof(
    fc.record({
      freq: fc.constant('DAILY' as const),
      interval: fc.integer({ min: 1, max: 5 }),
      byMonth: fc.option(
        fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
        { nil: undefined },
      ),
    }),
    fc.record({
      freq: fc.constant('WEEKLY' as const),
      interval: fc.integer({ min: 1, max: 4 }),
      byDay: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 }),
    }),
    fc.record({
      freq: fc.constant('MONTHLY' as const),
      interval: fc.integer({ min: 1, max: 3 }),
      byMonthDay: fc.option(
        fc.uniqueArray(
          fc.integer({ min: -31, max: 31 }).filter((n) => n !== 0),
          { minLength: 1, maxLength: 3 },
        ),
        { nil: undefined },
      ),
      ordinalDay: fc.option(
        fc.tuple(fc.constantFrom(1, 2, 3, 4, -1, -2), fc.integer({ min: 0, max: 6 })),
        { nil: undefined },
      ),
      setPos: fc.option(fc.constantFrom(1, -1, 2), { nil: undefined }),
    }),
    fc.record({
      freq: fc.constant('YEARLY' as const),
      interval: fc.integer({ min: 1, max: 4 }),
      byMonth: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }),
      byMonthDay: fc.option(
        fc.uniqueArray(
          fc.integer({ min: -28, max: 28 }).filter((n) => n !== 0),
          { minLength: 1, maxLength: 2 },
        ),
        { nil: undefined },
      ),
    }),
  );

  // Yearly month days stay within every month: a rule that never matches (30 February) makes
  // both libraries step to their bounds, seconds each.
  it('on 200 rules from 2027, with counts and until dates', { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(
        ruleArb,
        fc.date({
          min: new Date('2027-01-01T00:00:00Z'),
          max: new Date('2027-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 23 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 25 }),
        (r, day, hour, withCount, count) => {
          const parts = [`FREQ=${r.freq}`, `INTERVAL=${r.interval}`];
          const opts: Partial<ConstructorParameters<typeof RRule>[0]> = {
            freq: RRule[r.freq],
            interval: r.interval,
          };
          if ('byDay' in r) {
            parts.push(`BYDAY=${r.byDay.map((d) => days[d]).join(',')}`);
            opts.byweekday = r.byDay.map((d) => rrDays[d]);
          }
          if ('ordinalDay' in r && r.ordinalDay) {
            const [n, d] = r.ordinalDay;
            parts.push(`BYDAY=${n}${days[d]}`);
            opts.byweekday = [rrDays[d].nth(n)];
          }
          // A month day and a weekday of the month together rarely meet: one of them.
          const ordinal = 'ordinalDay' in r && r.ordinalDay;
          if ('byMonthDay' in r && r.byMonthDay && !ordinal) {
            parts.push(`BYMONTHDAY=${r.byMonthDay.join(',')}`);
            opts.bymonthday = r.byMonthDay;
          }
          if ('byMonth' in r && r.byMonth) {
            parts.push(`BYMONTH=${r.byMonth.join(',')}`);
            opts.bymonth = r.byMonth;
          }
          if ('setPos' in r && r.setPos && (opts.byweekday || opts.bymonthday)) {
            parts.push(`BYSETPOS=${r.setPos}`);
            opts.bysetpos = [r.setPos];
          }
          const start = new Date(
            Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour),
          );
          if (withCount) {
            parts.push(`COUNT=${count}`);
            opts.count = count;
            // rrule steps to the year 9999 looking for a date that never comes: a cap (the
            // rule is kept only when it reached its COUNT before it).
            opts.until = new Date(start.getTime() + 4 * 365 * 86_400_000);
          } else {
            // About four months: the product's library is thorough, not fast (≈0.3 ms an occurrence).
            const until = new Date(start.getTime() + 120 * 86_400_000);
            parts.push(`UNTIL=${until.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`);
            opts.until = until;
          }
          // The independent set: rrule's occurrences from the rule's first one (the product
          // always includes the event's own start, so the series starts where the rule does).
          const first = new RRule({ ...opts, dtstart: start }).all((_, i) => i < 1)[0];
          fc.pre(first !== undefined);
          const theirs = new RRule({ ...opts, dtstart: first }).all((_, i) => i < 1001);
          const iso = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
          const startSql = iso(first);
          fc.pre(theirs.length <= 1000 && (!withCount || theirs.length === count));
          const anchor = at(startSql, startSql, 'UTC');
          const ours = expandSeries(rec([parts.join(';')]), anchor, { horizon: '' });
          if ('key' in ours) throw new Error(`${parts.join(';')}: ${ours.key}`);
          expect([parts.join(';'), ours.occurrences.map((o) => o.start)]).toEqual([
            parts.join(';'),
            theirs.map(iso),
          ]);
        },
      ),
      { numRuns: 200, seed: 34 },
    );
  });
});
