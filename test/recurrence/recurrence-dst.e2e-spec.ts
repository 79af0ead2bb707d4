import { useTestApp } from '../helpers/app-fixture.js';
import { GAP_SERIES_UTC } from '../helpers/occurrences.js';

const BASE = '/cal/events/v1';
const NY = 'America/New_York';

type Json = Record<string, unknown>;

/**
 * Issue 46 through the API (CONTRACT §9 "Time"): a series written with its start in a DST gap
 * keeps that start for its rule, moves only the occurrence in the gap (its end alike), and the
 * list, the series feed and the per-occurrence feed name the same instants; a repeated local
 * time is its first occurrence.
 */
describe('recurring events across DST changes (e2e)', () => {
  const { http, users } = useTestApp();
  const create = (body: Json) =>
    http().post(`${BASE}/events`).set('Authorization', users.editor.header).send(body);
  const unfold = (text: string) => text.replace(/\r\n /g, '');

  it('moves only the occurrence in the gap, in the API and both feeds', async () => {
    const res = await create({
      title: 'Night shift',
      start_date: '2031-03-09 02:45:00',
      end_date: '2031-03-09 03:15:00',
      timezone: NY,
      status: 'publish',
      recurrence: {
        rules: ['FREQ=WEEKLY;UNTIL=20310329T064500Z;BYDAY=TU,SA,SU'],
        exdates: ['2031-03-15 02:45:00'],
      },
    }).expect(201);
    // The real id answers the first occurrence: 03:45 EDT, 30 minutes.
    expect([res.body.start_date, res.body.end_date]).toEqual([
      '2031-03-09 03:45:00',
      '2031-03-09 04:15:00',
    ]);
    expect([res.body.utc_start_date, res.body.utc_end_date]).toEqual([
      '2031-03-09 07:45:00',
      '2031-03-09 08:15:00',
    ]);
    const list = await http()
      .get(`${BASE}/events?start_date=2031-03-01&end_date=2031-04-01&per_page=50`)
      .expect(200);
    const mine = (list.body.events as Json[]).filter((e) => e.title === 'Night shift');
    // 15 March excluded at 02:45, as written.
    expect(mine.map((e) => [e.utc_start_date, e.utc_end_date])).toEqual(
      GAP_SERIES_UTC.filter(([start]) => !start.startsWith('2031-03-15')),
    );
    expect(mine[1].start_date).toBe('2031-03-11 02:45:00');

    const window = 'start_date=2031-03-01&end_date=2031-04-01';
    const series = unfold((await http().get(`${BASE}/events.ics?${window}`).expect(200)).text);
    // DTSTART as written, read by RFC 5545 clients as 07:45Z; DTEND the moved end, 08:15Z.
    expect(series).toContain('DTSTART;TZID=America/New_York:20310309T024500\r\n');
    expect(series).toContain('DTEND;TZID=America/New_York:20310309T041500\r\n');
    expect(series).toContain('RRULE:FREQ=WEEKLY;UNTIL=20310329T064500Z;BYDAY=TU,SA,SU\r\n');
    expect(series).toContain('EXDATE;TZID=America/New_York:20310315T024500\r\n');
    const each = unfold(
      (await http().get(`${BASE}/events.ics?${window}&occurrences=true`).expect(200)).text,
    );
    expect(each).toContain(
      'DTSTART;TZID=America/New_York:20310309T034500\r\nDTEND;TZID=America/New_York:20310309T041500\r\n',
    );
    expect(each).toContain(
      'DTSTART;TZID=America/New_York:20310311T024500\r\nDTEND;TZID=America/New_York:20310311T031500\r\n',
    );
  });

  it('reads a repeated local time as its first occurrence, plain or in a series', async () => {
    const plain = await create({
      title: 'Late concert',
      start_date: '2031-10-26 02:30:00',
      end_date: '2031-10-26 02:50:00',
      timezone: 'Europe/Budapest',
      status: 'publish',
    }).expect(201);
    expect(plain.body.utc_start_date).toBe('2031-10-26 00:30:00');
    const series = await create({
      title: 'Last Sunday',
      start_date: '2030-12-29 02:30:00',
      end_date: '2030-12-29 03:00:00',
      timezone: 'Europe/Budapest',
      status: 'publish',
      recurrence: { rules: ['FREQ=MONTHLY;COUNT=14;BYDAY=-1SU'] },
    }).expect(201);
    const list = await http()
      .get(`${BASE}/events?start_date=2031-10-26&end_date=2031-10-27&per_page=50`)
      .expect(200);
    const october = (list.body.events as Json[]).find((e) => e.title === 'Last Sunday')!;
    expect([october.utc_start_date, october.utc_end_date]).toEqual([
      '2031-10-26 00:30:00',
      '2031-10-26 01:00:00',
    ]);
    const ics = unfold(
      (await http().get(`${BASE}/events/${series.body.id}.ics?occurrences=true`).expect(200)).text,
    );
    expect(ics).toContain('DTSTART;TZID=Europe/Budapest:20301229T023000\r\n');
  });
});
