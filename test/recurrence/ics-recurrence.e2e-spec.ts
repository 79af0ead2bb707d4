import ICAL from 'ical.js';
import { DataSource } from 'typeorm';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import { occurrenceRows } from '../helpers/occurrences.js';

/**
 * Recurring events in the iCalendar feeds (CONTRACT §7, §9): a series is one VEVENT with
 * RRULE, EXDATE and RDATE, read back with ical.js (an independent parser and expander) and
 * expanded there to the same occurrences the service materialized with its own expansion; with
 * `occurrences=true`, one VEVENT per occurrence as the plugin's Pro add-on writes its feed.
 */

/** `text` (an unfolded calendar) holds each of `lines`, each ended by CRLF. */
const expectLines = (text: string, lines: string[]) => {
  for (const line of lines) expect(text).toContain(`${line}\r\n`);
};

const BASE = '/cal/events/v1';
const WIDE = 'start_date=2000-01-01&end_date=2100-01-01';
const OCCURRENCE_ID_BASE = 10_000_000;
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;

const pad = (n: number) => String(n).padStart(2, '0');
const wall = (t: ICAL.Time) =>
  `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
const utcSql = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
const nextDay = (sql: string) =>
  new Date(Date.UTC(+sql.slice(0, 4), +sql.slice(5, 7) - 1, +sql.slice(8, 10) + 1))
    .toISOString()
    .slice(0, 10);

/** The VEVENTs of a calendar, with the zones of its VTIMEZONEs registered. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const vtz of calendar.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(vtz);
    ICAL.TimezoneService.register(zone, zone.tzid);
  }
  return calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
}

/** The occurrences ical.js expands from a VEVENT, up to the local wall clock `until`. */
function expandWithIcalJs(event: ICAL.Event, until: string) {
  const out: Array<{ start: string; startUtc: string; end: string }> = [];
  const iterator = event.iterator();
  for (let next = iterator.next(), i = 0; next && i < 2000; next = iterator.next(), i++) {
    if (wall(next) > until) break;
    const details = event.getOccurrenceDetails(next);
    const start = details.startDate;
    out.push({
      start: start.isDate ? `${start.toString()} 00:00:00` : wall(start),
      startUtc: start.isDate ? '' : utcSql(start.toJSDate()),
      end: wall(details.endDate),
    });
  }
  return out;
}

describe('recurring events in the iCalendar feeds (e2e)', () => {
  const { app, http, users } = useTestApp();
  const series: Record<string, Tec> = {};
  let single: Tec;
  const create = async (body: Record<string, unknown>) =>
    (await postEvent(http, users.editor.header, { status: 'publish', ...body }).expect(201))
      .body as Tec;
  const rows = (eventId: number) =>
    occurrenceRows(app(), eventId, ['id', 'start_date', 'end_date', 'start_utc']);
  const uid = (id: number) => `event-${id}@cal.test`;

  beforeAll(async () => {
    // Tuesdays and Thursdays at 19:00 in Budapest across the spring change, until a local day,
    // one day excluded, one added at another time; text that needs escaping and folding.
    series.budapest = await create({
      title: 'Evening class; level 1, beginners',
      description: `<p>${'Long words that fold. '.repeat(12)}</p>`,
      start_date: '2027-03-02 19:00:00',
      end_date: '2027-03-02 21:00:00',
      timezone: 'Europe/Budapest',
      recurrence: {
        rules: ['FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270415'],
        exdates: ['2027-03-11', '2027-04-01 19:00:00'],
        rdates: ['2027-03-20 18:00:00', '2027-03-11 10:00:00'],
      },
    });
    // The last day of each month, all day, in New York.
    series.allday = await create({
      title: 'Month end',
      all_day: true,
      start_date: '2027-01-31 00:00:00',
      end_date: '2027-01-31 23:59:59',
      timezone: 'America/New_York',
      recurrence: { rules: ['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6'], exdates: ['2027-04-30'] },
    });
    // Without end, in Sydney, with the second Tuesday of the month and a UTC end elsewhere.
    series.sydney = await create({
      title: 'Monthly meetup',
      start_date: '2027-01-12 18:30:00',
      end_date: '2027-01-12 20:00:00',
      timezone: 'Australia/Sydney',
      recurrence: { rules: ['FREQ=MONTHLY;BYDAY=2TU'] },
    });
    series.utc = await create({
      title: 'UTC daily',
      start_date: '2027-06-01 23:30:00',
      end_date: '2027-06-02 00:30:00',
      timezone: 'UTC',
      recurrence: { rules: ['FREQ=DAILY;INTERVAL=2;UNTIL=20270610T000000Z'] },
    });
    single = await create({
      title: 'One evening',
      start_date: '2027-03-05 19:00:00',
      end_date: '2027-03-05 21:00:00',
      timezone: 'Europe/Budapest',
    });
  });

  it('writes each series once, with its rules, and ical.js expands them to the stored occurrences', async () => {
    const ics = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    const events = parse(ics.text);
    const uids = events.map((e) => e.uid);
    expect(uids.sort()).toEqual(
      [...Object.values(series).map((s) => uid(s.id)), uid(single.id)].sort(),
    );
    // The bounds and totals count the list's items, one per occurrence.
    const list = await http().get(`${BASE}/events?${WIDE}&per_page=1`).expect(200);
    expect(ics.headers['x-tec-total']).toBe(String(list.body.total));
    const [horizon] = (await app()
      .get(DataSource)
      .query('SELECT occurrences_until FROM events WHERE id = ?', [series.sydney.id])) as Array<{
      occurrences_until: string;
    }>;
    for (const [name, s] of Object.entries(series)) {
      const event = events.find((e) => e.uid === uid(s.id))!;
      expect(event.isRecurring()).toBe(true);
      const stored = await rows(s.id);
      const until = name === 'sydney' ? horizon.occurrences_until : '9999-12-31 23:59:59';
      const expanded = expandWithIcalJs(event, until);
      expect(expanded.map((o) => o.start)).toEqual(stored.map((r) => r.start_date));
      // An all-day DTEND is the day after the last day (RFC 5545 §3.6.1).
      expect(expanded.map((o) => o.end)).toEqual(
        stored.map((r) => (s.all_day ? `${nextDay(r.end_date)} 00:00:00` : r.end_date)),
      );
      if (!s.all_day)
        expect(expanded.map((o) => o.startUtc)).toEqual(stored.map((r) => r.start_utc));
    }
    // DST: 19:00 in Budapest is 18:00Z in March before the change, 17:00Z after it.
    const budapest = await rows(series.budapest.id);
    expect(budapest.find((r) => r.start_date === '2027-03-30 19:00:00')?.start_utc).toBe(
      '2027-03-30 17:00:00',
    );
    expect(budapest.map((r) => r.start_date)).toContain('2027-03-20 18:00:00');
    expect(budapest.map((r) => r.start_date.slice(0, 10))).not.toContain('2027-03-11');
  });

  it('writes UNTIL in UTC beside a zoned DTSTART, dates for all-day series, escaped and folded', async () => {
    const ics = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    const unfolded = ics.text.replace(/\r\n /g, '');
    // UNTIL 15 April 2027 (local, to the end of that day): the instant of the last start it allows,
    // 19:00 in Budapest, 17:00Z (summer time), keeps exactly the same occurrences for a client
    // comparing instants, even where a DST gap moves one (CONTRACT §9 "Time").
    expectLines(unfolded, [
      'RRULE:FREQ=WEEKLY;UNTIL=20270415T170000Z;BYDAY=TU,TH',
      'EXDATE;TZID=Europe/Budapest:20270311T190000,20270401T190000',
      // The added date on an excluded day is left out, as the expansion leaves it out.
      'RDATE;TZID=Europe/Budapest:20270320T180000',
      'DTSTART;VALUE=DATE:20270131',
      'RRULE:FREQ=MONTHLY;COUNT=6;BYMONTHDAY=-1',
      'EXDATE;VALUE=DATE:20270430',
      'DTSTART:20270601T233000Z',
      'RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20270610T000000Z',
    ]);
    expect(unfolded).toContain('SUMMARY:Evening class\\; level 1\\, ');
    for (const line of ics.text.split('\r\n')) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    }
    const budapest = parse(ics.text).find((e) => e.uid === uid(series.budapest.id))!;
    expect(budapest.summary).toBe('Evening class; level 1, beginners');
    expect(budapest.startDate.zone?.tzid).toBe('Europe/Budapest');
    expect(wall(budapest.startDate)).toBe('2027-03-02 19:00:00');
  });

  it('keeps the series where its first listed occurrence is, also when the list starts later', async () => {
    const ics = await http()
      .get(`${BASE}/events.ics?start_date=2027-03-04&end_date=2027-03-08`)
      .expect(200);
    const events = parse(ics.text);
    expect(events.map((e) => e.uid)).toEqual([uid(series.budapest.id), uid(single.id)]);
    // The VEVENT is the whole series: its DTSTART is the series' first occurrence.
    expect(wall(events[0].startDate)).toBe('2027-03-02 19:00:00');
    // Its address is the event's own, not that of its first occurrence's day.
    expect(events[0].component.getFirstPropertyValue('url')).toBe(
      series.budapest.url.replace(/\d{4}-\d\d-\d\d\/$/, ''),
    );
  });

  it('writes one VEVENT per occurrence with occurrences=true, as the list shows them', async () => {
    const list = await http().get(`${BASE}/events?${WIDE}&per_page=40`).expect(200);
    const items = list.body.events as Tec[];
    const ics = await http()
      .get(`${BASE}/events.ics?${WIDE}&occurrences=true&per_page=40`)
      .expect(200);
    const events = parse(ics.text);
    expect(events.some((e) => e.isRecurring())).toBe(false);
    expect(events.length).toBe(items.length);
    for (const [i, e] of events.entries()) {
      expect(e.uid).toBe(uid(items[i].id));
      expect(e.component.getFirstPropertyValue('url')).toBe(items[i].url);
      if (!items[i].all_day) expect(utcSql(e.startDate.toJSDate())).toBe(items[i].utc_start_date);
    }
    expect(items.some((item) => item.id > OCCURRENCE_ID_BASE)).toBe(true);
    await http().get(`${BASE}/events.ics?occurrences=maybe`).expect(400);
  });

  it('answers the series for the real id, one occurrence for a provisional id', async () => {
    const whole = await http().get(`${BASE}/events/${series.allday.id}.ics`).expect(200);
    const [event] = parse(whole.text);
    expect(event.uid).toBe(uid(series.allday.id));
    expect(expandWithIcalJs(event, '9999').length).toBe((await rows(series.allday.id)).length);
    const first = await http()
      .get(`${BASE}/events/${series.allday.id}.ics?occurrences=1`)
      .expect(200);
    expect(parse(first.text)[0].isRecurring()).toBe(false);
    const [second] = (await rows(series.allday.id)).slice(1);
    const one = await http()
      .get(`${BASE}/events/${OCCURRENCE_ID_BASE + second.id}.ics`)
      .expect(200);
    const [occurrence] = parse(one.text);
    expect(occurrence.isRecurring()).toBe(false);
    expect(occurrence.uid).toBe(uid(OCCURRENCE_ID_BASE + second.id));
    expect(occurrence.startDate.toString()).toBe(second.start_date.slice(0, 10));
  });

  it("names a changed occurrence in its series' calendar with RECURRENCE-ID", async () => {
    const pottery = await create({
      title: 'Pottery',
      start_date: '2031-05-07 18:00:00',
      end_date: '2031-05-07 20:00:00',
      timezone: 'Europe/Budapest',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] },
    });
    const [, second] = await rows(pottery.id);
    const moved = await http()
      .post(`${BASE}/events/${OCCURRENCE_ID_BASE + second.id}`)
      .set('Authorization', users.editor.header)
      .send({
        _tec_update_type: 'single',
        title: 'Pottery, moved',
        start_date: '2031-05-15 17:00:00',
        end_date: '2031-05-15 19:00:00',
      })
      .expect(200);
    const ics = await http().get(`${BASE}/events/${pottery.id}.ics`).expect(200);
    const unfolded = ics.text.replace(/\r\n /g, '');
    expect(unfolded).toContain('RECURRENCE-ID;TZID=Europe/Budapest:20310514T180000\r\n');
    // The series names that instance rather than excluding it.
    expect(unfolded).not.toContain('EXDATE');
    const [master, override] = parse(ics.text);
    expect([master.uid, override.uid]).toEqual([uid(pottery.id), uid(pottery.id)]);
    master.relateException(override);
    const seen = [];
    const iterator = master.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = master.getOccurrenceDetails(next);
      seen.push([wall(details.startDate), details.item.summary]);
    }
    expect(seen).toEqual([
      ['2031-05-07 18:00:00', 'Pottery'],
      ['2031-05-15 17:00:00', 'Pottery, moved'],
      ['2031-05-21 18:00:00', 'Pottery'],
      ['2031-05-28 18:00:00', 'Pottery'],
    ]);
    // The list's feed holding both writes it the same way.
    const list = await http()
      .get(`${BASE}/events.ics?start_date=2031-05-01&end_date=2031-05-31`)
      .expect(200);
    expect(parse(list.text).map((e) => e.uid)).toEqual([uid(pottery.id), uid(pottery.id)]);
    expect(list.text.replace(/\r\n /g, '')).toContain(
      'RECURRENCE-ID;TZID=Europe/Budapest:20310514T180000\r\n',
    );
    expect(list.text).not.toContain('EXDATE');
    // A feed holding the change without its series keeps it an event of its own.
    const alone = await http()
      .get(`${BASE}/events.ics?start_date=2031-05-15&end_date=2031-05-16`)
      .expect(200);
    expect(parse(alone.text).map((e) => e.uid)).toEqual([uid(moved.body.id)]);
    expect(alone.text).not.toContain('RECURRENCE-ID');
    // One VEVENT per occurrence keeps every item its own UID, as the plugin's Pro add-on.
    const each = await http()
      .get(`${BASE}/events.ics?start_date=2031-05-01&end_date=2031-05-31&occurrences=1`)
      .expect(200);
    expect(parse(each.text).map((e) => e.uid)).toContain(uid(moved.body.id));
    expect(each.text).not.toContain('RECURRENCE-ID');
  });

  it("expands the list's feed with its changed occurrences to the occurrences the list shows", async () => {
    const word = 'Zebrafeed';
    const edit = (id: number, body: Record<string, unknown>) =>
      http()
        .post(`${BASE}/events/${id}`)
        .set('Authorization', users.editor.header)
        .send({ _tec_update_type: 'single', ...body })
        .expect(200);
    const provisional = async (eventId: number) =>
      (await rows(eventId)).map((r) => OCCURRENCE_ID_BASE + r.id);
    // Timed, in a zone, across the autumn change: one occurrence moved and renamed, one only
    // renamed, one cancelled.
    const weekly = await create({
      title: `${word} weekly`,
      start_date: '2033-10-04 19:00:00',
      end_date: '2033-10-04 21:00:00',
      timezone: 'Europe/Budapest',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'] },
    });
    let ids = await provisional(weekly.id);
    await edit(ids[1], {
      title: `${word} weekly, moved`,
      start_date: '2033-10-12 18:00:00',
      end_date: '2033-10-12 20:30:00',
    });
    await edit(ids[3], { title: `${word} weekly, renamed` });
    await http()
      .delete(`${BASE}/events/${ids[4]}`)
      .set('Authorization', users.editor.header)
      .expect(200);
    // All day, the first occurrence itself changed, another moved to another day.
    const monthly = await create({
      title: `${word} monthly`,
      all_day: true,
      start_date: '2033-01-31 00:00:00',
      end_date: '2033-01-31 23:59:59',
      timezone: 'America/New_York',
      recurrence: { rules: ['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4'] },
    });
    ids = await provisional(monthly.id);
    await edit(ids[0], { title: `${word} monthly, first` });
    await edit(ids[2], {
      title: `${word} monthly, moved`,
      start_date: '2033-03-30 00:00:00',
      end_date: '2033-03-30 23:59:59',
    });
    // In UTC; and an added date changed, which stays an event of its own.
    const daily = await create({
      title: `${word} daily`,
      start_date: '2033-06-01 23:30:00',
      end_date: '2033-06-02 00:30:00',
      timezone: 'UTC',
      recurrence: { rules: ['FREQ=DAILY;COUNT=4'], rdates: ['2033-06-10 08:00:00'] },
    });
    ids = await provisional(daily.id);
    await edit(ids[2], { title: `${word} daily, third` });
    const added = await edit(ids[4], { title: `${word} daily, added` });

    const window = `start_date=2033-01-01&end_date=2033-12-31&search=${word}`;
    const list = await http().get(`${BASE}/events?${window}&per_page=50`).expect(200);
    const items = list.body.events as Tec[];
    const listed = items
      .map((e) => `${e.start_date} ${e.end_date} ${e.all_day ? '' : e.utc_start_date} ${e.title}`)
      .sort();
    for (const query of [window, `${window}&per_page=50`]) {
      const ics = await http().get(`${BASE}/events.ics?${query}`).expect(200);
      const events = parse(ics.text);
      const masters = events.filter((e) => !e.isRecurrenceException());
      for (const change of events.filter((e) => e.isRecurrenceException())) {
        const master = masters.find((m) => m.uid === change.uid);
        expect(master).toBeDefined();
        master!.relateException(change);
      }
      const seen: string[] = [];
      for (const master of masters) {
        const iterator = master.iterator();
        for (let next = iterator.next(); next; next = iterator.next()) {
          const { startDate, endDate, item } = master.getOccurrenceDetails(next);
          if (startDate.isDate) {
            const last = new Date(Date.UTC(endDate.year, endDate.month - 1, endDate.day - 1));
            const end = `${last.toISOString().slice(0, 10)} 23:59:59`;
            seen.push(`${startDate.toString()} 00:00:00 ${end}  ${item.summary}`);
          } else {
            const utc = utcSql(startDate.toJSDate());
            seen.push(`${wall(startDate)} ${wall(endDate)} ${utc} ${item.summary}`);
          }
        }
      }
      expect(seen.sort()).toEqual(listed);
      // Series written once each, their changes under their UIDs but the added date's.
      const uids = new Set(events.map((e) => e.uid));
      expect([...uids].sort()).toEqual(
        [weekly.id, monthly.id, daily.id, added.body.id].map(uid).sort(),
      );
      const unfolded = ics.text.replace(/\r\n /g, '');
      expectLines(unfolded, [
        'RECURRENCE-ID;TZID=Europe/Budapest:20331011T190000',
        'RECURRENCE-ID;VALUE=DATE:20330131',
        'RECURRENCE-ID:20330603T233000Z',
        // Only the cancelled occurrence is excluded (and the changed added date).
        'EXDATE;TZID=Europe/Budapest:20331101T190000',
        'EXDATE:20330610T080000Z',
      ]);
      expect(unfolded).not.toContain('EXDATE;VALUE=DATE');
    }
  });

  it('is the same under the plugin namespace, whose payloads carry no recurrence', async () => {
    const ours = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    const theirs = await http().get(`/wp-json/tribe/events/v1/events.ics?${WIDE}`).expect(200);
    const rules = (text: string) =>
      text.split('\r\n').filter((l) => /^(RRULE|EXDATE|RDATE)/.test(l));
    expect(rules(theirs.text)).toEqual(rules(ours.text));
  });
});
