import ICAL from 'ical.js';
import { DataSource } from 'typeorm';
import { readXml } from '../helpers/xml.js';
import { useTestApp } from '../helpers/app-fixture.js';

/**
 * What an author's text can do to the feeds that everyone reads (CONTRACT §7): a control
 * character is refused on every text field of every record kind, a row that holds one anyway
 * leaves the RSS feed well-formed and the calendar without it, and text that spells markup
 * reaches feed readers as text. On the engine of TEST_DATABASE_URL.
 */
const BASE = '/cal/events/v1';
const WINDOW = 'start_date=2030-01-01&end_date=2031-01-01';
const START = { start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 12:00:00' };
// oxlint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/;

describe('feeds against hostile text (e2e)', () => {
  const { app, http, users } = useTestApp();
  const post = (path: string, body: object, lang = '') =>
    http().post(`${lang}${BASE}${path}`).set('Authorization', users.editor.header).send(body);

  it('refuses a control character in every text field of every record kind, naming the field', async () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['/events', { title: 'a\u0000b', ...START }, 'title', 'title'],
      ['/events', { title: 'ok', description: 'x\u0001', ...START }, 'description', 'description'],
      ['/events', { title: 'ok', excerpt: '\u001Bx', ...START }, 'excerpt', 'excerpt'],
      ['/events', { title: 'ok', cost: ['5', '\u0007'], ...START }, 'cost', 'cost'],
      ['/events', { title: 'ok', slug: 'a\u007Fb', ...START }, 'slug', 'slug'],
      [
        '/events',
        { title: 'ok', categories: ['Mu\u0008sic'], ...START },
        'categories',
        'categories',
      ],
      [
        '/events',
        { title: 'ok', venue: { venue: 'Hall', city: 'B\u000Bp' }, ...START },
        'venue',
        'venue.city',
      ],
      [
        '/events',
        { title: 'ok', organizer: [{ organizer: 'O\uFFFE' }], ...START },
        'organizer',
        'organizer.organizer',
      ],
      ['/venues', { venue: 'Hall', address: 'x\u000C' }, 'address', 'address'],
      ['/organizers', { organizer: 'Org', phone: '1\u0002' }, 'phone', 'phone'],
      ['/categories', { name: 'Cat\uFFFF' }, 'name', 'name'],
      ['/tags', { name: 'tag', description: '\u0003' }, 'description', 'description'],
    ];
    for (const [path, body, param, name] of cases) {
      const res = await post(path, body);
      expect({ path, param, status: res.status }).toEqual({ path, param, status: 400 });
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params[param]).toContain(name);
      expect(res.body.data.params[param]).toMatch(/control character \(U\+[0-9A-F]{4}\)/);
    }
    // Localized, and on updates too; tab, line feed and carriage return stay allowed.
    const hu = await post('/events', { title: 'a\u0000b', ...START }, '/hu');
    expect(hu.body.data.params.title).toBe(
      'A(z) title vezérlőkaraktert (U+0000) tartalmaz, ilyet egyetlen szöveg sem tartalmazhat.',
    );
    const ok = await post('/events', {
      title: 'Tab\tand line',
      description: 'one\r\ntwo\nthree',
      ...START,
    }).expect(201);
    const update = await post(`/events/${ok.body.id}`, { title: 'x\u0010' });
    expect(update.status).toBe(400);
    expect((await http().get(`${BASE}/events/${ok.body.id}`)).body.title).toBe('Tab\tand line');
  });

  it('keeps both feeds well-formed when a stored row holds control characters', async () => {
    const created = await post('/events', {
      title: 'Stored before the rule',
      excerpt: 'An excerpt',
      slug: 'stored-before',
      ...START,
    }).expect(201);
    const ds = app().get(DataSource);
    const bad = 'Bad\u0001\u0008\u000B\u001F\uFFFE title';
    await ds.query('UPDATE events SET title = ?, excerpt = ? WHERE id = ?', [
      bad,
      bad,
      created.body.id,
    ]);
    // Any write makes the caches read the rows again.
    await post('/tags', { name: 'refresh' }).expect(201);
    const rss = await http().get('/feed/').expect(200);
    const xml = readXml(rss.text);
    expect(xml.title).toContain('Bad title');
    const ics = await http().get(`${BASE}/events.ics?${WINDOW}`).expect(200);
    expect(ics.text).not.toMatch(FORBIDDEN);
    const calendar = new ICAL.Component(ICAL.parse(ics.text) as unknown[]);
    const summaries = calendar
      .getAllSubcomponents('vevent')
      .map((vevent) => vevent.getFirstPropertyValue('summary'));
    expect(summaries).toContain('Bad title');
  });

  it('gives feed readers the text an author wrote, never live markup', async () => {
    await post('/events', {
      title: '&lt;img src=x onerror=alert(1)&gt; night',
      excerpt: '&lt;script&gt;alert(2)&lt;/script&gt; ]]> <b>bold</b> ]]>',
      categories: ['&lt;svg onload=alert(3)&gt;'],
      ...START,
    }).expect(201);
    const rss = await http().get('/feed/').expect(200);
    const xml = readXml(rss.text);
    for (const html of [...xml.title, ...xml.description, ...(xml.category ?? [])]) {
      // Readers take these as HTML: the only elements are a description's paragraphs.
      const tags = html.match(/<\/?[a-z][^>]*>?/gi) ?? [];
      expect(tags.filter((tag) => !/^<\/?p>$/.test(tag))).toEqual([]);
    }
    expect(xml.title).toContain('&lt;img src=x onerror=alert(1)&gt; night');
    expect(xml.description.join('')).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('pages a calendar and says how many events its query matches', async () => {
    for (let i = 0; i < 3; i++) {
      await post('/events', { title: `Paged ${i}`, ...START }).expect(201);
    }
    const all = await http().get(`${BASE}/events.ics?${WINDOW}&search=Paged`).expect(200);
    expect(all.headers['x-tec-total']).toBe('3');
    expect(all.text.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    const page = await http()
      .get(`${BASE}/events.ics?${WINDOW}&search=Paged&per_page=2&page=2`)
      .expect(200);
    expect(page.headers['x-tec-totalpages']).toBe('2');
    expect(page.text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });
});
