import {
  chooseOption,
  consoleCatalogue,
  consoleShot,
  consoleWord,
  logIn,
  openConsolePage,
  showScreen,
} from '../helpers/console-page.js';
import { useConsoleApp } from '../helpers/console-suite.js';
import { until } from '../helpers/until.js';
import { axeViolations } from '../helpers/chromium.js';

/**
 * The console's users screen (issue 51, CONTRACT §2 "Users") in headless Chromium under the
 * server's CSP: an administrator creates a contributor with a console password, who then logs in
 * and finds no users screen; the administrator makes an application password (shown once) and
 * revokes it; the screens in en, hu and ro have no serious or critical axe-core violation and no
 * script error. Each step is checked on the server. With UPDATE_SCREENSHOTS=1, screenshots into
 * docs/screenshots/console-users-{en,hu,ro}.png.
 */
const API = '/cal/events/v1';
const ADMIN_PASSWORD = 'console administrator passphrase';
const NEW_PASSWORD = 'a brand new console passphrase';
const LANGS = ['en', 'hu', 'ro'] as const;
type Lang = (typeof LANGS)[number];

/** A resource's name as the menu shows it: its plural. */
type Tree = { [key: string]: string | Tree };
const plural = (lang: string, resource: string) => {
  const name = (((consoleCatalogue(lang) as Tree).resources as Tree)[resource] as Tree).name;
  if (typeof name !== 'string') throw new Error(`no name of ${resource}`);
  return name.split(' |||| ')[1];
};

describe('editors console: users screen in Chromium (e2e)', () => {
  const { origin, browser, http } = useConsoleApp({
    env: { ADMIN_LOGIN: 'chief', ADMIN_PASSWORD },
    roleUsers: false,
    seed: async () => {
      admin = `Basic ${Buffer.from(`chief:${ADMIN_PASSWORD}`).toString('base64')}`;
      for (const lang of LANGS) {
        await http()
          .post(`${API}/users`)
          .set('Authorization', admin)
          .send({
            username: `editor-${lang}`,
            name: `Editor ${lang.toUpperCase()}`,
            email: `editor-${lang}@example.org`,
            roles: ['editor'],
            password: 'an editor console passphrase',
          })
          .expect(201);
      }
    },
  });
  let admin: string;

  const userNamed = async (username: string) => {
    const res = await http()
      .get(`${API}/users?per_page=100`)
      .set('Authorization', admin)
      .expect(200);
    return (res.body as Array<{ id: number; username: string; roles: string[] }>).find(
      (u) => u.username === username,
    );
  };

  /** A logged-in page in `lang` that records script errors and CSP violations. */
  async function session(lang: Lang, login: string, password: string) {
    const path = `${lang === 'en' ? '' : `/${lang}`}/admin/`;
    const { page, errors } = await openConsolePage(browser(), `${origin()}${path}`);
    await logIn(page, login, password);
    await page.getByRole('menu').or(page.locator('table')).first().waitFor({ timeout: 20_000 });
    return { page, errors };
  }

  it.each(LANGS)(
    '%s: the users list, create and edit screens are accessible',
    async (lang) => {
      const { page, errors } = await session(lang, 'chief', ADMIN_PASSWORD);
      const editor = await userNamed(`editor-${lang}`);
      const screens: Array<[string, string]> = [
        ['users', `editor-${lang}@example.org`],
        ['users/create', consoleWord(lang, 'cal.users.password_help')],
        [`users/${editor!.id}`, consoleWord(lang, 'cal.users.application_passwords')],
      ];
      for (const [route, shown] of screens) {
        await showScreen(page, route, shown);
        expect([route, await axeViolations(page)]).toEqual([route, []]);
      }
      await showScreen(page, 'users', `editor-${lang}@example.org`);
      await consoleShot(page, `users-${lang}`);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    120_000,
  );

  it('an administrator creates a contributor with a console password, who then logs in', async () => {
    const { page, errors } = await session('en', 'chief', ADMIN_PASSWORD);
    // The menu leads an administrator to the users.
    await page.getByRole('menuitem', { name: plural('en', 'users') }).click();
    await showScreen(page, 'users/create', consoleWord('en', 'cal.users.password_help'));
    await page.getByLabel(consoleWord('en', 'resources.users.fields.username')).fill('newcomer');
    await page.getByLabel(consoleWord('en', 'resources.users.fields.name')).fill('New Comer');
    await page
      .getByLabel(consoleWord('en', 'resources.users.fields.email'))
      .fill('newcomer@example.org');
    await chooseOption(
      page,
      page.getByLabel(consoleWord('en', 'resources.users.fields.role')),
      consoleWord('en', 'cal.users.roles.contributor'),
    );
    await page
      .getByLabel(consoleWord('en', 'resources.users.fields.password'), { exact: false })
      .first()
      .fill(NEW_PASSWORD);
    await page.getByRole('button', { name: consoleWord('en', 'ra.action.save') }).click();
    await page
      .getByText(consoleWord('en', 'cal.users.no_application_passwords'))
      .waitFor({ timeout: 15_000 });
    const made = await userNamed('newcomer');
    expect(made).toMatchObject({ username: 'newcomer', roles: ['contributor'] });

    // An application password: shown once, then listed by name only, then revoked.
    await page.getByLabel(consoleWord('en', 'cal.users.app_name')).fill('Phone app');
    await page
      .getByRole('button', { name: consoleWord('en', 'cal.users.create_application_password') })
      .click();
    const shown = page.getByLabel(consoleWord('en', 'cal.users.new_password'), { exact: true });
    await shown.waitFor({ timeout: 15_000 });
    const password = await shown.inputValue();
    expect(password).toMatch(/^(\w{4} ){5}\w{4}$/);
    expect(await axeViolations(page)).toEqual([]);
    await consoleShot(page, 'users-edit-en');
    const basic = `Basic ${Buffer.from(`newcomer:${password}`).toString('base64')}`;
    await http().get(`${API}/events?status=draft`).set('Authorization', basic).expect(200);
    await page
      .getByRole('button', {
        name: consoleWord('en', 'cal.users.revoke_named').replace('%{name}', 'Phone app'),
      })
      .click();
    await page
      .getByText(consoleWord('en', 'cal.users.no_application_passwords'))
      .waitFor({ timeout: 15_000 });
    await http().get(`${API}/events`).set('Authorization', basic).expect(401);

    // Deleting a user asks first, and is for good.
    const gone = await userNamed('editor-en');
    await showScreen(
      page,
      `users/${gone!.id}`,
      consoleWord('en', 'cal.users.application_passwords'),
    );
    await page.getByRole('button', { name: consoleWord('en', 'cal.users.delete') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('editor-en').first().waitFor({ timeout: 15_000 });
    // Contrast is measured once the dialog has faded in (during the fade it reads as too faint).
    await until(
      () =>
        page.evaluate<boolean>(
          `[...document.querySelectorAll('.MuiDialog-container, .MuiDialog-backdrop')].every((e) => getComputedStyle(e).opacity === '1')`,
        ),
      15_000,
      'the dialog faded in',
    ).catch(async (error: Error) => {
      throw new Error(
        `${error.message}: ${String(await page.evaluate(`[...document.querySelectorAll('.MuiDialog-container, .MuiBackdrop-root')].map((e) => e.className + '=' + getComputedStyle(e).opacity).join(' | ')`))}`,
      );
    });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: consoleWord('en', 'ra.action.confirm') }).click();
    await page.waitForURL(/#\/users$/, { timeout: 15_000 });
    await http().get(`${API}/users/${gone!.id}`).set('Authorization', admin).expect(404);
    expect(errors).toEqual([]);
    await page.context().close();

    // The contributor logs in with the console password, and sees no users screen.
    const own = await session('en', 'newcomer', NEW_PASSWORD);
    await own.page.getByRole('menuitem').first().waitFor({ timeout: 15_000 });
    const items = await own.page.getByRole('menuitem').allInnerTexts();
    expect(items).not.toContain(plural('en', 'users'));
    expect(items).toContain(plural('en', 'events'));
    expect(own.errors).toEqual([]);
    await own.page.context().close();
  }, 120_000);
});
