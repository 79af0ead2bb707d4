import { MAX_DATE_LENGTH } from '../../src/common/dates/index.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';

/**
 * Date parameters are bounded and their refusals helpful (CONTRACT §4, outside security probe):
 * every date parameter of every route, found in the namespace index, refuses text longer than
 * MAX_DATE_LENGTH with a 400 `rest_invalid_param` naming the limit, before authentication and
 * before any parsing; an unreadable date names the accepted forms, an unknown time zone asks for
 * an IANA name. The parser's own speed on the probe's input is asserted in
 * src/common/dates/strtotime.spec.ts (no wall-clock assertions on HTTP requests here).
 */

/** The probe's inputs: each blocked the event loop for 1-23 s before the fix. */
const PROBES: Record<string, string> = {
  'a + 15,000 spaces + !': `a${' '.repeat(15_000)}!`,
  'next week + 20,000 spaces': `next week${' '.repeat(20_000)}!`,
  'a + 40,000 spaces + ! (40 KB)': `a${' '.repeat(40_000)}!`,
};

/** Date parameters the plugin declares (BEHAVIOR §5.2.1, §7.1.1, §7.4.1, §7.5). */
const KNOWN_DATE_PARAMS = [
  'GET /events start_date',
  'GET /events end_date',
  'GET /events starts_before',
  'GET /events starts_after',
  'GET /events ends_before',
  'GET /events ends_after',
  'POST /events start_date',
  'POST /events end_date',
  'POST /events date',
  'POST /events date_utc',
  'PUT /events/{id} start_date',
  'PATCH /events/by-slug/{slug} date_utc',
  'POST /venues date',
  'POST /venues date_utc',
  'PATCH /venues/{id} date',
  'POST /organizers date',
  'POST /organizers date_utc',
  'PUT /organizers/by-slug/{slug} date_utc',
];

/** The required fields of each create, valid. */
const REQUIRED: Record<string, Record<string, string>> = {
  '/events': { title: 'x', start_date: '2026-11-23 18:00', end_date: '2026-11-23 20:00' },
  '/venues': { venue: 'x' },
  '/organizers': { organizer: 'x' },
};

const isDateParam = (name: string) =>
  /(?:^|_)date(?:_|$)/.test(name) || /^(?:starts|ends)_(?:before|after)$/.test(name);

interface DateParam {
  method: string;
  path: string;
  name: string;
}

describe('date parameters (e2e)', () => {
  const { http, users } = useTestApp();
  const dateParams: DateParam[] = [];
  const ids: Record<string, number> = {};
  const slugs: Record<string, string> = {};

  beforeAll(async () => {
    const make = async (collection: string, body: Record<string, unknown>) => {
      const res = await http()
        .post(`${BASE}/${collection}`)
        .set('Authorization', users.administrator.header)
        .send(body)
        .expect(201);
      ids[collection] = res.body.id;
      slugs[collection] = res.body.slug;
    };
    await make('events', {
      title: 'Dated',
      start_date: '2026-11-23 18:00',
      end_date: '2026-11-23 20:00',
    });
    await make('venues', { venue: 'Dated hall' });
    await make('organizers', { organizer: 'Dated organizer' });

    // Every date parameter the index lists, on every route and method.
    const index = await http().get(BASE).expect(200);
    const routes = index.body.routes as Record<
      string,
      { endpoints: { methods: string[]; args: Record<string, unknown> }[] }
    >;
    for (const [route, { endpoints }] of Object.entries(routes)) {
      const path = route
        .slice(BASE.length)
        .replace('(?P<id>\\d+)', '{id}')
        .replace('(?P<slug>[^/]+)', '{slug}');
      for (const endpoint of endpoints) {
        for (const name of Object.keys(endpoint.args).filter(isDateParam)) {
          for (const method of endpoint.methods) dateParams.push({ method, path, name });
        }
      }
    }
  });

  const urlOf = ({ path }: DateParam) => {
    const collection = path.split('/')[1];
    return `${BASE}${path.replace('{id}', String(ids[collection])).replace('{slug}', slugs[collection])}`;
  };

  /**
   * Sends `value` as the parameter: in the query string of a GET (spaces as `+`, as a browser
   * form does, so that the probe's 15 KB fit in Node's 16 KB request-line limit), in a JSON body
   * otherwise.
   */
  const PREVIEW_PARAMS: Record<string, string> = {
    recurrence: JSON.stringify({ rules: ['FREQ=WEEKLY;COUNT=3'] }),
    start_date: '2030-01-07 10:00:00',
    end_date: '2030-01-07 11:00:00',
  };

  function send(param: DateParam, value: string, auth?: string, prefix = '') {
    const url = `${prefix}${urlOf(param)}`;
    const method = param.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    if (param.method === 'GET') {
      // The recurrence preview requires its rule and dates: a missing one would be reported.
      const others = param.path === '/recurrence' ? PREVIEW_PARAMS : {};
      const query = Object.entries({ ...others, [param.name]: value })
        .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%20/g, '+')}`)
        .join('&');
      const req = http().get(`${url}?${query}`);
      return auth ? req.set('Authorization', auth) : req;
    }
    const req = http()[method](url);
    if (auth) req.set('Authorization', auth);
    // A create also gets its required fields: a missing one would be reported instead.
    const required = param.path === `/${param.path.split('/')[1]}` ? REQUIRED[param.path] : {};
    return req.send({ ...required, [param.name]: value });
  }

  it('finds the date parameters of every route in the index', () => {
    const found = dateParams.map((p) => `${p.method} ${p.path} ${p.name}`);
    expect(found).toEqual(expect.arrayContaining(KNOWN_DATE_PARAMS));
  });

  describe.each(Object.entries(PROBES))('the probe %s', (_name, value) => {
    it('is a 400 naming the limit on every date parameter, also anonymously', async () => {
      for (const param of dateParams) {
        for (const auth of [undefined, users.administrator.header]) {
          const res = await send(param, value, auth);
          const where = `${param.method} ${param.path} ${param.name}`;
          if (param.method === 'GET' && value.length > 16_000) {
            // A query string this long never reaches the app: Node refuses the request line.
            expect({ where, status: res.status }).toEqual({ where, status: 431 });
            continue;
          }
          expect({ where, status: res.status, code: res.body.code }).toEqual({
            where,
            status: 400,
            code: 'rest_invalid_param',
          });
          expect(res.body.data.params[param.name]).toBe(
            `${param.name} is longer than ${MAX_DATE_LENGTH} characters; no date is that long.`,
          );
        }
      }
    });
  });

  it('refuses an over-long date in a form body', async () => {
    const form = await http()
      .post(`${BASE}/events`)
      .type('form')
      .send({ title: 'x', start_date: `a${' '.repeat(15_000)}!`, end_date: '2026-11-23 20:00' })
      .expect(400);
    expect(Object.keys(form.body.data.params)).toEqual(['start_date']);
  });

  it('reads a date padded to exactly the limit, and refuses one character more', async () => {
    const padded = '2026-11-23 18:00'.padEnd(MAX_DATE_LENGTH, ' ');
    await http().get(`${BASE}/events`).query({ start_date: padded }).expect(200);
    const res = await http()
      .get(`${BASE}/events`)
      .query({ start_date: `${padded} ` })
      .expect(400);
    expect(res.body.data.params.start_date).toMatch(/longer than 100 characters/);
  });

  it('localizes the limit', async () => {
    const param = { method: 'GET', path: '/events', name: 'starts_after' };
    const hu = await send(param, 'x'.repeat(500), undefined, '/hu').expect(400);
    expect(hu.body.message).toBe('Érvénytelen paraméter(ek): starts_after');
    expect(hu.body.data.params.starts_after).toBe(
      'A(z) starts_after hosszabb 100 karakternél; ilyen hosszú dátum nincs.',
    );
    const ro = await send(param, 'x'.repeat(500), undefined, '/ro').expect(400);
    expect(ro.body.data.params.starts_after).toBe(
      'starts_after are mai mult de 100 de caractere; nicio dată nu este atât de lungă.',
    );
  });

  describe('an unreadable date', () => {
    it.each([
      ['GET', '/events', 'start_date'],
      ['POST', '/events', 'end_date'],
      ['POST', '/venues', 'date'],
      ['POST', '/organizers', 'date_utc'],
    ])('%s %s %s names the accepted forms with examples', async (method, path, name) => {
      const res = await send({ method, path, name }, 'before my birthday', users.editor.header);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      const reason = res.body.data.params[name] as string;
      expect(reason).toContain(`${name} is not a date`);
      for (const example of ['2026-11-23 18:00', 'next friday 8pm', 'Unix timestamp', 'English']) {
        expect(reason).toContain(example);
      }
    });

    it('is explained in Hungarian and Romanian', async () => {
      const param = { method: 'GET', path: '/events', name: 'ends_before' };
      const hu = await send(param, 'tegnap', undefined, '/hu').expect(400);
      expect(hu.body.data.params.ends_before).toMatch(
        /^A\(z\) ends_before nem értelmezhető dátumként\. .*2026-11-23 18:00.*angol nyelvű.*next friday 8pm/,
      );
      const ro = await send(param, 'mâine', undefined, '/ro').expect(400);
      expect(ro.body.data.params.ends_before).toMatch(
        /^ends_before nu este o dată .*2026-11-23 18:00.*limba engleză.*next friday 8pm/,
      );
    });

    it('out of the storable years says so', async () => {
      const res = await send(
        { method: 'POST', path: '/events', name: 'start_date' },
        '0000-00-00 00:00:00',
        users.editor.header,
      ).expect(400);
      expect(res.body.data.params).toEqual({
        start_date: 'start_date is outside the years 1 to 9999.',
      });
    });
  });

  it('asks for an IANA name for an unknown time zone', async () => {
    const res = await postEvent(
      http,
      users.editor.header,
      { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow 2pm', timezone: 'Mars/Base' },
      `/hu${BASE}`,
    ).expect(400);
    expect(res.body.data.params.timezone).toBe(
      'A(z) timezone nem ismert időzóna. Adj meg IANA-időzónanevet, például Europe/Budapest, vagy UTC-t, vagy eltolást, például UTC+2.',
    );
    const en = await postEvent(http, users.editor.header, {
      title: 'x',
      start_date: 'tomorrow',
      end_date: 'tomorrow 2pm',
      timezone: 'CEST',
    }).expect(400);
    expect(en.body.data.params.timezone).toMatch(/IANA time zone name such as Europe\/Budapest/);
  });

  it('still reads natural language and the week phrases', async () => {
    const res = await postEvent(http, users.editor.header, {
      title: 'Week phrases',
      start_date: 'saturday   next week 18:00',
      end_date: 'next week sunday 20:00',
    }).expect(201);
    expect(res.body.start_date).toMatch(/ 18:00:00$/);
    expect(res.body.end_date).toMatch(/ 20:00:00$/);
  });
});
