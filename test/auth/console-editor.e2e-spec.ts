import request from 'supertest';
import { UsersService } from '../../src/auth/users/users.service.js';
import {
  chooseOption,
  consoleCatalogue,
  consoleShot,
  logIn,
  openConsolePage,
  axeSettled,
} from '../helpers/console-page.js';
import { useConsoleApp } from '../helpers/console-suite.js';
import { axeViolations as axe, type Page } from '../helpers/chromium.js';
import { postEvent } from '../helpers/app-fixture.js';

/**
 * "An editor's day" in the editors' console (issue 51), in headless Chromium against the built
 * console: a weekly series with a venue written through the form and the recurrence editor, one
 * occurrence changed alone, one occurrence moved on the calendar by dragging it (the series
 * question answered "this occurrence"), a contributor's submission approved by an editor; every
 * result read back through the REST API. The form, the recurrence editor and the calendar (month,
 * week, and the list a phone shows) pass axe-core (no serious or critical violation) in en, hu
 * and ro; the form and the calendar fit a 375 px wide screen. With UPDATE_SCREENSHOTS=1,
 * screenshots into docs/screenshots/.
 */

const API = '/cal/events/v1';
const PASSWORD = 'console editor passphrase';
const VENUE = 'Riverside Hall';
const SERIES = 'Weekly choir rehearsal';

type Words = {
  cal: {
    recurrence: { repeats: string };
    occurrence: { single: string };
    status: Record<string, string>;
  };
  ra: { action: { save: string } };
};
const words = (lang: string) => consoleCatalogue(lang) as Words;

type Event = Record<string, unknown> & { id: number; title: string; start_date: string };

describe('an editor’s day in the console (e2e)', () => {
  const { app, origin, browser, users, http } = useConsoleApp({
    seed: async () => {
      const accounts = app().get(UsersService);
      for (const role of ['editor', 'contributor'] as const) {
        await accounts.setLoginPassword(users[role].login, PASSWORD);
      }
      await http()
        .post(`${API}/venues`)
        .set('Authorization', users.editor.header)
        .send({ venue: VENUE, city: 'Szeged', status: 'publish' })
        .expect(201);
    },
  });

  const api = (path: string) =>
    http().get(`${API}${path}`).set('Authorization', users.editor.header);

  /** A page of a fresh context, logged in as `login` at `path`; script errors are collected. */
  async function session(path: string, login: string, width = 1280) {
    const { page, errors } = await openConsolePage(browser(), `${origin()}${path}`, width);
    await logIn(page, login, PASSWORD);
    return { page, errors };
  }

  /** The form's start and end (datetime-local inputs) and the recurrence editor switched on. */
  async function datesAndSeries(page: Page, lang: string) {
    await page.waitForSelector('input[name="title"]', { timeout: 20_000 });
    await page.fill('input[name="start_date"]', '2031-04-07T18:00');
    await page.fill('input[name="end_date"]', '2031-04-07T20:00');
    await page.getByLabel(words(lang).cal.recurrence.repeats).check();
    // The server's preview: the series in words and its next dates.
    await page.getByTestId('recurrence-preview').waitFor({ timeout: 20_000 });
  }

  it.each([
    ['en', '/admin/'],
    ['hu', '/hu/admin/'],
    ['ro', '/ro/admin/'],
  ])(
    '%s: the event form and the recurrence editor pass axe-core',
    async (lang, path) => {
      const { page, errors } = await session(`${path}#/events/create`, users.editor.login);
      await page.waitForSelector('input[name="title"]', { timeout: 20_000 });
      expect(await page.evaluate('document.documentElement.lang')).toBe(lang);
      expect(await axe(page)).toEqual([]);
      await datesAndSeries(page, lang);
      // The start written out in the console's language under its field.
      const start = new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short' }).format(
        new Date(2031, 3, 7, 18, 0),
      );
      expect(await page.getByTestId('date-hint').first().innerText()).toBe(start);
      expect(await axe(page)).toEqual([]);
      await consoleShot(page, `event-recurrence-${lang}`);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    90_000,
  );

  it('the form and the recurrence editor fit a 375 px wide screen', async () => {
    const { page } = await session('/admin/#/events/create', users.editor.login, 375);
    await datesAndSeries(page, 'en');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await consoleShot(page, 'event-form-phone-en');
    await page.context().close();
  }, 90_000);

  /** A weekly series on Mondays of March 2032 (four of them) in `lang`, written through the API. */
  async function calendarSeries(title: string, lang = 'en'): Promise<number> {
    const res = await postEvent(http, users.editor.header, {
      title,
      i18n_language: lang,
      status: 'publish',
      start_date: '2032-03-01 10:00:00',
      end_date: '2032-03-01 11:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=4;BYDAY=MO'] },
    }).expect(201);
    return (res.body as { id: number }).id;
  }

  /** The calendar at March 2032, once `title` is on it. */
  async function calendarAt(path: string, title: string, width = 1280, view = '') {
    const opened = await session(
      `${path}#/calendar?date=2032-03-01${view ? `&view=${view}` : ''}`,
      users.editor.login,
      width,
    );
    await opened.page.locator('.fc-event', { hasText: title }).first().waitFor({ timeout: 20_000 });
    return opened;
  }

  it.each([
    ['en', '/admin/'],
    ['hu', '/hu/admin/'],
    ['ro', '/ro/admin/'],
  ])(
    '%s: the calendar passes axe-core, on a wide screen and as a list at 375 px',
    async (lang, path) => {
      const title = `Calendar check ${lang}`;
      await calendarSeries(title, lang);
      for (const [width, view] of [
        [1280, 'dayGridMonth'],
        [1280, 'timeGridWeek'],
        [375, ''],
      ] as const) {
        const { page, errors } = await calendarAt(path, title, width, view);
        expect(await page.evaluate('document.documentElement.lang')).toBe(lang);
        expect([width, view, await axe(page)]).toEqual([width, view, []]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          width,
        );
        await consoleShot(
          page,
          `calendar${width < 600 ? '-phone' : view === 'timeGridWeek' ? '-week' : ''}-${lang}`,
        );
        expect(errors).toEqual([]);
        await page.context().close();
      }
    },
    120_000,
  );

  it('an editor moves one occurrence on the calendar and answers "this occurrence"', async () => {
    const title = 'Calendar move rehearsal';
    const id = await calendarSeries(title);
    const { page, errors } = await calendarAt('/admin/', title);
    // The shown month and view are kept in the address.
    await page.waitForURL(/view=dayGridMonth/, { timeout: 20_000 });
    // The second Monday (8 March) to the Wednesday after it, by the mouse as a person drags.
    const from = page.locator('td[data-date="2032-03-08"] .fc-event', { hasText: title });
    const to = page.locator('td[data-date="2032-03-10"] .fc-daygrid-day-frame');
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2, { steps: 5 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
    await page.mouse.up();
    // The series question; "this occurrence" splits it off alone (`_tec_update_type=single`).
    const single = page.getByRole('button', { name: words('en').cal.occurrence.single });
    await single.waitFor();
    expect(await axeSettled(page)).toEqual([]);
    await consoleShot(page, 'occurrence-en');
    await single.click();
    await page
      .locator('td[data-date="2032-03-10"] .fc-event', { hasText: title })
      .waitFor({ timeout: 20_000 });
    const starts = async () =>
      (
        (
          await api('/events')
            .query({ start_date: '2032-03-01', end_date: '2032-03-31', search: title })
            .expect(200)
        ).body.events as Event[]
      )
        .map((e) => e.start_date)
        .sort();
    await expect
      .poll(starts, { timeout: 20_000 })
      .toEqual([
        '2032-03-01 10:00:00',
        '2032-03-10 10:00:00',
        '2032-03-15 10:00:00',
        '2032-03-22 10:00:00',
      ]);
    // The moved one is an event of its own; the series keeps its rule and its other dates.
    const { body: series } = await api(`/events/${id}`).expect(200);
    expect(series.recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=4;BYDAY=MO']);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  /**
   * Presses Tab until the focused element is the one `is` names (at most `max` presses, then the
   * test fails naming what had the focus): how a keyboard user reaches it.
   */
  async function tabTo(page: Page, is: string, max = 60) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(`!!document.activeElement?.matches(${JSON.stringify(is)})`)) return;
    }
    const focused = await page.evaluate('document.activeElement?.outerHTML.slice(0, 200)');
    throw new Error(`${max} presses of Tab never reached ${is} (focus on ${String(focused)})`);
  }

  it('an editor logs in and saves a new event as a draft with the keyboard alone (hu)', async () => {
    const { page, errors } = await openConsolePage(browser(), `${origin()}/hu/admin/`);
    await page.waitForSelector('input[name="username"]', { timeout: 20_000 });
    await tabTo(page, 'input[name="username"]');
    await page.keyboard.type(users.editor.login);
    await tabTo(page, 'input[name="password"]');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    // The menu's link to the events, then the list's "create" button, each reached by Tab.
    await page.waitForSelector('a[href="#/events"]', { timeout: 20_000 });
    await tabTo(page, 'a[href="#/events"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/events(\?|$)/, { timeout: 20_000 });
    await page.waitForSelector('a[href="#/events/create"]', { timeout: 20_000 });
    await tabTo(page, 'a[href="#/events/create"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('input[name="title"]', { timeout: 20_000 });
    await tabTo(page, 'input[name="title"]');
    const title = 'Billentyűzettel írt esemény';
    await page.keyboard.type(title);
    // Enter in a field submits the form: a title alone saves a draft (the dates are prefilled).
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/events\/\d+$/, { timeout: 20_000 });
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    const { body: saved } = await api(`/events/${id}`).expect(200);
    expect([saved.title, saved.status]).toEqual([title, 'draft']);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  async function occurrences(title: string): Promise<Event[]> {
    const list = await api('/events')
      .query({ start_date: '2031-01-01', end_date: '2031-12-31', per_page: 50 })
      .expect(200);
    return (list.body.events as Event[]).filter((e) => e.title === title);
  }

  it('an editor writes a weekly series with a venue, then changes one occurrence alone', async () => {
    const { page, errors } = await session('/admin/#/events/create', users.editor.login);
    await datesAndSeries(page, 'en');
    await page.fill('input[name="title"]', SERIES);
    await chooseOption(
      page,
      page.getByRole('combobox', { name: 'Status' }),
      words('en').cal.status.publish,
    );
    await page.getByRole('combobox', { name: 'Venue' }).fill('Riverside');
    await page.getByRole('option', { name: VENUE }).click();
    await page.click('button[type="submit"]');
    await page.waitForURL(/#\/events\/\d+$/, { timeout: 20_000 });
    const id = Number(/(\d+)$/.exec(page.url())![1]);

    const { body: saved } = await api(`/events/${id}`).expect(200);
    expect(saved.title).toBe(SERIES);
    expect(saved.status).toBe('publish');
    expect(saved.venue.venue).toBe(VENUE);
    expect(saved.recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=10;BYDAY=MO']);
    const before = await occurrences(SERIES);
    expect(before).toHaveLength(10);
    expect(before.map((e) => e.start_date.slice(0, 10)).slice(0, 3)).toEqual([
      '2031-04-07',
      '2031-04-14',
      '2031-04-21',
    ]);

    // The third occurrence, by its provisional id: "this occurrence" only.
    const third = before[2];
    expect(third.id).toBeGreaterThanOrEqual(10_000_000);
    await page.goto(`${origin()}/admin/#/events/${third.id}`);
    await page.waitForSelector('input[name="title"]', { timeout: 20_000 });
    await page.locator('input[name="title"]').fill('Choir rehearsal with the orchestra');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: words('en').cal.occurrence.single }).click();
    await page.waitForURL((url) => !url.hash.includes(String(third.id)), { timeout: 20_000 });

    const changed = await occurrences('Choir rehearsal with the orchestra');
    expect(changed).toHaveLength(1);
    expect(changed[0].start_date.slice(0, 10)).toBe('2031-04-21');
    expect(changed[0].id).toBeLessThan(10_000_000);
    const rest = await occurrences(SERIES);
    expect(rest).toHaveLength(9);
    expect(rest.map((e) => e.start_date.slice(0, 10))).not.toContain('2031-04-21');
    expect(errors).toEqual([]);
    await page.context().close();

    // The trash and back (the API, as the trash screen uses it), and a Hungarian translation.
    const editor = users.editor.header;
    const server = app().getHttpServer();
    const trashed = await request(server)
      .delete(`${API}/events/${changed[0].id}`)
      .set('Authorization', editor)
      .expect(200);
    expect(trashed.body.status).toBe('trash');
    expect(await occurrences('Choir rehearsal with the orchestra')).toEqual([]);
    await request(server)
      .post(`${API}/events/${changed[0].id}`)
      .set('Authorization', editor)
      .send({ status: 'draft' })
      .expect(200);
    expect((await api(`/events/${changed[0].id}`).expect(200)).body.status).toBe('draft');
    const hu = await request(server)
      .post(`${API}/events`)
      .set('Authorization', editor)
      .send({
        title: 'Heti kórpróba',
        translation_of: id,
        i18n_language: 'hu',
        start_date: '2031-04-07 18:00:00',
        end_date: '2031-04-07 20:00:00',
      })
      .expect(201);
    expect(hu.body.recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=10;BYDAY=MO']);
    expect((await api(`/events/${id}`).expect(200)).body.translations).toMatchObject({
      hu: hu.body.id,
    });
  }, 120_000);

  it('a contributor submits an event for review and an editor publishes it', async () => {
    const title = 'Open rehearsal for families';
    const en = words('en');
    const contributor = await session('/admin/#/events/create', users.contributor.login);
    const form = contributor.page;
    await form.waitForSelector('input[name="title"]', { timeout: 20_000 });
    await form.fill('input[name="title"]', title);
    await chooseOption(form, form.getByRole('combobox', { name: 'Status' }), en.cal.status.pending);
    await form.click('button[type="submit"]');
    await form.waitForURL(/#\/events\/\d+$/, { timeout: 20_000 });
    const id = Number(/(\d+)$/.exec(form.url())![1]);
    const { body: submitted } = await api(`/events/${id}`).expect(200);
    expect(submitted.status).toBe('pending');
    expect(submitted.author).toBe(String(users.contributor.id));
    expect(contributor.errors).toEqual([]);
    await form.context().close();

    const { page, errors } = await session(`/admin/#/events/${id}`, users.editor.login);
    await page.waitForSelector('input[name="title"]', { timeout: 20_000 });
    await chooseOption(page, page.getByRole('combobox', { name: 'Status' }), en.cal.status.publish);
    await page.click('button[type="submit"]');
    await page.waitForURL((url) => !url.hash.endsWith(`/events/${id}`), { timeout: 20_000 });
    const { body: approved } = await api(`/events/${id}`).expect(200);
    expect(approved.status).toBe('publish');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
