import { UsersService } from '../../src/auth/users/users.service.js';
import {
  chooseOption,
  logIn,
  openConsolePage,
  consoleShot,
  consoleWord,
  showScreen,
  axeSettled,
} from '../helpers/console-page.js';
import { useConsoleApp } from '../helpers/console-suite.js';
import { type Page } from '../helpers/chromium.js';

/**
 * The editors' console's screens beyond the events form (issue 51) in headless Chromium under
 * the server's CSP: every screen in en, hu and ro with no serious or critical axe-core violation
 * and no script error (the events list's add-filter menu too), and the lists at 375 px without
 * sideways scrolling; a bulk publish from the events list; a restore from the trash and
 * permanent deletes (one, the selected, a whole trash; a category from its form); a contributor's submission made in the
 * form and approved in the review queue; a subscription's deliveries paged and its secret
 * rotated; a Hungarian translation created side by side. Each action is checked on the server
 * through the API, polled with a deadline. With UPDATE_SCREENSHOTS=1, screenshots into
 * docs/screenshots/.
 */
const API = '/cal/events/v1';
const ADMIN_PASSWORD = 'console administrator passphrase';
const EDITOR_PASSWORD = 'editor console passphrase';
const CONTRIBUTOR_PASSWORD = 'contributor console passphrase';
const LANGS = ['en', 'hu', 'ro'] as const;
/** A list's window over every seeded date (the API lists two years from its start by default). */
const EVERY_DATE = { start_date: '2000-01-01', end_date: '2100-12-31' };
type Lang = (typeof LANGS)[number];

describe('editors console screens in Chromium (e2e)', () => {
  const { app, origin, browser, users, http } = useConsoleApp({
    env: { ADMIN_LOGIN: 'chief', ADMIN_PASSWORD, WEBHOOK_ALLOWED_TARGETS: '127.0.0.1' },
    seed: async () => {
      const accounts = app().get(UsersService);
      await accounts.setLoginPassword(users.editor.login, EDITOR_PASSWORD);
      await accounts.setLoginPassword(users.contributor.login, CONTRIBUTOR_PASSWORD);
      const editor = users.editor.header;
      for (const lang of LANGS) {
        await create('/categories', editor, { name: `Concerts ${lang}`, i18n_language: lang });
        await create('/tags', editor, { name: `Outdoor ${lang}`, i18n_language: lang });
        const shown = await create(
          '/events',
          editor,
          event(`Listed concert ${lang}`, lang, {
            status: 'publish',
            venue: { venue: `Hall ${lang}` },
          }),
        );
        seeded[lang] = { event: shown.id };
        await create(
          '/events',
          users.contributor.header,
          event(`Submitted ${lang}`, lang, { status: 'pending' }),
        );
        const trashed = await create(
          '/events',
          editor,
          event(`Trashed ${lang}`, lang, { status: 'publish' }),
        );
        await http().delete(`${API}/events/${trashed.id}`).set('Authorization', editor).expect(200);
      }
      const hook = await http()
        .post(`${API}/webhooks`)
        .set('Authorization', users.administrator.header)
        .send({ url: 'http://127.0.0.1:9/hook', events: ['event.created', 'event.published'] })
        .expect(201);
      seeded.en.webhook = (hook.body as { id: number }).id;
      seeded.en.secret = (hook.body as { secret: string }).secret;
    },
  });
  /** What each language's screens show: ids of the seeded records. */
  const seeded: Record<string, { event: number; webhook?: number; secret?: string }> = {};

  async function create(path: string, header: string, body: Record<string, unknown>) {
    const res = await http().post(`${API}${path}`).set('Authorization', header).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: number; status: string };
  }
  const event = (title: string, lang: Lang, extra: Record<string, unknown> = {}) => ({
    title,
    start_date: '2030-05-10 19:00:00',
    end_date: '2030-05-10 21:00:00',
    i18n_language: lang,
    ...extra,
  });
  const read = async (id: number) =>
    (await http().get(`${API}/events/${id}`).set('Authorization', users.editor.header).expect(200))
      .body as { status: string; translations: Record<string, number> };

  /** A logged-in page in `lang` that records script errors and CSP violations. */
  async function session(lang: Lang, login: string, password: string, width = 1280) {
    const path = `${lang === 'en' ? '' : `/${lang}`}/admin/`;
    const { page, errors } = await openConsolePage(browser(), `${origin()}${path}`, width);
    await logIn(page, login, password);
    await page.locator('table').first().waitFor({ timeout: 20_000 });
    return { page, errors };
  }

  /** Opens a screen by its hash route and waits for `shown` on it. */
  /**
   * The serious and critical axe-core violations once every CSS transition has ended: a dialog
   * or a menu fading in or out is measured at its final colours, not half transparent.
   */
  /** Clicks the confirmation of react-admin's dialog ("Confirm" in the console's language). */
  const confirm = (page: Page, lang: Lang) =>
    page
      .getByRole('dialog')
      .getByRole('button', { name: consoleWord(lang, 'ra.action.confirm') })
      .click();

  it.each(LANGS)(
    '%s: every screen of the list, review, trash, terms, webhooks and translations is accessible',
    async (lang) => {
      const { page, errors } = await session(lang, 'chief', ADMIN_PASSWORD);
      const screens: Array<[string, string, string]> = [
        ['events', `Listed concert ${lang}`, 'events-list'],
        ['review', `Submitted ${lang}`, 'review'],
        ['trash', `Trashed ${lang}`, 'trash'],
        ['categories', `Concerts ${lang}`, 'categories'],
        [
          'categories/create',
          consoleWord(lang, 'resources.categories.fields.parent'),
          'category-create',
        ],
        ['tags', `Outdoor ${lang}`, 'tags'],
        ['webhooks', 'http://127.0.0.1:9/hook', 'webhooks'],
        [
          `webhooks/${seeded.en.webhook}`,
          consoleWord(lang, 'cal.webhooks.deliveries'),
          'webhook-edit',
        ],
        [
          `events/${seeded[lang].event}/translations`,
          consoleWord(lang, 'cal.translations.missing'),
          'translations',
        ],
      ];
      for (const [route, shown, name] of screens) {
        await showScreen(page, route, shown);
        expect([route, await axeSettled(page)]).toEqual([route, []]);
        await consoleShot(page, `${name}-${lang}`);
      }
      // The filters an editor adds to the events list: the menu open, then the filter added.
      await showScreen(page, 'events', `Listed concert ${lang}`);
      await page.getByRole('button', { name: consoleWord(lang, 'ra.action.add_filter') }).click();
      const language = page.getByRole('menuitemcheckbox', {
        name: consoleWord(lang, 'resources.events.fields.language'),
      });
      await language.waitFor();
      expect(['add filter menu', await axeSettled(page)]).toEqual(['add filter menu', []]);
      await consoleShot(page, `events-filters-${lang}`);
      await language.click();
      await language.waitFor({ state: 'detached', timeout: 15_000 });
      expect(['added filter', await axeSettled(page)]).toEqual(['added filter', []]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    180_000,
  );

  it.each(LANGS)(
    '%s: the events list, the review queue and the trash fit a 375 px wide screen',
    async (lang) => {
      const { page, errors } = await session(lang, 'chief', ADMIN_PASSWORD, 375);
      for (const [route, shown, name] of [
        ['events', `Listed concert ${lang}`, 'events'],
        ['review', `Submitted ${lang}`, 'review'],
        ['trash', consoleWord(lang, 'cal.trash.title'), 'trash'],
      ]) {
        await showScreen(page, route, shown);
        await consoleShot(page, `${name}-phone-${lang}`);
        expect([route, await page.evaluate('document.documentElement.scrollWidth')]).toEqual([
          route,
          375,
        ]);
        expect([route, await axeSettled(page)]).toEqual([route, []]);
      }
      expect(errors).toEqual([]);
      await page.context().close();
    },
    120_000,
  );

  it('an editor publishes two drafts at once from the events list', async () => {
    const ids = [
      (
        await create(
          '/events',
          users.editor.header,
          event('Bulk draft one', 'en', { status: 'draft' }),
        )
      ).id,
      (
        await create(
          '/events',
          users.editor.header,
          event('Bulk draft two', 'en', { status: 'draft' }),
        )
      ).id,
    ];
    const { page, errors } = await session('en', users.editor.login, EDITOR_PASSWORD);
    await showScreen(
      page,
      'events?filter=%7B%22search%22%3A%22Bulk%20draft%22%7D',
      'Bulk draft two',
    );
    for (const title of ['Bulk draft one', 'Bulk draft two']) {
      await page
        .getByRole('row', { name: new RegExp(title) })
        .getByRole('checkbox')
        .check();
    }
    expect(await axeSettled(page)).toEqual([]);
    await consoleShot(page, 'events-bulk-en');
    await page
      .getByRole('button', { name: consoleWord('en', 'cal.bulk.publish'), exact: true })
      .click();
    await confirm(page, 'en');
    await page
      .getByText(consoleWord('en', 'cal.status.publish'))
      .first()
      .waitFor({ timeout: 20_000 });
    for (const id of ids) expect((await read(id)).status).toBe('publish');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('an editor restores a trashed event as a draft', async () => {
    const { page, errors } = await session('en', users.editor.login, EDITOR_PASSWORD);
    await showScreen(page, 'trash', 'Trashed en');
    const row = page.getByRole('row', { name: /Trashed en/ });
    await row.getByRole('button', { name: consoleWord('en', 'cal.trash.restore') }).click();
    await confirm(page, 'en');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 20_000 });
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    const listed = await http()
      .get(`${API}/events`)
      .query({ search: 'Trashed en', status: 'draft', ...EVERY_DATE })
      .set('Authorization', users.editor.header)
      .expect(200);
    expect((listed.body as { events: unknown[] }).events).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('an editor deletes a category for good from its form, after a question that says so (hu)', async () => {
    const doomed = await create('/categories', users.editor.header, {
      name: 'Kidobott kategória',
      i18n_language: 'hu',
    });
    const { page, errors } = await session('hu', users.editor.login, EDITOR_PASSWORD);
    await showScreen(page, `categories/${doomed.id}`, consoleWord('hu', 'cal.terms.delete'));
    // Terms have no trash: the button and its question say "for good", not "to the trash".
    expect(await page.getByText(consoleWord('hu', 'ra.action.delete')).count()).toBe(0);
    await page.getByRole('button', { name: consoleWord('hu', 'cal.terms.delete') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(consoleWord('hu', 'cal.terms.delete_content')).waitFor();
    expect(await axeSettled(page)).toEqual([]);
    await confirm(page, 'hu');
    await expect
      .poll(
        async () =>
          (
            await http()
              .get(`${API}/categories/${doomed.id}`)
              .set('Authorization', users.editor.header)
          ).status,
        { timeout: 20_000 },
      )
      .toBe(400); // an id that names no term (the plugin's answer, not a 404)
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('an editor deletes trashed records for good: one, the selected ones, and a whole trash', async () => {
    const editor = users.editor.header;
    const trash = async (path: string, body: Record<string, unknown>) => {
      const { id } = await create(path, editor, body);
      await http().delete(`${API}${path}/${id}`).set('Authorization', editor).expect(200);
      return id;
    };
    const one = await trash('/events', event('Forever one', 'en'));
    const two = await trash('/events', event('Forever two', 'en'));
    const venues = [
      await trash('/venues', { venue: 'Forever hall one' }),
      await trash('/venues', { venue: 'Forever hall two' }),
    ];
    /** Whether the API still has the record (the trash answers it to an editor). */
    const exists = async (path: string, id: number) =>
      (
        await http()
          .get(`${API}${path}`)
          .query({ status: 'trash', per_page: 100, ...EVERY_DATE })
          .set('Authorization', editor)
          .expect(200)
      ).body[path.slice(1)].some((row: { id: number }) => row.id === id) as boolean;
    const forever = consoleWord('en', 'cal.trash.delete_forever');

    const { page, errors } = await session('en', users.editor.login, EDITOR_PASSWORD);
    await showScreen(page, 'trash', 'Forever two');
    // One record, from its row.
    await page
      .getByRole('row', { name: /Forever one/ })
      .getByRole('button', { name: forever })
      .click();
    expect(await axeSettled(page)).toEqual([]);
    await confirm(page, 'en');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => exists('/events', one), { timeout: 20_000 }).toBe(false);
    await page.getByText(consoleWord('en', 'cal.trash.deleted'), { exact: true }).waitFor();
    await page.getByRole('row', { name: /Forever one/ }).waitFor({ state: 'detached' });
    expect(await exists('/events', two)).toBe(true);

    // The selected ones, from the bulk toolbar.
    await page
      .getByRole('row', { name: /Forever two/ })
      .getByRole('checkbox')
      .check();
    await page
      .locator('.RaBulkActionsToolbar-toolbar')
      .getByRole('button', { name: forever })
      .click();
    await confirm(page, 'en');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => exists('/events', two), { timeout: 20_000 }).toBe(false);

    // A whole trash: the venues' tab, "Empty trash", confirmed by "Delete permanently".
    await page.getByRole('tab', { name: consoleWord('en', 'resources.venues.name') }).click();
    await page.getByText('Forever hall two').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: consoleWord('en', 'cal.trash.empty') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await axeSettled(page)).toEqual([]);
    await consoleShot(page, 'trash-empty-en');
    await dialog.getByRole('button', { name: forever }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    for (const id of venues) {
      await expect.poll(() => exists('/venues', id), { timeout: 20_000 }).toBe(false);
    }
    const left = await http()
      .get(`${API}/venues`)
      .query({ status: 'trash' })
      .set('Authorization', editor)
      .expect(200);
    expect((left.body as { venues: unknown[] }).venues).toEqual([]);
    await page.getByText(consoleWord('en', 'cal.trash.emptied')).waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('an administrator pages through a subscription’s deliveries and rotates its secret', async () => {
    const admin = users.administrator.header;
    const id = seeded.en.webhook!;
    const deliveries = async () =>
      (
        await http()
          .get(`${API}/webhooks/${id}/deliveries`)
          .query({ per_page: 1 })
          .set('Authorization', admin)
          .expect(200)
      ).body as { total: number };
    const before = (await deliveries()).total;
    // Each publication is a delivery (to a closed port, so each stays in the log).
    for (let i = 0; i < 22; i++) {
      await create(
        '/events',
        users.editor.header,
        event(`Hooked ${i}`, 'en', { status: 'publish' }),
      );
    }
    await expect
      .poll(async () => (await deliveries()).total, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(before + 22);
    const { total } = await deliveries();

    const { page, errors } = await session('en', 'chief', ADMIN_PASSWORD);
    await showScreen(page, `webhooks/${id}`, consoleWord('en', 'cal.webhooks.deliveries'));
    const range = (from: number, to: number) =>
      consoleWord('en', 'ra.navigation.page_range_info')
        .replace('%{offsetBegin}', String(from))
        .replace('%{offsetEnd}', String(to))
        .replace('%{total}', String(total));
    await page.getByText(range(1, 20)).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: consoleWord('en', 'ra.navigation.next') }).click();
    await page.getByText(range(21, Math.min(40, total))).waitFor({ timeout: 20_000 });
    const replay = consoleWord('en', 'cal.webhooks.replay');
    await expect
      .poll(() => page.getByRole('button', { name: replay }).count(), { timeout: 20_000 })
      .toBe(Math.min(20, total - 20));
    expect(await axeSettled(page)).toEqual([]);

    // A new signing secret, shown once; the API answered a different one than at creation.
    await page.getByRole('button', { name: consoleWord('en', 'cal.webhooks.rotate') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await axeSettled(page)).toEqual([]);
    await dialog.getByRole('button', { name: consoleWord('en', 'cal.webhooks.rotate') }).click();
    const shown = page.getByText(/whsec_[A-Za-z0-9+/=]+/);
    await shown.waitFor({ timeout: 20_000 });
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(await shown.innerText())![0];
    expect(secret).not.toBe(seeded.en.secret);
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await consoleShot(page, 'webhook-rotated-en');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 150_000);

  it('a contributor submits an event through the form; an editor approves it in the review queue', async () => {
    const title = 'Submitted through the form';
    const contributor = await session('hu', users.contributor.login, CONTRIBUTOR_PASSWORD);
    const form = contributor.page;
    await form.evaluate(`location.hash = '#/events/create'`);
    await form.locator('input[name="title"]').fill(title);
    await chooseOption(
      form,
      form.getByRole('combobox', { name: consoleWord('hu', 'resources.events.fields.status') }),
      consoleWord('hu', 'cal.status.pending'),
    );
    await form.click('button[type="submit"]');
    await form.waitForURL(/#\/events\/\d+$/, { timeout: 20_000 });
    const id = Number(/(\d+)$/.exec(form.url())![1]);
    expect((await read(id)).status).toBe('pending');
    // The contributor sees the submission waiting, without the editors' actions.
    await showScreen(form, 'review', title);
    expect(
      await form.getByRole('button', { name: consoleWord('hu', 'cal.review.approve') }).count(),
    ).toBe(0);
    expect(await axeSettled(form)).toEqual([]);
    expect(contributor.errors).toEqual([]);
    await form.context().close();

    const { page, errors } = await session('hu', users.editor.login, EDITOR_PASSWORD);
    await showScreen(page, 'review', title);
    const row = page.getByRole('row', { name: new RegExp(title) });
    await row.getByRole('button', { name: consoleWord('hu', 'cal.review.approve') }).click();
    await confirm(page, 'hu');
    // The dialog stays while the approval is sent (pessimistic) and hides the page from the
    // accessibility tree meanwhile, so the row is looked for once the dialog has gone.
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(async () => (await read(id)).status, { timeout: 20_000 }).toBe('publish');
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('an editor creates the Hungarian translation of an event side by side', async () => {
    const { page, errors } = await session('en', users.editor.login, EDITOR_PASSWORD);
    const id = seeded.en.event;
    await showScreen(page, `events/${id}/translations`, 'Listed concert en');
    const label = consoleWord('en', 'cal.translations.create').replace(
      '%{language}',
      consoleWord('en', 'cal.languages.hu'),
    );
    await page.getByRole('button', { name: label }).click();
    await page.waitForURL(/#\/events\/\d+$/, { timeout: 15_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${page.url()} ${await page.innerText('body')}`);
    });
    const translations = (await read(id)).translations;
    expect(Object.keys(translations).sort()).toEqual(['en', 'hu']);
    const copy = await read(translations.hu);
    expect(copy.status).toBe('draft');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);
});
