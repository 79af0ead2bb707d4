import { threadCpuMs } from '../common/cpu.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliMessages } from '../config/messages.js';
import { readIcs } from './ics-parse.js';
import { said, type Reason } from './messages.js';

const FIXTURES = join(__dirname, '../../test/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const WINDOW = { from: new Date('2027-01-01T00:00:00Z'), to: new Date('2028-01-01T00:00:00Z') };
/** The reasons in English (the CLI shows them in the operator's language). */
const english = (reason: Reason) => said(reason, cliMessages('en').t);
const problems = (text: string, bounds = { steps: 20_000, ms: 60_000, totalMs: 60_000 }) =>
  readIcs(text, WINDOW, bounds)
    .items.filter((i) => i.problem)
    .map((i) => ({ id: i.id, title: i.title, problem: english(i.problem!) }));
const calendar = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
const vevent = (uid: string, start: string, ...more: string[]) => [
  `UID:${uid}`,
  `DTSTART${start}`,
  `SUMMARY:${uid}`,
  ...more,
];

describe('readIcs: a recurring VEVENT is one series (CONTRACT §9)', () => {
  it('keeps RRULE, EXDATE and RDATE local to the series, and a changed occurrence as its own event', () => {
    const text = fixture('ics/outlook.ics');
    const uid = /UID:(040000008200E0[0-9A-F]+)/.exec(text)![1];
    const { items } = readIcs(text, WINDOW);
    const board = items.filter((i) => i.title.startsWith('Board meeting'));
    expect(board.map((i) => [i.id, i.body?.start_date])).toEqual([
      [uid, '2027-01-05 10:00:00'],
      // Keyed on the original start in UTC, as the occurrences of earlier imports were.
      [`${uid}@2027-03-02 09:00:00`, '2027-03-02 14:00:00'],
    ]);
    expect(board[0].body).toMatchObject({
      timezone: 'Europe/Berlin',
      recurrence: {
        rules: ['FREQ=MONTHLY;UNTIL=20270701T000000Z;BYDAY=1TU'],
        // The EXDATE, and the start the changed occurrence replaces, in the series' zone.
        exdates: ['2027-02-02 10:00:00', '2027-03-02 10:00:00'],
        rdates: [],
      },
    });
    expect(board[1].body).toMatchObject({
      title: 'Board meeting (moved)',
      timezone: 'Europe/Berlin',
    });
    expect(board[1].body).not.toHaveProperty('recurrence');
  });

  it('keeps all-day series in dates, and added dates in the zone of the series', () => {
    const { items } = readIcs(
      calendar(
        vevent(
          'allday@t',
          ';VALUE=DATE:20270105',
          'DTEND;VALUE=DATE:20270106',
          'RRULE:FREQ=WEEKLY;COUNT=5',
          'EXDATE;VALUE=DATE:20270112',
          'RDATE;VALUE=DATE:20270107,20270108',
        ),
        vevent(
          'zoned@t',
          ';TZID=Europe/Budapest:20270105T190000',
          'DTEND;TZID=Europe/Budapest:20270105T210000',
          'RRULE:FREQ=DAILY;UNTIL=20270110T180000Z',
          // 17:00Z is 18:00 in Budapest; a PERIOD counts by its start; a date takes the series' time.
          'RDATE:20270120T170000Z',
          'RDATE;VALUE=PERIOD:20270121T170000Z/PT1H',
          'RDATE;VALUE=DATE:20270122',
          'EXDATE:20270106T180000Z',
        ),
      ),
      WINDOW,
    );
    expect(items.map((i) => [i.id, i.body?.recurrence])).toEqual([
      [
        'allday@t',
        {
          rules: ['FREQ=WEEKLY;COUNT=5'],
          exdates: ['2027-01-12'],
          rdates: ['2027-01-07', '2027-01-08'],
        },
      ],
      [
        'zoned@t',
        {
          rules: ['FREQ=DAILY;UNTIL=20270110T180000Z'],
          exdates: ['2027-01-06 19:00:00'],
          rdates: ['2027-01-20 18:00:00', '2027-01-21 18:00:00', '2027-01-22'],
        },
      ],
    ]);
  });

  it('refuses, per event, the rules the strict reader refuses, and their changed occurrences', () => {
    const text = calendar(
      vevent('hourly@t', ':20270105T100000Z', 'RRULE:FREQ=HOURLY;COUNT=3'),
      vevent('byhour@t', ':20270105T100000Z', 'RRULE:FREQ=DAILY;BYHOUR=10,12;COUNT=3'),
      vevent(
        'exrule@t',
        ':20270105T100000Z',
        'RRULE:FREQ=DAILY;COUNT=3',
        'EXRULE:FREQ=DAILY;COUNT=1',
      ),
      vevent('changed@t', ':20270106T120000Z', 'RECURRENCE-ID:20270106T100000Z').map((l) =>
        l === 'UID:changed@t' ? 'UID:byhour@t' : l,
      ),
      vevent('plain@t', ':20270301T100000Z'),
    );
    expect(problems(text)).toEqual([
      {
        id: 'hourly@t',
        title: 'hourly@t',
        problem: expect.stringMatching(
          /^not imported, since its recurrence cannot be kept as a series: .*HOURLY/,
        ),
      },
      {
        id: 'byhour@t',
        title: 'byhour@t',
        problem: expect.stringMatching(
          /^not imported, since its recurrence cannot be kept as a series: .*BYHOUR/,
        ),
      },
      {
        id: 'byhour@t@2027-01-06 10:00:00',
        title: 'changed@t',
        problem: 'a changed occurrence of a series that was not imported; not imported either',
      },
      {
        id: 'exrule@t',
        title: 'exrule@t',
        problem: expect.stringMatching(/EXRULE/),
      },
    ]);
    const hu = readIcs(text, WINDOW).items.find((i) => i.id === 'hourly@t')!;
    expect(said(hu.problem!, cliMessages('hu').t)).toMatch(
      /^nem lett importálva, mert az ismétlődése nem őrizhető meg sorozatként: .*HOURLY/,
    );
    expect(readIcs(text, WINDOW).items.find((i) => i.id === 'plain@t')?.body).toBeDefined();
  });

  it('leaves out a series wholly before or after the window', () => {
    const { items } = readIcs(
      calendar(
        vevent('past@t', ':20200105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'),
        vevent('later@t', ':20290105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'),
        vevent('endless@t', ':20200105T100000Z', 'RRULE:FREQ=MONTHLY'),
      ),
      WINDOW,
    );
    expect(items.map((i) => i.id)).toEqual(['endless@t']);
  });
});

describe('readIcs: every series is bounded before anything is written', () => {
  it('refuses a rule that never matches, too many occurrences and too many dates, naming the bound', () => {
    const exdates = Array.from(
      { length: 1001 },
      (_, i) =>
        `${2100 + Math.floor(i / 300)}${String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`,
    );
    const started = threadCpuMs();
    const found = problems(
      calendar(
        vevent('never@t', ':20270101T000000Z', 'RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30'),
        vevent('count@t', ':20270101T000000Z', 'RRULE:FREQ=DAILY;COUNT=5000'),
        vevent('since1900@t', ':19000101T000000Z', 'RRULE:FREQ=DAILY'),
        vevent(
          'dates@t',
          ';VALUE=DATE:20270101',
          'RRULE:FREQ=DAILY',
          `EXDATE;VALUE=DATE:${exdates.join(',')}`,
        ),
        vevent('plain@t', ':20270301T100000Z'),
      ),
    );
    expect(found.map((p) => [p.id, p.problem])).toEqual([
      ['never@t', expect.stringMatching(/20000/)],
      ['count@t', expect.stringMatching(/1000/)],
      ['since1900@t', expect.stringMatching(/1000/)],
      ['dates@t', expect.stringMatching(/1000/)],
    ]);
    expect(threadCpuMs() - started).toBeLessThan(10_000);
  });

  it('bounds the time of a series and of the whole file', () => {
    const never = (n: number) =>
      vevent(`never${n}@t`, ':20270101T000000Z', 'RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30');
    const text = calendar(...Array.from({ length: 40 }, (_, n) => never(n)));
    const started = threadCpuMs();
    const found = problems(text, { steps: 1e9, ms: 5, totalMs: 50 });
    expect(found).toHaveLength(40);
    expect(found.some((p) => /took more than 0.05 s in all/.test(p.problem))).toBe(true);
    expect(threadCpuMs() - started).toBeLessThan(5_000);
  });
});
