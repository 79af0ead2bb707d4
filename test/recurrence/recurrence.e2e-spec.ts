import { DataSource } from 'typeorm';
import type { RoleUsers } from '../helpers/auth.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import {
  OCCURRENCE_COLUMNS,
  occurrenceRows,
  TOO_MANY_OCCURRENCES,
} from '../helpers/occurrences.js';

const BASE = '/cal/events/v1';

/** Recurring events written through the API (CONTRACT §9), on SQLite and MariaDB alike. */
describe('recurring events (e2e)', () => {
  const { app, http, users } = useTestApp();
  const create = (body: Record<string, unknown>, as: keyof RoleUsers = 'editor') =>
    http().post(`${BASE}/events`).set('Authorization', users[as].header).send(body);
  const occurrencesOf = (eventId: number) => occurrenceRows(app(), eventId, OCCURRENCE_COLUMNS);

  it.each([
    ['Europe/Budapest', '2027-03-23', ['2027-03-23 18:00:00', '2027-03-30 17:00:00']],
    ['America/New_York', '2027-03-09', ['2027-03-10 00:00:00', '2027-03-16 23:00:00']],
    ['Australia/Sydney', '2027-03-30', ['2027-03-30 08:00:00', '2027-04-06 09:00:00']],
    ['Australia/Adelaide', '2027-03-30', ['2027-03-30 08:30:00', '2027-04-06 09:30:00']],
    ['Asia/Kolkata', '2027-03-23', ['2027-03-23 13:30:00', '2027-03-30 13:30:00']],
  ])('keeps 19:00 in %s across its DST change', async (zone, day, utc) => {
    const res = await create({
      title: `Weekly class ${zone}`,
      start_date: `${day} 19:00:00`,
      end_date: `${day} 21:00:00`,
      timezone: zone,
      status: 'publish',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=2'] },
    }).expect(201);
    const rows = await occurrencesOf(res.body.id);
    expect(rows.map((r) => [r.start_date, r.end_date.slice(11), r.start_utc])).toEqual([
      [`${day} 19:00:00`, '21:00:00', utc[0]],
      [expect.stringMatching(/ 19:00:00$/), '21:00:00', utc[1]],
    ]);
    expect(res.body.recurrence).toMatchObject({ rules: ['FREQ=WEEKLY;COUNT=2'] });
  });

  it('stores the rules in their normal form and describes them in en, hu and ro', async () => {
    const body = {
      title: 'Monthly meetup',
      start_date: '2027-01-12 19:00:00',
      end_date: '2027-01-12 21:00:00',
      timezone: 'Europe/Budapest',
      status: 'publish',
      recurrence: { rules: ['freq=monthly;byday=2TU;until=20270630'], exdates: ['2027-03-09'] },
    };
    const res = await create(body).expect(201);
    expect(res.body.recurrence).toMatchObject({
      rules: ['FREQ=MONTHLY;UNTIL=20270630;BYDAY=2TU'],
      exdates: ['2027-03-09'],
      rdates: [],
      description:
        'Every month on the second Tuesday, 19:00–21:00, until 30 June 2027, except on one date',
    });
    expect((await occurrencesOf(res.body.id)).map((r) => r.start_date.slice(0, 10))).toEqual([
      '2027-01-12',
      '2027-02-09',
      '2027-04-13',
      '2027-05-11',
      '2027-06-08',
    ]);
    const hu = await http().get(`/hu${BASE}/events/${res.body.id}`).expect(200);
    expect(hu.body.recurrence.description).toBe(
      'Minden hónap második keddjén, 19:00–21:00, 2027. június 30-ig, egy nap kivételével',
    );
    const ro = await http().get(`/ro${BASE}/events/${res.body.id}`).expect(200);
    expect(ro.body.recurrence.description).toBe(
      'În fiecare lună, în a doua marți, 19:00–21:00, până la 30 iunie 2027, cu excepția unei zile',
    );
    // The plugin's namespace shows Pro's payload: no recurrence field.
    const tribe = await http().get(`/wp-json/tribe/events/v1/events/${res.body.id}`).expect(200);
    expect(tribe.body).not.toHaveProperty('recurrence');
  });

  it('composes plural and ordinal forms through the API as the reviewed table does', async () => {
    // test/recurrence/recurrence-describe.spec.ts renders with the CLI's catalogue reader; the API's is
    // nestjs-i18n: both pick Romanian few/other and the English ordinal's form.
    const res = await create({
      title: 'Yearly meetup',
      start_date: '2027-05-31 19:00:00',
      end_date: '2027-05-31 21:00:00',
      timezone: 'Europe/Budapest',
      status: 'publish',
      recurrence: { rules: ['FREQ=YEARLY;BYDAY=22MO;COUNT=24'] },
    }).expect(201);
    expect(res.body.recurrence.description).toBe(
      'Every year on the 22nd Monday of the year, 19:00–21:00, 24 times',
    );
    const hu = await http().get(`/hu${BASE}/events/${res.body.id}`).expect(200);
    expect(hu.body.recurrence.description).toBe(
      'Minden év 22. hétfőjén, 19:00–21:00, 24 alkalommal',
    );
    const ro = await http().get(`/ro${BASE}/events/${res.body.id}`).expect(200);
    expect(ro.body.recurrence.description).toBe(
      'În fiecare an, în a 22-a luni din an, 19:00–21:00, de 24 de ori',
    );
  });

  it('keeps all-day series all-day, and month ends and leap days as RFC 5545 says', async () => {
    const allDay = await create({
      title: 'Festival',
      start_date: '2028-01-31',
      end_date: '2028-01-31',
      all_day: true,
      recurrence: { rules: ['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3'] },
    }).expect(201);
    expect((await occurrencesOf(allDay.body.id)).map((r) => [r.start_date, r.end_date])).toEqual([
      ['2028-01-31 00:00:00', '2028-01-31 23:59:59'],
      ['2028-02-29 00:00:00', '2028-02-29 23:59:59'],
      ['2028-03-31 00:00:00', '2028-03-31 23:59:59'],
    ]);
    const the31st = await create({
      title: 'On the 31st',
      start_date: '2027-01-31 10:00',
      end_date: '2027-01-31 11:00',
      recurrence: { rules: ['FREQ=MONTHLY;BYMONTHDAY=31;COUNT=3'] },
    }).expect(201);
    expect((await occurrencesOf(the31st.body.id)).map((r) => r.start_date)).toEqual([
      '2027-01-31 10:00:00',
      '2027-03-31 10:00:00',
      '2027-05-31 10:00:00',
    ]);
  });

  it('refuses bad rules and series over a bound with a localized 400, writing nothing', async () => {
    const before = (await app().get(DataSource).query('SELECT COUNT(*) AS n FROM events'))[0].n;
    const bad = await create({
      title: 'Too many',
      start_date: '2027-01-01 10:00',
      end_date: '2027-01-01 11:00',
      recurrence: { rules: ['FREQ=DAILY;UNTIL=20400101'] },
    }).expect(400);
    expect(bad.body).toMatchObject(TOO_MANY_OCCURRENCES);
    const hu = await postEvent(
      http,
      users.editor.header,
      {
        title: 'Óránként',
        start_date: '2027-01-01 10:00',
        end_date: '2027-01-01 11:00',
        recurrence: { rules: ['FREQ=HOURLY'] },
      },
      `/hu${BASE}`,
    ).expect(400);
    expect(hu.body.data.params.recurrence).toBe(
      'A recurrence szabályában a FREQ=HOURLY nem támogatott; a DAILY, WEEKLY, MONTHLY vagy YEARLY használható.',
    );
    // Validation comes before authentication, as for every field.
    await http()
      .post(`${BASE}/events`)
      .send({
        title: 'x',
        start_date: '2027-01-01 10:00',
        end_date: '2027-01-01 11:00',
        recurrence: { rules: ['FREQ=WEEKLY;BYDAY=2TU'] },
      })
      .expect(400);
    const after = (await app().get(DataSource).query('SELECT COUNT(*) AS n FROM events'))[0].n;
    expect(Number(after)).toBe(Number(before));
  });

  it('keeps occurrence ids across edits that keep their starts, and drops them with the series', async () => {
    const res = await create({
      title: 'Edited series',
      start_date: '2027-05-03 18:00',
      end_date: '2027-05-03 19:00',
      timezone: 'Europe/Budapest',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] },
    }).expect(201);
    const first = await occurrencesOf(res.body.id);
    const edit = (body: Record<string, unknown>) =>
      http()
        .post(`${BASE}/events/${res.body.id}`)
        .set('Authorization', users.editor.header)
        .send(body);
    await edit({
      end_date: '2027-05-03 20:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'] },
    }).expect(200);
    const second = await occurrencesOf(res.body.id);
    expect(second.slice(0, 4).map((r) => r.id)).toEqual(first.map((r) => r.id));
    expect(second.map((r) => r.end_date.slice(11))).toEqual(Array(5).fill('20:00:00'));
    await edit({ recurrence: { rules: ['FREQ=WEEKLY;COUNT=5000'] } }).expect(400);
    expect(await occurrencesOf(res.body.id)).toEqual(second);
    const cleared = await edit({ recurrence: { rules: [] } }).expect(200);
    expect(cleared.body.recurrence).toBeNull();
    expect(await occurrencesOf(res.body.id)).toEqual([]);
  });

  describe('reads as the Pro add-on shows them', () => {
    let series: { id: number; slug: string };
    let single: number;
    const list = (query: string, prefix = BASE) =>
      http().get(`${prefix}/events?${query}`).expect(200);

    beforeAll(async () => {
      const res = await create({
        title: 'Evening class',
        start_date: '2031-03-04 19:00:00',
        end_date: '2031-03-04 21:00:00',
        timezone: 'Europe/Budapest',
        status: 'publish',
        recurrence: {
          rules: ['FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
          exdates: ['2031-03-11'],
          rdates: ['2031-03-12 19:00', '2031-03-12 21:30'],
        },
      }).expect(201);
      series = res.body;
      single = (
        await create({
          title: 'One-off',
          start_date: '2031-03-12 20:00:00',
          end_date: '2031-03-12 22:00:00',
          timezone: 'Europe/Budapest',
          status: 'publish',
        }).expect(201)
      ).body.id;
    });

    it('lists one item per occurrence by its start, counted in the totals, with provisional ids', async () => {
      const res = await list('start_date=2031-03-01&end_date=2031-03-31');
      const events = res.body.events as Array<Record<string, unknown>>;
      expect(events.map((e) => [e.start_date, e.title])).toEqual([
        ['2031-03-04 19:00:00', 'Evening class'],
        ['2031-03-12 19:00:00', 'Evening class'],
        ['2031-03-12 20:00:00', 'One-off'],
        ['2031-03-12 21:30:00', 'Evening class'],
        ['2031-03-18 19:00:00', 'Evening class'],
        ['2031-03-25 19:00:00', 'Evening class'],
      ]);
      expect(res.body.total).toBe(6);
      expect(res.headers['x-tec-total']).toBe('6');
      const occurrences = events.filter((e) => e.title === 'Evening class');
      for (const e of occurrences) {
        expect(e.id as number).toBeGreaterThan(10_000_000);
        expect(e.rest_url).toBe(`http://cal.test${BASE}/events/${e.id as number}`);
        expect(e.global_id).toBe(`cal.test?id=${e.id as number}`);
      }
      expect(occurrences.map((e) => e.url)).toEqual([
        `http://cal.test/event/${series.slug}/2031-03-04/`,
        `http://cal.test/event/${series.slug}/2031-03-12/`,
        `http://cal.test/event/${series.slug}/2031-03-12/2/`,
        `http://cal.test/event/${series.slug}/2031-03-18/`,
        `http://cal.test/event/${series.slug}/2031-03-25/`,
      ]);
      expect(occurrences[1]).toMatchObject({
        utc_start_date: '2031-03-12 18:00:00',
        timezone_abbr: 'CET',
      });
      expect(occurrences[3]).toMatchObject({
        utc_start_date: '2031-03-18 18:00:00',
      });
      // The plugin's namespace: the same items, Pro's payload.
      const tribe = await list(
        'start_date=2031-03-01&end_date=2031-03-31',
        '/wp-json/tribe/events/v1',
      );
      expect(tribe.body.events.map((e: { id: number }) => e.id)).toEqual(events.map((e) => e.id));
      expect(tribe.body.events[0]).not.toHaveProperty('recurrence');
    });

    it('pages through occurrences and events alike', async () => {
      const all = await list('start_date=2031-03-01&end_date=2031-03-31');
      const ids = all.body.events.map((e: { id: number }) => e.id);
      const paged: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await list(`start_date=2031-03-01&end_date=2031-03-31&per_page=2&page=${page}`);
        expect(res.body.total_pages).toBe(3);
        paged.push(...res.body.events.map((e: { id: number }) => e.id));
      }
      expect(paged).toEqual(ids);
    });

    it('reads an occurrence by its provisional id; a stale one is not found', async () => {
      const all = await list('start_date=2031-03-01&end_date=2031-03-31');
      const third = all.body.events.find(
        (e: { start_date: string }) => e.start_date === '2031-03-18 19:00:00',
      );
      const res = await http().get(`${BASE}/events/${third.id}`).expect(200);
      expect(res.body).toMatchObject({
        id: third.id,
        start_date: '2031-03-18 19:00:00',
        end_date: '2031-03-18 21:00:00',
        url: `http://cal.test/event/${series.slug}/2031-03-18/`,
        json_ld: { startDate: '2031-03-18T19:00:00+01:00' },
      });
      await http()
        .get(`${BASE}/events/${10_000_000 + 999_999}`)
        .expect(404)
        .expect((r) => expect(r.body.code).toBe('rest-event-not-found'));
    });

    it('include= with the real id matches all occurrences, with a provisional id that one', async () => {
      const byReal = await list(`include=${series.id},${single}`);
      expect(byReal.body.total).toBe(6);
      const one = byReal.body.events.find((e: { id: number }) => e.id > 10_000_000);
      const byProvisional = await list(`include=${one.id}`);
      expect(byProvisional.body.events.map((e: { id: number }) => e.id)).toEqual([one.id]);
    });
  });
});
