import { DataSource } from 'typeorm';
import { inSession, logIn } from '../helpers/auth.js';
import { useTestApp } from '../helpers/app-fixture.js';

/**
 * The recurrence preview (CONTRACT §9 "Preview"): what the console's rule builder shows before an
 * event is saved is what the saved event's payload then shows (rules in normal form, description
 * in the request's language, next occurrences), and the preview stores nothing.
 */

const BASE = '/cal/events/v1';
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;

/** A series from next year on, so "next" starts at its first occurrence whatever today is. */
const YEAR = new Date().getUTCFullYear() + 1;
const SERIES = {
  start_date: `${YEAR}-03-02 19:00:00`,
  end_date: `${YEAR}-03-02 21:00:00`,
  timezone: 'Europe/Budapest',
  recurrence: {
    rules: [`byday=TU,TH;freq=weekly;UNTIL=${YEAR}0415`],
    exdates: [`${YEAR}-03-11`],
    rdates: [`${YEAR}-03-20 18:00:00`],
  },
};

describe('recurrence preview (e2e)', () => {
  const { app, http, users } = useTestApp();
  const preview = (query: Record<string, string>, prefix = '') =>
    http()
      .get(`${prefix}${BASE}/recurrence`)
      .query(query)
      .set('Authorization', users.contributor.header);
  const asQuery = (body: typeof SERIES) => ({
    start_date: body.start_date,
    end_date: body.end_date,
    timezone: body.timezone,
    recurrence: JSON.stringify(body.recurrence),
  });

  it('answers what the saved event then shows, in each language, storing nothing', async () => {
    const ds = app().get(DataSource);
    const count = async () =>
      Number((await ds.query('SELECT COUNT(*) AS n FROM events'))[0].n as number | string);
    const before = await count();
    const shown: Record<string, Tec> = {};
    for (const prefix of ['', '/hu', '/ro']) {
      const res = await preview(asQuery(SERIES), prefix).expect(200);
      shown[prefix] = res.body as Tec;
    }
    expect(await count()).toBe(before);
    expect(shown[''].rules).toEqual([`FREQ=WEEKLY;UNTIL=${YEAR}0415;BYDAY=TU,TH`]);
    expect(shown[''].next).toHaveLength(5);
    expect(shown[''].next[0]).toMatchObject({
      start_date: `${YEAR}-03-02 19:00:00`,
      end_date: `${YEAR}-03-02 21:00:00`,
      utc_start_date: `${YEAR}-03-02 18:00:00`,
    });
    // The exclusion day (a Thursday) is left out, so the fourth is Tuesday 16 March.
    expect(shown[''].next[3].start_date).toBe(`${YEAR}-03-16 19:00:00`);
    expect(shown[''].description).toMatch(/^Every week on Tuesday and Thursday, 19:00–21:00/);
    expect(shown['/hu'].description).toMatch(/^Minden héten/);
    expect(shown['/ro'].description).toMatch(/^În fiecare săptămână/);

    for (const prefix of ['', '/hu']) {
      const saved = await http()
        .post(`${prefix}${BASE}/events`)
        .set('Authorization', users.editor.header)
        .send({ title: 'Preview check', status: 'draft', ...SERIES })
        .expect(201);
      const { rules, exdates, rdates, description } = saved.body.recurrence as Tec;
      expect({ rules, exdates, rdates, description }).toEqual({
        rules: shown[prefix].rules,
        exdates: shown[prefix].exdates,
        rdates: shown[prefix].rdates,
        description: shown[prefix].description,
      });
      expect(saved.body.recurrence.next).toEqual(shown[prefix].next.slice(0, 3));
    }
  });

  it('takes the extended query keys and all-day series', async () => {
    const res = await http()
      .get(
        `${BASE}/recurrence?start_date=${YEAR}-12-24&end_date=${YEAR}-12-24&all_day=1` +
          '&recurrence[rules][]=FREQ=YEARLY;COUNT=3',
      )
      .set('Authorization', users.author.header)
      .expect(200);
    expect(res.body.next.map((o: Tec) => o.start_date)).toEqual([
      `${YEAR}-12-24 00:00:00`,
      `${YEAR + 1}-12-24 00:00:00`,
      `${YEAR + 2}-12-24 00:00:00`,
    ]);
    expect(res.body.description).toMatch(/3 times/);
  });

  it('refuses bad input with the write’s localized reasons, then callers who may not create', async () => {
    const bad = await preview(
      { ...asQuery(SERIES), recurrence: '{"rules":["FREQ=HOURLY"]}' },
      '/hu',
    ).expect(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(Object.keys(bad.body.data.params)).toEqual(['recurrence']);
    expect(bad.body.data.params.recurrence).toMatch(/FREQ=HOURLY/);
    expect(bad.body.data.params.recurrence).not.toMatch(/is not supported/);
    for (const recurrence of ['{', '{}', '[1]']) {
      const res = await preview({ ...asQuery(SERIES), recurrence }).expect(400);
      expect(res.body.data.params).toHaveProperty('recurrence');
    }
    const tooMany = await preview({
      ...asQuery(SERIES),
      recurrence: JSON.stringify({ rules: ['FREQ=DAILY;COUNT=5000'] }),
    }).expect(400);
    expect(tooMany.body.data.params.recurrence).toMatch(/1,?000/);
    const missing = await http()
      .get(`${BASE}/recurrence`)
      .set('Authorization', users.editor.header)
      .expect(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
    await preview({ ...asQuery(SERIES), start_date: 'not a date' }).expect(400);
    await preview({ ...asQuery(SERIES), timezone: 'Mars/Olympus' }).expect(400);

    await http().get(`${BASE}/recurrence`).query(asQuery(SERIES)).expect(401);
    await http()
      .get(`${BASE}/recurrence`)
      .query(asQuery(SERIES))
      .set('Authorization', users.subscriber.header)
      .expect(403);
    const tribe = await http()
      .get('/wp-json/tribe/events/v1/recurrence')
      .query(asQuery(SERIES))
      .set('Authorization', users.editor.header)
      .expect(404);
    expect(tribe.body.code).toBe('rest_no_route');
  });

  it('serves the console session (cookie with its nonce)', async () => {
    const session = await logIn(app(), app().getHttpServer(), users.contributor.login);
    await inSession(
      http().get(`/wp-json${BASE}/recurrence`).query(asQuery(SERIES)),
      session,
    ).expect(200);
    await http()
      .get(`/wp-json${BASE}/recurrence`)
      .query(asQuery(SERIES))
      .set('Cookie', session.cookie)
      .expect(401);
  });
});
