import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consoleCatalogue, logIn, openConsolePage, consoleShot } from '../helpers/console-page.js';
import { useConsoleApp } from '../helpers/console-suite.js';
import { axeViolations as axe, type Page } from '../helpers/chromium.js';
import { postEvent } from '../helpers/app-fixture.js';

/**
 * The editors' console (issue 51) in headless Chromium, as built by `npm run build` and served by
 * the server under its CSP: the login screen and the events list in three languages with no
 * serious or critical axe-core violation, no script error and no CSP violation; an editor logs in,
 * creates an event from a title alone (a draft at the next full hour), and logs out. With
 * UPDATE_SCREENSHOTS=1, screenshots into docs/screenshots/.
 */
const API = '/cal/events/v1';
const ADMIN_PASSWORD = 'console administrator passphrase';
const TITLES: Record<string, string> = {
  en: 'Spring concert in the park',
  hu: 'Tavaszi koncert a parkban',
  ro: 'Concert de primăvară în parc',
};

type Catalogue = { ra: { auth: Record<string, string> }; resources: { events: { name: string } } };
const catalogue = (lang: string) => consoleCatalogue(lang) as Catalogue;
const plural = (name: string) => name.split(' |||| ')[1];

describe('editors console in Chromium (e2e)', () => {
  const { app, origin, browser, users, http } = useConsoleApp({
    env: { ADMIN_LOGIN: 'chief', ADMIN_PASSWORD },
    seed: async () => {
      // The API lists the records of the language it is asked in: one event in each language.
      for (const [lang, title] of Object.entries(TITLES)) {
        await postEvent(http, users.editor.header, {
          title,
          status: 'publish',
          start_date: '2030-03-30 19:00:00',
          end_date: '2030-03-30 21:00:00',
          venue: { venue: `City Park Stage ${lang}`, city: 'Budapest' },
          i18n_language: lang,
        }).expect(201);
      }
    },
  });

  /** A page that records script errors and CSP violations (both reach the console as errors). */
  async function open(path: string) {
    const { page, errors, status } = await openConsolePage(browser(), `${origin()}${path}`);
    expect([200, 304]).toContain(status);
    return { page, errors };
  }

  /** The editor, given a console password, logged in through the form at `path`. */
  async function openAsEditor(path: string) {
    const password = 'editor console passphrase';
    const usersService = app().get(
      (await import('../../src/auth/users/users.service.js')).UsersService,
    );
    await usersService.setLoginPassword(users.editor.login, password);
    const opened = await open(path);
    await logIn(opened.page, users.editor.login, password);
    return opened;
  }

  const text = (page: Page) => page.evaluate('document.body.textContent') as Promise<string>;

  it.each([
    ['en', '/admin/'],
    ['hu', '/hu/admin/'],
    ['ro', '/ro/admin/'],
  ])(
    '%s: the login screen and the events list, accessible, without script errors under the CSP',
    async (lang, path) => {
      const words = catalogue(lang);
      const { page, errors } = await open(path);
      expect(await page.evaluate('document.documentElement.lang')).toBe(lang);
      await page.waitForSelector('input[name="username"]');
      expect(await text(page)).toContain(words.ra.auth.sign_in);
      expect(await axe(page)).toEqual([]);
      await consoleShot(page, `login-${lang}`);

      await logIn(page, 'chief', ADMIN_PASSWORD);
      await page
        // Playwright's waitForFunction compiles its predicate in the page, which the CSP
        // forbids: its locators wait without that.
        .getByText(TITLES[lang])
        .first()
        .waitFor({ timeout: 20_000 })
        .catch(async (error: Error) => {
          throw new Error(
            `${error.message}: ${page.url()} ${await text(page)} ${errors.join('; ')}`,
          );
        });
      expect(await text(page)).toContain(plural(words.resources.events.name));
      expect(await axe(page)).toEqual([]);
      await consoleShot(page, `events-${lang}`);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    90_000,
  );

  it('an editor logs in, saves a draft from a title alone, and logs out', async () => {
    const { page, errors } = await openAsEditor('/admin/#/events/create');
    await page.waitForSelector('input[name="title"]', { timeout: 20_000 });
    expect(await axe(page)).toEqual([]);
    await consoleShot(page, 'event-create-en');
    await page.fill('input[name="title"]', 'Written in the console');
    await page.click('button[type="submit"]');
    await page.waitForURL(/#\/events\/\d+$/, { timeout: 20_000 });

    const list = await http()
      .get(`${API}/events`)
      .query({ search: 'Written in the console', status: 'draft', start_date: '2000-01-01' })
      .set('Authorization', users.editor.header)
      .expect(200);
    expect(list.body.events).toHaveLength(1);
    const [event] = list.body.events as Array<Record<string, unknown>>;
    expect(event.status).toBe('draft');
    expect(event.author).toBe(String(users.editor.id));
    expect(String(event.start_date)).toMatch(/:00:00$/);
    const start = Date.parse(String(event.start_date).replace(' ', 'T'));
    expect(start).toBeGreaterThan(Date.now() - 60_000);
    expect(start).toBeLessThanOrEqual(Date.now() + 3600_000);

    // Log out from the user menu: the session is gone on the server too.
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'cal_session');
    expect(session).toBeDefined();
    // The form's page re-renders after the save: wait for the menu button to be shown.
    const profile = await page.waitForSelector('button[aria-label="Profile"]', {
      state: 'visible',
      timeout: 20_000,
    });
    await profile.click();
    await page.waitForSelector('.logout');
    await page.click('.logout');
    await page.waitForSelector('input[name="username"]', { timeout: 20_000 });
    await http().get('/admin/session').set('Cookie', `cal_session=${session!.value}`).expect(401);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("refuses a form another site's page posts with the editor's session cookie", async () => {
    const { page, errors } = await openAsEditor('/admin/');
    await page.waitForSelector('a[href="#/events"]', { timeout: 20_000 });
    // Another origin (same host, another port: the browser sends the SameSite cookie along, so
    // what refuses the write is the missing nonce), whose page posts a form to the API.
    const title = 'Posted from another site';
    const evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><html lang="en"><title>x</title><body>
         <form method="post" action="${origin()}${API}/events">
         <input name="title" value="${title}"><input name="status" value="publish">
         <input name="start_date" value="2030-05-01 10:00:00">
         <input name="end_date" value="2030-05-01 11:00:00"></form>
         <script>document.forms[0].submit()</script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const other = await page.context().newPage();
      const answered = other.waitForResponse((r) => r.url().startsWith(`${origin()}${API}/events`));
      await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      const answer = await answered;
      expect([answer.status(), ((await answer.json()) as { code: string }).code]).toEqual([
        401,
        'rest_forbidden',
      ]);
      // Nothing was written, and the console's own session still works.
      const list = await http()
        .get(`${API}/events`)
        .query({ search: title, status: 'any', start_date: '2000-01-01' })
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(list.body.events).toHaveLength(0);
      expect(errors).toEqual([]);
    } finally {
      evil.close();
      await page.context().close();
    }
  }, 90_000);
});
