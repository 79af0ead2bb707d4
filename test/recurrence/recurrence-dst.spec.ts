import { localToUtc, utcToIso8601WithOffset } from '../../src/common/dates/index.js';
import { expandSeries, type SeriesAnchor } from '../../src/common/recurrence/expand.js';
import { parseRecurrence, type Recurrence } from '../../src/common/recurrence/rules.js';
import { CalendarWriter } from '../../src/feeds/ics.js';
import type { IcsSeries } from '../../src/feeds/ics-series.js';
import { readIcs } from '../../src/importer/ics-parse.js';
import { GAP_SERIES_UTC } from '../helpers/occurrences.js';
import { tecEvent } from '../helpers/tec-event.js';

/**
 * Issue 46: the four faults the outside check found at daylight-saving changes, with its own
 * examples (RFC 5545 §3.3.5 and §3.3.10 as python-dateutil read them).
 */

const rec = (rules: string[], exdates: string[] = [], rdates: string[] = []): Recurrence => {
  const parsed = parseRecurrence({ rules, exdates, rdates });
  if (!parsed || 'key' in parsed) throw new Error(JSON.stringify(parsed));
  return parsed;
};
const at = (start: string, end: string, zone: string): SeriesAnchor => ({
  start,
  end,
  zone,
  allDay: false,
});
const expand = (r: Recurrence, anchor: SeriesAnchor, horizon = '2040-01-01 00:00:00') => {
  const out = expandSeries(r, anchor, { horizon });
  if ('key' in out) throw new Error(JSON.stringify(out));
  return out.occurrences;
};
const NY = 'America/New_York';
/** A timed series in New York by `rule`, first starting at `start`. */
const nySeries = (rule: string, start: string): IcsSeries => ({
  recurrence: rec([rule]),
  start,
  allDay: false,
  zone: NY,
});

/** The calendar text of one event (`zone`, its dates local and UTC), as a series or alone. */
function feedOf(
  zone: string,
  [start, end, startUtc, endUtc]: [string, string, string, string],
  series?: IcsSeries,
): string {
  const writer = new CalendarWriter({ name: 'x', uidDomain: 'cal.test', language: 'en' });
  const dates = {
    start_date: start,
    end_date: end,
    utc_start_date: startUtc,
    utc_end_date: endUtc,
  };
  writer.add(tecEvent(1, { timezone: zone, ...dates }), series);
  return writer.finish().bytes.toString('utf8');
}

describe('fault 1: a series starting in a DST gap does not shift as a whole', () => {
  const anchor = at('2031-03-09 02:45:00', '2031-03-09 03:15:00', NY);

  it('moves only the occurrence in the gap, keeping every later one at 02:45', () => {
    const occ = expand(rec(['FREQ=WEEKLY;UNTIL=20310329T064500Z;BYDAY=TU,SA,SU']), anchor);
    // The event's own start: 02:45 does not exist, 03:45 EDT; 30 minutes long, not 0. UNTIL is
    // 06:45Z: the last one starts exactly then.
    expect(occ.map((o) => [o.startUtc, o.endUtc])).toEqual(GAP_SERIES_UTC);
    expect(occ[0].start).toBe('2031-03-09 03:45:00');
    expect(occ[0].end).toBe('2031-03-09 04:15:00');
    expect(occ[1].start).toBe('2031-03-11 02:45:00');
  });

  it('matches EXDATEs given at the start time as written', () => {
    const yearly = rec(
      ['FREQ=YEARLY;COUNT=6;BYDAY=2SU;BYMONTH=3'],
      ['2032-03-14 02:45:00', '2036-03-09 02:45:00'],
    );
    const occ = expand(yearly, anchor);
    // Every second Sunday of March is New York's change day: each occurrence is in the gap.
    expect(occ.map((o) => o.startUtc)).toEqual([
      '2031-03-09 07:45:00',
      '2033-03-13 07:45:00',
      '2034-03-12 07:45:00',
      '2035-03-11 07:45:00',
    ]);
    // The local time the occurrence moved to names the same instant, so excludes it too.
    const moved = expand(
      rec(['FREQ=YEARLY;COUNT=3;BYDAY=2SU;BYMONTH=3'], ['2032-03-14 03:45:00']),
      anchor,
    );
    expect(moved.map((o) => o.start)).toEqual(['2031-03-09 03:45:00', '2033-03-13 03:45:00']);
  });

  it('compares a local UNTIL with the wall clock the rule makes', () => {
    const occ = expand(rec(['FREQ=WEEKLY;UNTIL=20310316T024500;BYDAY=SU']), anchor);
    expect(occ.map((o) => o.startUtc)).toEqual(['2031-03-09 07:45:00', '2031-03-16 06:45:00']);
  });
});

describe('fault 2: an occurrence inside a gap keeps its length', () => {
  it('ends 30 minutes after it starts, not before', () => {
    const occ = expand(
      rec(['FREQ=MONTHLY;BYDAY=2SU']),
      at('2032-01-11 02:45:00', '2032-01-11 03:15:00', NY),
      '2032-04-30 00:00:00',
    );
    const gap = occ.find((o) => o.start.startsWith('2032-03-14'))!;
    expect(gap).toEqual({
      start: '2032-03-14 03:45:00',
      end: '2032-03-14 04:15:00',
      startUtc: '2032-03-14 07:45:00',
      endUtc: '2032-03-14 08:15:00',
    });
    for (const o of occ) expect(o.endUtc > o.startUtc).toBe(true);
  });
});

describe('fault 3: a UTC UNTIL is an instant', () => {
  it('keeps an occurrence of the repeated hour before UNTIL', () => {
    const occ = expand(
      rec(['FREQ=DAILY;UNTIL=20311102T061500Z']),
      at('2031-10-30 01:30:00', '2031-10-30 02:00:00', NY),
    );
    expect(occ.map((o) => o.startUtc)).toEqual([
      '2031-10-30 05:30:00',
      '2031-10-31 05:30:00',
      '2031-11-01 05:30:00',
      // 01:30 EDT, the first of the two: 05:30Z, before 06:15Z.
      '2031-11-02 05:30:00',
    ]);
  });

  it.each([
    [NY, '2031-03-06 02:30:00', 'UNTIL=20310309T070000Z', '2031-03-08 07:30:00'],
    ['Europe/Budapest', '2031-03-27 02:30:00', 'UNTIL=20310330T010000Z', '2031-03-29 01:30:00'],
  ])('%s: drops the occurrence the gap moves past UNTIL', (zone, start, until, last) => {
    const end = `${start.slice(0, 10)} 03:00:00`;
    const occ = expand(rec([`FREQ=DAILY;${until}`]), at(start, end, zone));
    expect(occ).toHaveLength(3);
    expect(occ[2].startUtc).toBe(last);
  });

  it('writes a local UNTIL in the feed as an instant that keeps the same occurrences', () => {
    // UNTIL 03:00 local on the change day: the occurrence at 02:30 (in the gap, 07:30Z) is
    // before it on the wall clock, and must be before the feed's UTC UNTIL.
    const series = nySeries('FREQ=DAILY;UNTIL=20310309T030000', '2031-03-06 02:30:00');
    const occ = expand(series.recurrence, at(series.start, '2031-03-06 03:00:00', NY));
    expect(occ.map((o) => o.startUtc).at(-1)).toBe('2031-03-09 07:30:00');
    const text = feedOf(
      NY,
      [series.start, '2031-03-06 03:00:00', '2031-03-06 07:30:00', '2031-03-06 08:00:00'],
      series,
    );
    expect(text).toContain('RRULE:FREQ=DAILY;UNTIL=20310309T073000Z\r\n');
  });
});

describe('fault 4: a repeated local time is its first occurrence, in the API and the feed', () => {
  it('reads Budapest 02:30 on the autumn change day as 00:30Z, in a series and alone', () => {
    const occ = expand(
      rec(['FREQ=MONTHLY;COUNT=14;BYDAY=-1SU']),
      at('2030-12-29 02:30:00', '2030-12-29 03:00:00', 'Europe/Budapest'),
    );
    expect(occ).toHaveLength(14);
    const october = occ.find((o) => o.start.startsWith('2031-10-26'))!;
    expect([october.startUtc, october.endUtc]).toEqual([
      '2031-10-26 00:30:00',
      // 30 minutes, as the event (02:30-03:00 CEST).
      '2031-10-26 01:00:00',
    ]);
    expect(localToUtc('2031-10-26 02:30:00', 'Europe/Budapest')).toBe('2031-10-26 00:30:00');
    expect(localToUtc('2031-04-06 02:30:00', 'Australia/Sydney')).toBe('2031-04-05 15:30:00');
    expect(utcToIso8601WithOffset('2031-10-26 00:30:00', 'Europe/Budapest')).toBe(
      '2031-10-26T02:30:00+02:00',
    );
  });

  it('writes each DTSTART/DTEND so that a TZID reader gets the API instant', () => {
    const BUD = 'Europe/Budapest';
    // The first occurrence of the repeated hour: TZID names it.
    // Local start and end, UTC start and end, all on the night of the change.
    const onTheNight = (...times: [string, string, string, string]) =>
      times.map((time) => `2031-10-26 ${time}:00`) as [string, string, string, string];
    const first = feedOf(BUD, onTheNight('02:30', '02:45', '00:30', '00:45'));
    expect(first).toContain('DTSTART;TZID=Europe/Budapest:20311026T023000\r\n');
    // The second (a record stored before the decision): TZID cannot name it, UTC does.
    const second = feedOf(BUD, onTheNight('02:30', '03:30', '01:30', '02:30'));
    expect(second).toContain('DTSTART:20311026T013000Z\r\n');
    expect(second).toContain('DTEND;TZID=Europe/Budapest:20311026T033000\r\n');
  });

  it('writes the end of an occurrence moved out of a gap after its start', () => {
    const series = nySeries('FREQ=MONTHLY;BYDAY=2SU', '2032-03-14 02:45:00');
    const text = feedOf(
      NY,
      [series.start, '2032-03-14 03:15:00', '2032-03-14 07:45:00', '2032-03-14 08:15:00'],
      series,
    );
    // DTSTART as written (the rule's wall clock), DTEND the local time of the moved end.
    expect(text).toContain('DTSTART;TZID=America/New_York:20320314T024500\r\n');
    expect(text).toContain('DTEND;TZID=America/New_York:20320314T041500\r\n');
  });
});

describe('import:ics round trip at DST changes', () => {
  const window = { from: new Date('2030-01-01T00:00:00Z'), to: new Date('2040-01-01T00:00:00Z') };
  it.each([
    // A series whose start is in New York's gap, with a UTC UNTIL and an EXDATE at 02:45.
    [
      NY,
      '2031-03-09 02:45:00',
      '2031-03-09 03:15:00',
      ['FREQ=WEEKLY;UNTIL=20310329T064500Z;BYDAY=TU,SA,SU'],
      ['2031-03-15 02:45:00'],
    ],
    // A series in Budapest's repeated hour.
    [
      'Europe/Budapest',
      '2030-12-29 02:30:00',
      '2030-12-29 03:00:00',
      ['FREQ=MONTHLY;COUNT=14;BYDAY=-1SU'],
      [],
    ],
  ])(
    '%s: the feed read back by the importer expands to the same instants',
    (zone, start, end, rules, exdates) => {
      const recurrence = rec(rules, exdates);
      const anchor = at(start, end, zone);
      const ours = expand(recurrence, anchor);
      const first = ours[0];
      const text = feedOf(zone, [start, end, first.startUtc, first.endUtc], {
        recurrence,
        start,
        allDay: false,
        zone,
      });
      const { items } = readIcs(text, window);
      const body = items[0].body as Record<string, unknown> & { recurrence: Recurrence };
      expect([body.timezone, body.start_date]).toEqual([zone, start]);
      // The importer writes through the API, which keeps a series' start as written.
      const again = expand(
        rec(body.recurrence.rules, body.recurrence.exdates, body.recurrence.rdates),
        at(String(body.start_date), String(body.end_date), String(body.timezone)),
      );
      expect(again.map((o) => [o.startUtc, o.endUtc])).toEqual(
        ours.map((o) => [o.startUtc, o.endUtc]),
      );
    },
  );
});
