import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIR } from '../../src/config/paths.js';
import { axeViolations, type Browser, type Locator, type Page } from './chromium.js';

/**
 * What the console's browser specs (test/auth/console-*.e2e-spec.ts) share: whether the console
 * is built, its catalogues, a page that records script errors, and the login form.
 */

/** The built console (`npm run build`): the browser specs skip without it. */
export const CONSOLE_BUILT = existsSync(join(CONSOLE_DIR, 'index.html'));

/** The console's texts in `lang` (i18n/{lang}/console.json), as the caller reads them. */
export function consoleCatalogue(lang: string): unknown {
  return JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'i18n', lang, 'console.json'), 'utf8'),
  ) as unknown;
}

/**
 * A page of a context of its own (no cookie of another test's session), opened at `url`, that
 * records script errors and CSP violations (both reach the console as errors). The console asks
 * the server whether a session exists: its 401 while logged out is not an error. The browser
 * speaks the page's language (`/hu/admin/` → hu), as a person's browser would: its own date
 * fields follow it.
 */
export async function openConsolePage(browser: Browser, url: string, width = 1280) {
  const locale = /^\/(hu|ro)\//.exec(new URL(url).pathname)?.[1] ?? 'en';
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('status of 401')) {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  return { page, errors, status: response?.status() };
}

/** Logs in through the console's login form, once it is shown. */
export async function logIn(page: Page, login: string, password: string): Promise<void> {
  await page.waitForSelector('input[name="username"]', { timeout: 20_000 });
  await page.fill('input[name="username"]', login);
  await page.fill('input[name="password"]', password);
  await page.click('button[type="submit"]');
}

type Tree = { [key: string]: string | Tree };

/** A text of the console's catalogue in `lang` by its dotted key, first plural form. */
export function consoleWord(lang: string, key: string): string {
  const value = key
    .split('.')
    .reduce<string | Tree>((node, part) => (node as Tree)[part], consoleCatalogue(lang) as Tree);
  if (typeof value !== 'string') throw new Error(`no text at ${key}`);
  return value.split(' |||| ')[0];
}

/** Opens a screen of the console by its hash route and waits for `shown` on it. */
export async function showScreen(page: Page, route: string, shown: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(`#/${route}`)}`);
  await page
    .getByText(shown)
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}: ${page.url()} ${await page.innerText('body')}`);
    });
}

/**
 * Picks `option` in the select that `control` opens, and waits for its list to close. On a loaded
 * machine a click can land while the menu is still opening: the menu then stays open over the
 * form and its backdrop takes the next click. So the pick is made again (the control opened again
 * if the list has closed) until the list has closed, within a deadline; never a fixed wait.
 */
export async function chooseOption(page: Page, control: Locator, option: string): Promise<void> {
  const list = page.getByRole('listbox');
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (!(await list.isVisible())) await control.click();
    await page.getByRole('option', { name: option }).click();
    try {
      await list.waitFor({ state: 'hidden', timeout: 3_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

const SHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');

/** With UPDATE_SCREENSHOTS=1, the page as shown into docs/screenshots/console-<name>.png. */
export async function consoleShot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `console-${name}.png`) });
}

/** axe-core once every CSS transition has ended: a dialog fading in is measured at its colours. */
export async function axeSettled(page: Page): Promise<string[]> {
  // Polled by evaluations: the page's CSP refuses the eval behind waitForFunction.
  await expect
    .poll(
      () =>
        page.evaluate(
          `document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')`,
        ),
      { timeout: 15_000 },
    )
    .toBe(false);
  return axeViolations(page);
}
