import { DateTime } from 'luxon';
import type { RoleUsers } from '../helpers/auth.js';
import { postRecord, useTestApp } from '../helpers/app-fixture.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';

const BASE = '/cal/events/v1';
const PLUGIN = '/wp-json/tribe/events/v1';
const day = (offset: number) =>
  `${DateTime.utc().plus({ days: offset }).toFormat('yyyy-MM-dd')} 10:00:00`;

type Body = Record<string, unknown> & { id: number };

/** The Virtual Events module (issue 49), built on the extension surface alone. */
describe('Virtual Events module (e2e)', () => {
  const { app, users, http } = useTestApp({}, 60_000);
  const ids: Record<string, number> = {};

  const write = (path: string, body: Record<string, unknown>, status = 201) =>
    postRecord(http, users.editor.header, path, body, status, BASE);
  const event = (title: string, offset: number, extra: Record<string, unknown> = {}) =>
    write('/events', { title, start_date: day(offset), end_date: day(offset), ...extra });
  const listed = async (query: string, base = BASE) => {
    const res = await http().get(`${base}/events${query}`).expect(200);
    return (res.body.events as Body[]).map((e) => e.id);
  };

  beforeAll(async () => {
    const venue = await write('/venues', { venue: 'Hall' });
    ids.plain = (await event('Plain', 1)).id;
    ids.online = (
      await event('Online', 2, {
        is_virtual: true,
        virtual_url: 'https://meet.example.org/room',
        virtual_video_source: 'zoom',
      })
    ).id;
    ids.mixed = (await event('Mixed', 3, { is_virtual: 'true', venue: venue.id })).id;
    ids.locked = (
      await event('Locked', 4, {
        is_virtual: true,
        virtual_url: 'https://meet.example.org/secret',
        password: 's3cret',
      })
    ).id;
  }, 60_000);

  it('adds the three fields to every event, in both namespaces', async () => {
    for (const base of [BASE, PLUGIN]) {
      const res = await http().get(`${base}/events?per_page=10`).expect(200);
      const byId = new Map((res.body.events as Body[]).map((e) => [e.id, e]));
      expect(byId.get(ids.plain)).toMatchObject({
        is_virtual: false,
        virtual_url: null,
        virtual_video_source: '',
      });
      expect(byId.get(ids.online)).toMatchObject({
        is_virtual: true,
        virtual_url: 'https://meet.example.org/room',
        virtual_video_source: 'zoom',
      });
      // Virtual without a link: "" and the default source.
      expect(byId.get(ids.mixed)).toMatchObject({
        is_virtual: true,
        virtual_url: '',
        virtual_video_source: 'video',
      });
      const single = await http().get(`${base}/events/${ids.online}`).expect(200);
      expect(single.body.virtual_url).toBe('https://meet.example.org/room');
    }
  });

  it('blanks them on a protected event read without its password', async () => {
    const res = await http().get(`${BASE}/events?include=${ids.locked}`).expect(200);
    expect(res.body.events[0]).toMatchObject({
      is_virtual: null,
      virtual_url: '',
      virtual_video_source: '',
    });
    const open = await http().get(`${BASE}/events/${ids.locked}?password=s3cret`).expect(200);
    expect(open.body).toMatchObject({
      is_virtual: true,
      virtual_url: 'https://meet.example.org/secret',
    });
  });

  it('says online in JSON-LD: OnlineEventAttendanceMode, or Mixed beside a venue', async () => {
    const online = (await http().get(`${BASE}/events/${ids.online}`).expect(200)).body;
    expect(online.json_ld).toMatchObject({
      eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
      location: { '@type': 'VirtualLocation', url: 'https://meet.example.org/room' },
    });
    const mixed = (await http().get(`${BASE}/events/${ids.mixed}`).expect(200)).body;
    expect(mixed.json_ld.eventAttendanceMode).toBe('https://schema.org/MixedEventAttendanceMode');
    expect(mixed.json_ld.location).toHaveLength(2);
    const plain = (await http().get(`${BASE}/events/${ids.plain}`).expect(200)).body;
    expect(plain.json_ld.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode');
  });

  it('says online in the calendar views’ JSON-LD, and nothing of a place alone', async () => {
    // The list view from the first of them lists all four, in the order of their dates.
    const first = day(1).slice(0, 10);
    const res = await http().get(`/events/list/?tribe-bar-date=${first}`).expect(200);
    const [list] = [
      ...res.text.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g),
    ].map((m) => JSON.parse(m[1]) as { itemListElement: Array<{ item: Body }> });
    const items = new Map(list.itemListElement.map(({ item }) => [item.name, item]));
    expect(items.get('Plain')).not.toHaveProperty('eventAttendanceMode');
    expect(items.get('Online')).toMatchObject({
      eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
      location: { '@type': 'VirtualLocation', url: 'https://meet.example.org/room' },
    });
    expect(items.get('Mixed')).toMatchObject({
      eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
      location: [{ '@type': 'Place', name: 'Hall' }, { '@type': 'VirtualLocation' }],
    });
    expect(res.text).not.toContain('meet.example.org/secret');
  });

  it('carries the link in the iCalendar feeds, except a protected event’s', async () => {
    const one = await http().get(`${BASE}/events/${ids.online}.ics`).expect(200);
    expect(one.text).toContain(
      'CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://meet.example.org/room\r\n',
    );
    expect(one.text).toContain('X-GOOGLE-CONFERENCE:https://meet.example.org/room\r\n');
    const feed = await http().get(`${BASE}/events.ics?per_page=50`).expect(200);
    expect(feed.text).toContain('https://meet.example.org/room');
    expect(feed.text).not.toContain('https://meet.example.org/secret');
    const plain = await http().get(`${BASE}/events/${ids.plain}.ics`).expect(200);
    expect(plain.text).not.toContain('CONFERENCE');
  });

  it('says online in the event page’s JSON-LD', async () => {
    const slug = (await http().get(`${BASE}/events/${ids.online}`).expect(200)).body.slug;
    const page = await http().get(`/event/${slug}/`).expect(200);
    const ld = JSON.parse(
      /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page.text)![1],
    ) as Record<string, unknown>;
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(ld.location).toMatchObject({ '@type': 'VirtualLocation' });
    const lockedSlug = (
      await http().get(`${BASE}/events/${ids.locked}?password=s3cret`).expect(200)
    ).body.slug;
    const locked = await http().get(`/event/${lockedSlug}/`);
    expect(locked.text).not.toContain('meet.example.org/secret');
  });

  it('says online on the event page, with the link only to a reader who may see it', async () => {
    const slugOf = async (id: number) =>
      (await http().get(`${BASE}/events/${id}?password=s3cret`).expect(200)).body.slug as string;
    const page = await http()
      .get(`/event/${await slugOf(ids.online)}/`)
      .expect(200);
    expect(page.text).toMatch(
      /<dt>Online<\/dt><dd><a href="https:\/\/meet\.example\.org\/room" rel="noopener">Join the online event<\/a><\/dd>/,
    );
    // Virtual without a link: online, no link.
    const mixed = await http()
      .get(`/event/${await slugOf(ids.mixed)}/`)
      .expect(200);
    expect(mixed.text).toContain('<dd>This event takes place online</dd>');
    const plain = await http()
      .get(`/event/${await slugOf(ids.plain)}/`)
      .expect(200);
    expect(plain.text).not.toContain('<dt>Online</dt>');
    // A protected event: the form without the password, the link once it is typed.
    const lockedPath = `/event/${await slugOf(ids.locked)}/`;
    const form = await http().get(lockedPath).expect(200);
    expect(form.text).not.toContain('meet.example.org/secret');
    const wrong = await http().post(lockedPath).type('form').send({ post_password: 'nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.text).not.toContain('meet.example.org/secret');
    const open = await http()
      .post(lockedPath)
      .type('form')
      .send({ post_password: 's3cret' })
      .expect(200);
    expect(open.text).toContain('href="https://meet.example.org/secret"');
  });

  it('filters the list with virtual=true|false and echoes it', async () => {
    const online = await listed('?virtual=true&per_page=50');
    expect(online).toEqual(expect.arrayContaining([ids.online, ids.mixed, ids.locked]));
    expect(online).not.toContain(ids.plain);
    const offline = await listed('?virtual=0&per_page=50');
    expect(offline).toContain(ids.plain);
    expect(offline).not.toContain(ids.online);
    expect(await listed('?virtual=true&per_page=50', PLUGIN)).toEqual(online);
    const res = await http().get(`${BASE}/events?virtual=1&per_page=1`).expect(200);
    expect(res.body.rest_url).toContain('virtual=1');
    expect(res.body.next_rest_url).toContain('virtual=1');
    const bad = await http().get(`${BASE}/events?virtual=maybe`).expect(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect(bad.body.data.params.virtual).toBe('virtual is not of type boolean.');
  });

  it('accepts writes: http(s) links only, false clears the others, a list sees the change', async () => {
    const created = await event('Later online', 5);
    expect(await listed('?virtual=true&per_page=50')).not.toContain(created.id);
    const updated = await write(
      `/events/${created.id}`,
      { virtual_url: 'http://stream.example.org/' },
      200,
    );
    expect(updated).toMatchObject({ is_virtual: true, virtual_url: 'http://stream.example.org/' });
    // The cached filtered list follows the write.
    expect(await listed('?virtual=true&per_page=50')).toContain(created.id);
    const source = await write(`/events/${created.id}`, { virtual_video_source: 'youtube' }, 200);
    expect(source).toMatchObject({
      virtual_url: 'http://stream.example.org/',
      virtual_video_source: 'youtube',
    });
    const cleared = await write(`/events/${created.id}`, { is_virtual: false }, 200);
    expect(cleared).toMatchObject({
      is_virtual: false,
      virtual_url: null,
      virtual_video_source: '',
    });
    expect(await listed('?virtual=true&per_page=50')).not.toContain(created.id);

    const bad = await http()
      .post(`${BASE}/events/${created.id}`)
      .set('Authorization', users.editor.header)
      .send({ virtual_url: 'javascript:alert(1)', virtual_video_source: 'skype' })
      .expect(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual([
      'virtual_url',
      'virtual_video_source',
    ]);
    // With the core's own checks of the write plan, in one localized 400.
    const both = await http()
      .post(`/ro${BASE}/events/${created.id}`)
      .set('Authorization', users.editor.header)
      .send({ virtual_url: 'ftp://files.example.org/', image: 'ftp://files.example.org/a.png' })
      .expect(400);
    expect(Object.keys(both.body.data.params).sort()).toEqual(['image', 'virtual_url']);
    expect(both.body.data.params.virtual_url).not.toMatch(/must be an http/);
    const ftp = await http()
      .post(`${BASE}/events/${created.id}`)
      .set('Authorization', users.editor.header)
      .send({ virtual_url: 'ftp://files.example.org/' })
      .expect(400);
    expect(ftp.body.data.params.virtual_url).toBe(
      'virtual_url must be an http or https URL, such as https://example.org/.',
    );
    // Nothing was written by the refused requests.
    const read = await http().get(`${BASE}/events/${created.id}`).expect(200);
    expect(read.body.is_virtual).toBe(false);
  });

  it('refuses a link that is not http(s) from every role as a core field is refused, localized', async () => {
    const target = await event('Roles', 6);
    const roles = [undefined, ...(Object.keys(users) as Array<keyof RoleUsers>)];
    const refused: string[] = [];
    for (const role of roles) {
      for (const path of ['/events', `/events/${target.id}`]) {
        const send = (prefix: string, body: Record<string, unknown>) => {
          const req = http().post(`${prefix}${BASE}${path}`);
          if (role) req.set('Authorization', users[role].header);
          return req.send({ title: 'Refused', start_date: day(7), end_date: day(7), ...body });
        };
        const virtual = await send('', { virtual_url: 'ftp://files.example.org/' });
        // The same request with a bad core link: the module's field is checked like the core's.
        const core = await send('', { image: 'ftp://files.example.org/a.png' });
        const label = `${role ?? 'anonymous'} ${path}`;
        expect({ label, status: virtual.status }).toEqual({ label, status: core.status });
        if (virtual.status !== 400) {
          expect({ label, code: virtual.body.code }).toEqual({ label, code: core.body.code });
          continue;
        }
        expect(virtual.body.data.params.virtual_url).toBe(
          'virtual_url must be an http or https URL, such as https://example.org/.',
        );
        refused.push(label);
        const ro = await send('/ro', { virtual_url: 'javascript:alert(1)' }).expect(400);
        expect(ro.body.data.params.virtual_url).toMatch(/virtual_url/);
        expect(ro.body.data.params.virtual_url).not.toBe(virtual.body.data.params.virtual_url);
      }
    }
    // Parameters are checked before permission (BEHAVIOR §1.1): every caller gets the 400.
    expect(refused).toHaveLength(roles.length * 2);
    // Nothing was written by the refused requests.
    const read = await http().get(`${BASE}/events/${target.id}`).expect(200);
    expect(read.body).toMatchObject({ title: 'Roles', is_virtual: false });
  });

  it('describes the fields and the filter in each language’s document', async () => {
    const texts: Record<string, string> = {};
    for (const lang of ['en', 'hu', 'ro']) {
      const doc = (await http().get(`/${lang}${BASE}/doc`).expect(200)).body;
      const props = doc.components.schemas.Event.properties;
      expect(Object.keys(props)).toEqual(
        expect.arrayContaining(['is_virtual', 'virtual_url', 'virtual_video_source']),
      );
      const parameter = doc.paths['/events'].get.parameters.find(
        (p: { name: string }) => p.name === 'virtual',
      );
      expect(parameter.description).not.toMatch(/virtual_events\.doc/);
      expect(doc.components.schemas.CreateEventDto.properties.virtual_url).toBeDefined();
      texts[lang] = props.is_virtual.description as string;
      expect(texts[lang]).not.toMatch(/virtual_events\.doc/);
    }
    expect(new Set(Object.values(texts)).size).toBe(3);
    const plugin = (await http().get(`${PLUGIN}/doc`).expect(200)).body;
    expect(plugin.components.schemas.Event.properties.is_virtual).toBeDefined();
  });

  it('adds no statement to a list page: its table is read with the events’ rows', async () => {
    const ofModule = async (query: string) => {
      const statements: string[] = [];
      await countQueries(
        app(),
        async () => {
          await coldCaches(app());
          await http().get(`${BASE}/events${query}`).expect(200);
        },
        statements,
      );
      return statements.filter((sql) => /virtual_events/.test(sql));
    };
    for (const query of ['?per_page=1', '?per_page=5']) {
      const naming = await ofModule(query);
      expect(naming).toHaveLength(1);
      // The events' own rows statement, joined: not a query of the module's.
      expect(naming[0]).toMatch(/FROM [`"]events[`"] r LEFT JOIN [`"]virtual_events[`"]/);
    }
    // Warm: the payloads, with the module's fields, come from the record cache.
    const warm: string[] = [];
    await countQueries(
      app(),
      () => http().get(`${BASE}/events?per_page=5&_=warm`).expect(200),
      warm,
    );
    expect(warm.filter((sql) => /virtual_events/.test(sql))).toEqual([]);
    // The filter is a condition of the list's own statements (count and page).
    expect((await ofModule('?virtual=true&per_page=4')).length).toBe(
      (await ofModule('?virtual=true&per_page=1')).length,
    );
  });
});
