import { readXml } from '../helpers/xml.js';
import { eventPublisher, jsonLd, type Tec } from '../helpers/public-pages.js';
import { useTestApp } from '../helpers/app-fixture.js';

/**
 * Recurring events on the public pages and in RSS (CONTRACT §9): a page per occurrence at the
 * plugin's Pro dated address, JSON-LD of that occurrence, the series page listing the next dates
 * with the rule in the reader's language, and RSS listing occurrences as the list does.
 */

const BASE = '/cal/events/v1';
const SITE = 'http://cal.test';

const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];

describe('recurring events on the public pages (e2e)', () => {
  const { app, http, users } = useTestApp();
  const { made, post } = eventPublisher(
    () => app(),
    () => users.editor.header,
  );
  const choirRecurrence = {
    rules: ['FREQ=WEEKLY;COUNT=4'],
    rdates: ['2030-04-02 21:30:00'],
  };

  beforeAll(async () => {
    await post('choir', {
      title: 'Weekly choir',
      slug: 'weekly-choir',
      start_date: '2030-04-02 19:00:00',
      end_date: '2030-04-02 21:00:00',
      timezone: 'Europe/Budapest',
      recurrence: choirRecurrence,
    });
    await post('choir_hu', {
      title: 'Heti kórus',
      slug: 'heti-korus',
      start_date: '2030-04-02 19:00:00',
      end_date: '2030-04-02 21:00:00',
      timezone: 'Europe/Budapest',
      recurrence: choirRecurrence,
      translation_of: made.choir.id,
      i18n_language: 'hu',
    });
    await post('single', {
      title: 'Single recital',
      slug: 'single-recital',
      start_date: '2030-04-09 19:00:00',
      end_date: '2030-04-09 20:00:00',
      timezone: 'Europe/Budapest',
    });
  });

  const occurrences = async () => {
    const res = await http().get(`${BASE}/events?include=${made.choir.id}&per_page=20`).expect(200);
    return res.body.events as Tec[];
  };

  it('answers each occurrence at its dated url, with its own dates and JSON-LD', async () => {
    const items = await occurrences();
    expect(items.map((o) => o.url)).toEqual([
      `${SITE}/event/weekly-choir/2030-04-02/`,
      `${SITE}/event/weekly-choir/2030-04-02/2/`,
      `${SITE}/event/weekly-choir/2030-04-09/`,
      `${SITE}/event/weekly-choir/2030-04-16/`,
      `${SITE}/event/weekly-choir/2030-04-23/`,
    ]);
    for (const item of items) {
      const page = await http().get(item.url.slice(SITE.length)).expect(200);
      expect(canonical(page.text)).toBe(item.url);
      const [ld] = jsonLd(page.text);
      expect(ld).toMatchObject({ '@type': 'Event', name: 'Weekly choir', url: item.url });
      expect(ld.startDate.slice(0, 19)).toBe(item.start_date.replace(' ', 'T'));
      expect(ld.endDate.slice(0, 19)).toBe(item.end_date.replace(' ', 'T'));
      // The calendar link of an occurrence is that occurrence; the series has its own.
      expect(page.text).toContain(`href="${SITE}${BASE}/events/${item.id}.ics"`);
      expect(page.text).toContain(`href="${SITE}${BASE}/events/${made.choir.id}.ics"`);
    }
    const second = await http().get('/event/weekly-choir/2030-04-02/2/').expect(200);
    expect(jsonLd(second.text)[0].startDate).toBe('2030-04-02T21:30:00+02:00');
    expect(second.text).toContain('Tuesday, 2 April 2030, 21:30');
  });

  it('answers 404 where no occurrence is', async () => {
    for (const path of [
      '/event/weekly-choir/2030-04-03/',
      '/event/weekly-choir/2030-04-09/2/',
      '/event/weekly-choir/2030-04-02/1/',
      '/event/weekly-choir/2030-13-45/',
      '/event/weekly-choir/tomorrow/',
      '/event/weekly-choir/2030-04-02/x/',
      '/event/single-recital/2030-04-09/',
      '/event/nothing/2030-04-09/',
    ]) {
      const res = await http().get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('answers 404 for a date a protected series never had, the form for one it has', async () => {
    await post('secret', {
      title: 'Secret rehearsal',
      slug: 'secret-rehearsal',
      start_date: '2030-05-07 19:00:00',
      end_date: '2030-05-07 21:00:00',
      timezone: 'Europe/Budapest',
      password: 'sesame',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
    });
    const form = await http().get('/event/secret-rehearsal/2030-05-14/').expect(200);
    expect(form.text).toContain('name="post_password"');
    const open = await http().get('/event/weekly-choir/2030-05-15/').expect(404);
    for (const path of [
      '/event/secret-rehearsal/2030-05-15/',
      '/event/secret-rehearsal/2030-05-14/2/',
      '/event/secret-rehearsal/1999-01-01/',
    ]) {
      const res = await http().get(path);
      expect([path, res.status]).toEqual([path, 404]);
      // The same page as an open series' 404: nothing says a protected event is there.
      expect(res.text).toBe(open.text);
    }
    // With the password, as without: a date it never had is not found.
    await http()
      .post('/event/secret-rehearsal/2030-05-15/')
      .type('form')
      .send({ post_password: 'sesame' })
      .expect(404);
  });

  it('lists the upcoming dates of the series with its rule in the reader language', async () => {
    const items = await occurrences();
    const page = await http().get('/event/weekly-choir/').expect(200);
    // After the label the description continues the sentence in lower case.
    expect(page.text).toContain('<strong>Repeats:</strong> every week, 19:00–21:00, 4 times');
    for (const item of items) expect(page.text).toContain(`href="${item.url}"`);
    // The series page is the event: JSON-LD of its first occurrence.
    expect(jsonLd(page.text)[0].startDate).toBe('2030-04-02T19:00:00+02:00');
    const hu = await http().get('/hu/event/heti-korus/2030-04-09/').expect(200);
    expect(hu.text).toContain(
      '<strong>Ismétlődés:</strong> minden héten, 19:00–21:00, 4 alkalommal',
    );
    expect(hu.text).toContain('Következő időpontok');
    expect(hu.text).toContain('href="http://cal.test/hu/event/heti-korus/2030-04-16/"');
    // The other language's page of the same day.
    expect(hu.text).toContain(
      'hreflang="en" href="http://cal.test/event/weekly-choir/2030-04-09/"',
    );
    // A slug of another language moves the reader to that language's page of the same day.
    const moved = await http().get('/event/heti-korus/2030-04-09/').expect(302);
    expect(moved.headers.location).toBe('http://cal.test/hu/event/heti-korus/2030-04-09/');
  });

  it('lists occurrences in RSS as the list does, each with its own link', async () => {
    const items = await occurrences();
    const res = await http().get('/feed/').expect(200);
    const xml = readXml(res.text);
    for (const item of items) expect(xml.link).toContain(item.url);
    expect(new Set(xml.guid).size).toBe(xml.guid.length);
    expect(xml.link).toContain(`${SITE}/event/single-recital/`);
  });
});
