import ICAL from 'ical.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import { nonPublicEvents } from '../helpers/event-body.js';

/**
 * iCalendar feeds (CONTRACT §7), parsed back with ical.js (an independent parser) and compared
 * with what the API answers for the same query.
 */

const BASE = '/cal/events/v1';
const WIDE = 'start_date=2000-01-01&end_date=2100-01-01';
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;

/** The VEVENTs of a calendar by UID, with the zones of its VTIMEZONEs registered. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const zones = calendar.getAllSubcomponents('vtimezone').map((vtz) => {
    const zone = new ICAL.Timezone(vtz);
    ICAL.TimezoneService.register(zone, zone.tzid);
    return zone.tzid;
  });
  const events = new Map(
    calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      return [event.uid, { event, vevent }] as const;
    }),
  );
  return { calendar, zones, events };
}

const utcSql = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

describe('ICS feeds (e2e)', () => {
  const { http, users } = useTestApp();
  const created: Record<string, Tec> = {};
  const create = async (key: string, body: Record<string, unknown>) => {
    const res = await postEvent(http, users.editor.header, body).expect(201);
    created[key] = res.body as Tec;
  };

  beforeAll(async () => {
    // Crosses the spring-forward night of Budapest (2030-03-31 02:00 → 03:00).
    await create('dst', {
      title: 'Night train, "Budapest"; 1 & 2',
      description: '<p>First line</p><p>Second, line</p>',
      start_date: '2030-03-30 22:00:00',
      end_date: '2030-03-31 04:00:00',
      timezone: 'Europe/Budapest',
      venue: { venue: 'Keleti', address: 'Kerepesi út 2', city: 'Budapest', country: 'Hungary' },
      categories: ['Travel'],
    });
    // Summer time in New York.
    await create('ny', {
      title: 'Summer in New York',
      start_date: '2030-07-04 19:00:00',
      end_date: '2030-07-04 21:30:00',
      timezone: 'America/New_York',
    });
    await create('allday', {
      title: 'Festival',
      all_day: true,
      start_date: '2030-10-26 00:00:00',
      end_date: '2030-10-28 23:59:59',
      timezone: 'Europe/Bucharest',
    });
    for (const [key, body] of Object.entries(nonPublicEvents('2030-05-01'))) {
      await create(key, body);
    }
    await create('protected', {
      title: 'Protected',
      description: 'password words',
      password: 'pw',
      start_date: '2030-05-02 10:00:00',
      end_date: '2030-05-02 11:00:00',
    });
  });

  it('the list feed holds the events of the same query, at the same instants', async () => {
    const api = await http().get(`${BASE}/events?${WIDE}`).expect(200);
    const ics = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const { events, zones } = parse(ics.text);
    const listed = (api.body as { events: Tec[] }).events;
    expect([...events.keys()].sort()).toEqual(listed.map((e) => `event-${e.id}@cal.test`).sort());
    for (const e of listed) {
      const { event, vevent } = events.get(`event-${e.id}@cal.test`)!;
      if (e.all_day) continue;
      expect(utcSql(event.startDate.toJSDate())).toBe(e.utc_start_date);
      expect(utcSql(event.endDate.toJSDate())).toBe(e.utc_end_date);
      const modified = vevent.getFirstPropertyValue('last-modified') as ICAL.Time;
      expect(utcSql(modified.toJSDate())).toBe(e.modified_utc);
      const stamp = vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
      expect(utcSql(stamp.toJSDate())).toBe(e.modified_utc);
      expect(vevent.getFirstPropertyValue('url')).toBe(e.url);
    }
    // One VTIMEZONE per zone used.
    expect(zones.sort()).toEqual(['America/New_York', 'Europe/Budapest']);
  });

  it('keeps the zone across a DST change, and escapes text', async () => {
    const ics = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    const { event, vevent } = parse(ics.text).events.get(`event-${created.dst.id}@cal.test`)!;
    expect(event.startDate.zone?.tzid).toBe('Europe/Budapest');
    // 22:00 CET = 21:00Z; 04:00 CEST = 02:00Z: five hours, not six.
    expect(utcSql(event.startDate.toJSDate())).toBe('2030-03-30 21:00:00');
    expect(utcSql(event.endDate.toJSDate())).toBe('2030-03-31 02:00:00');
    expect(created.dst.utc_end_date).toBe('2030-03-31 02:00:00');
    expect(event.summary).toBe('Night train, \u201cBudapest\u201d; 1 & 2');
    expect(event.description).toBe('First line\nSecond, line');
    expect(event.location).toBe('Keleti, Kerepesi út 2, Budapest, Hungary');
    expect(vevent.getFirstPropertyValue('categories')).toBe('Travel');
    expect(ics.text).toContain('SUMMARY:Night train\\, \u201cBudapest\u201d\\; 1 & 2');
    // Lines are folded at 75 octets.
    for (const line of ics.text.split('\r\n'))
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('writes all-day events as DATE values with the exclusive end day', async () => {
    const ics = await http().get(`${BASE}/events/${created.allday.id}.ics`).expect(200);
    const { event } = parse(ics.text).events.get(`event-${created.allday.id}@cal.test`)!;
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe('2030-10-26');
    expect(event.endDate.toString()).toBe('2030-10-29');
    expect(ics.text).toContain('DTSTART;VALUE=DATE:20301026');
  });

  it('is deterministic and answers 304 to its ETag', async () => {
    const first = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    const second = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    expect(second.text).toBe(first.text);
    expect(first.headers.etag).toMatch(/^"/);
    expect(first.headers['last-modified']).toBeDefined();
    await http()
      .get(`${BASE}/events.ics?${WIDE}`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
  });

  it('never shows drafts, private events or protected content to anonymous readers', async () => {
    const ics = await http().get(`${BASE}/events.ics?${WIDE}`).expect(200);
    expect(ics.text).not.toContain('secret');
    expect(ics.text).not.toContain('password words');
    // The single-event feed answers as the API does.
    for (const key of ['draft', 'private', 'protected']) {
      const api = await http().get(`${BASE}/events/${created[key].id}`);
      expect(api.status).toBeGreaterThanOrEqual(400);
      const one = await http().get(`${BASE}/events/${created[key].id}.ics`).expect(api.status);
      expect(one.body).toEqual(api.body);
    }
    const unlocked = await http()
      .get(`${BASE}/events/${created.protected.id}.ics?password=pw`)
      .expect(200);
    expect(unlocked.text).toContain('password words');
    expect(unlocked.headers['cache-control']).toBe('private, no-store');
    // An editor sees what the API shows the editor.
    const editor = await http()
      .get(`${BASE}/events.ics?${WIDE}&status=draft`)
      .set('Authorization', users.editor.header)
      .expect(200);
    expect(editor.text).toContain('Draft secret');
    expect(editor.headers['cache-control']).toBe('private, no-cache');
  });

  it('takes the same filters, and rejects the same bad ones', async () => {
    const api = await http().get(`${BASE}/events?${WIDE}&search=Festival`).expect(200);
    const ics = await http().get(`${BASE}/events.ics?${WIDE}&search=Festival`).expect(200);
    expect([...parse(ics.text).events.keys()]).toEqual(
      (api.body as { events: Tec[] }).events.map((e) => `event-${e.id}@cal.test`),
    );
    const bad = await http().get(`${BASE}/events.ics?per_page=0`).expect(400);
    expect((bad.body as { code: string }).code).toBe('rest_invalid_param');
  });

  it('holds the whole query past MAX_PER_PAGE, or the page that page/per_page ask for', async () => {
    const day = (i: number) =>
      `2031-0${1 + Math.floor(i / 28)}-${String((i % 28) + 1).padStart(2, '0')}`;
    for (let i = 0; i < 53; i++) {
      await create(`many${i}`, {
        title: `Many ${i}`,
        start_date: `${day(i)} 10:00:00`,
        end_date: `${day(i)} 11:00:00`,
      });
    }
    const window = 'start_date=2031-01-01&end_date=2031-03-01';
    const ics = await http().get(`${BASE}/events.ics?${window}`).expect(200);
    expect(parse(ics.text).events.size).toBe(53);
    expect(ics.headers['x-tec-total']).toBe('53');
    const page = await http().get(`${BASE}/events.ics?${window}&per_page=2&page=3`).expect(200);
    const held = [...parse(page.text).events.values()].map((e) => e.event.summary);
    expect(held).toEqual(['Many 4', 'Many 5']);
    expect(page.headers['x-tec-total']).toBe('53');
    expect(page.headers['x-tec-totalpages']).toBe('27');
  });

  it('answers Accept: text/calendar on the events list, in the language of the prefix', async () => {
    const res = await http()
      .get(`/hu${BASE}/events?${WIDE}`)
      .set('Accept', 'text/calendar')
      .expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.text).toContain('X-WR-CALNAME:Események – cal.test');
    expect(res.text).toContain('PRODID:-//cal//events//HU');
    const json = await http().get(`${BASE}/events?${WIDE}`).set('Accept', '*/*').expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const ro = await http().get(`${BASE}/events.ics?${WIDE}&i18n_language=ro`).expect(200);
    expect(ro.text).toContain('X-WR-CALNAME:Evenimente – cal.test');
  });
});
