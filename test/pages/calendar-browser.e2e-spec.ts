import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers } from '../helpers/auth.js';
import { closeApp } from '../helpers/create-test-app.js';
import { appAtOwnOrigin } from '../helpers/local-app.js';
import { needs } from '../helpers/services.js';
import {
  axeViolations,
  BROWSER,
  type Browser,
  HAS_BROWSER,
  launchChromium,
  type Page,
} from '../helpers/chromium.js';

/**
 * The calendar views in headless Chromium (issue 50): no serious or critical axe-core violation
 * on any view in any language, the grid walked with the keyboard, a phone's 375 px without
 * sideways scrolling (the month a list of its days), and the embeds in a page of another origin
 * (an iframe that EMBED_ORIGINS lets in, and embed.js). With UPDATE_SCREENSHOTS=1 the month of
 * each language, and at a phone's width, goes into docs/screenshots/.
 */

const SHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');
const BASE = '/cal/events/v1';

describe('calendar views in Chromium (e2e)', () => {
  needs(`Chromium at ${BROWSER}`, () => HAS_BROWSER);
  let app: NestExpressApplication;
  let origin: string;
  /** A page of another site (another origin: `localhost` against `127.0.0.1`). */
  let host: Server;
  let hostOrigin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!HAS_BROWSER) return;
    host = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="en"><head><title>A blog</title></head><body>` +
          `<h1>Our events</h1>` +
          `<iframe id="frame" title="Calendar" src="${origin}/embed/events/month/2030-03/" width="900" height="700"></iframe>` +
          `<div id="inline" data-cal-embed="${origin}/hu/embed/events/week/2030-03-14/"></div>` +
          `<script src="${origin}/embed.js" async></script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
    ({ app, origin } = await appAtOwnOrigin((site) => ({
      SITE_URL: site,
      EMBED_ORIGINS: hostOrigin,
      SITE_TIMEZONE: 'Europe/Budapest',
    })));
    const users = await createRoleUsers(app);
    const post = async (body: Record<string, unknown>) =>
      (
        await request(app.getHttpServer())
          .post(`${BASE}/events`)
          .set('Authorization', users.editor.header)
          .send({ status: 'publish', timezone: 'Europe/Budapest', ...body })
          .expect(201)
      ).body as { id: number };
    const titles: Array<[string, string, string]> = [
      ['Spring concert in the park', 'Tavaszi koncert a parkban', 'Concert de primăvară în parc'],
      ['Book fair', 'Könyvvásár', 'Târg de carte'],
      ['Morning yoga', 'Reggeli jóga', 'Yoga de dimineață'],
      ['Film club: Metropolis', 'Filmklub: Metropolis', 'Cineclub: Metropolis'],
    ];
    const dates = [
      ['2030-03-14 19:00:00', '2030-03-14 21:30:00', false],
      ['2030-03-20 00:00:00', '2030-03-23 23:59:59', true],
      ['2030-03-22 07:00:00', '2030-03-22 08:00:00', false],
      ['2030-03-22 20:00:00', '2030-03-22 22:00:00', false],
    ] as const;
    for (const [i, [en, hu, ro]] of titles.entries()) {
      const [start_date, end_date, all_day] = dates[i];
      const first = await post({ title: en, start_date, end_date, all_day });
      for (const [language, title] of [
        ['hu', hu],
        ['ro', ro],
      ]) {
        await post({
          title,
          start_date,
          end_date,
          all_day,
          translation_of: first.id,
          i18n_language: language,
        });
      }
    }
    await post({
      title: 'Weekly choir rehearsal',
      start_date: '2030-03-05 18:00:00',
      end_date: '2030-03-05 20:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'] },
    });
    for (const hour of ['10', '12', '14']) {
      await post({
        title: `Workshop at ${hour}`,
        start_date: `2030-03-22 ${hour}:00:00`,
        end_date: `2030-03-22 ${hour}:45:00`,
      });
    }
    browser = await launchChromium();
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (HAS_BROWSER) {
      await closeApp(app);
      await new Promise((resolve) => host.close(resolve));
    }
  });

  const open = async (path: string, width = 1280) => {
    await page.setViewportSize({ width, height: 900 });
    const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    // A page seen before revalidates (304) in the browser's cache.
    expect([200, 304]).toContain(response?.status());
  };
  const axe = () => axeViolations(page);
  const shoot = async (name: string) => {
    if (process.env.UPDATE_SCREENSHOTS !== '1') return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, name), fullPage: true });
  };

  // Every view in every language (issue 50).
  const VIEWS = [
    'month/2030-03/',
    'week/2030-03-18/',
    '2030-03-22/',
    'list/?tribe-bar-date=2030-03-01',
  ];
  it.each([
    ['en', VIEWS],
    ['hu', VIEWS],
    ['ro', VIEWS],
  ])(
    '%s: the views without a serious accessibility violation',
    async (lang, views) => {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      for (const view of views) {
        await open(`${prefix}/events/${view}`);
        expect(await page.evaluate('document.documentElement.lang')).toBe(lang);
        expect({ view, serious: await axe() }).toEqual({ view, serious: [] });
        if (view.startsWith('month')) await shoot(`calendar-month-${lang}.png`);
      }
    },
    120_000,
  );

  it.each(['en', 'hu', 'ro'])(
    '375 px (%s): no sideways scroll on any view; the month is a list of its days with events',
    async (lang) => {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      for (const view of [
        'month/2030-03/',
        'week/2030-03-18/',
        '2030-03-22/',
        'list/?tribe-bar-date=2030-03-01',
      ]) {
        await open(`${prefix}/events/${view}`, 375);
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        expect({ view, overflow }).toEqual({ view, overflow: 0 });
      }
      await open(`${prefix}/events/month/2030-03/`, 375);
      const layout = (await page.evaluate(`(() => {
      const cells = [...document.querySelectorAll('td.cal-day')];
      const shown = cells.filter((c) => getComputedStyle(c).display !== 'none');
      return {
        display: getComputedStyle(cells[0]).display,
        shown: shown.map((c) => c.querySelector('time').getAttribute('datetime')),
        head: document.querySelector('.cal-grid thead').getBoundingClientRect().height,
      };
    })()`)) as { display: string; shown: string[]; head: number };
      expect(layout.head).toBeLessThanOrEqual(1);
      // Days of March with events, one under the other.
      expect(layout.shown).toEqual(
        expect.arrayContaining(['2030-03-14', '2030-03-20', '2030-03-22']),
      );
      expect(layout.shown.every((d) => d.startsWith('2030-03'))).toBe(true);
      expect(await axe()).toEqual([]);
      await shoot(`calendar-month-phone-${lang}.png`);
    },
    60_000,
  );

  it('keyboard: Tab walks the navigation, then the grid day by day; Enter follows a link', async () => {
    await open('/events/month/2030-03/');
    const walked: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      walked.push(
        await page.evaluate<string>(
          "document.activeElement.getAttribute('href') || document.activeElement.tagName",
        ),
      );
    }
    const at = (href: string) => walked.indexOf(`${origin}${href}`);
    expect(at('/events/month/2030-02/')).toBeGreaterThanOrEqual(0);
    expect(at('/events/month/2030-04/')).toBeGreaterThan(at('/events/month/2030-02/'));
    // Days in order, each day's events after it.
    expect(at('/events/2030-03-01/')).toBeGreaterThan(at('/events/month/2030-04/'));
    expect(at('/events/2030-03-05/')).toBeGreaterThan(at('/events/2030-03-01/'));
    expect(at('/event/weekly-choir-rehearsal/2030-03-05/')).toBeGreaterThan(
      at('/events/2030-03-05/'),
    );
    expect(at('/events/2030-03-06/')).toBeGreaterThan(
      at('/event/weekly-choir-rehearsal/2030-03-05/'),
    );
    // The focused link is visibly marked.
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    // Back to "next month" and Enter.
    await page.focus(`a[rel="next"]`);
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.keyboard.press('Enter'),
    ]);
    expect(page.url()).toBe(`${origin}/events/month/2030-04/`);
  }, 60_000);

  it('embeds in a page of another origin: an iframe EMBED_ORIGINS lets in, and embed.js', async () => {
    const errors: string[] = [];
    const listen = (message: { type(): string; text(): string }) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    page.on('console', listen);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${hostOrigin}/`, { waitUntil: 'networkidle' });
    const frame = page.frames().find((f) => f.url().includes('/embed/events/'));
    expect(frame).toBeDefined();
    expect(await frame!.evaluate("document.querySelectorAll('td.cal-day').length")).toBeGreaterThan(
      27,
    );
    expect(await frame!.evaluate("document.querySelector('header.site')")).toBeNull();
    // embed.js: the Hungarian week in a shadow root of the host page, with its stylesheet.
    await page.waitForFunction(
      "document.querySelector('#inline').shadowRoot?.querySelector('.cal-days')",
      undefined,
      { timeout: 10_000 },
    );
    const inline = (await page.evaluate(`(() => {
      const root = document.querySelector('#inline').shadowRoot;
      return {
        days: root.querySelectorAll('.cal-days time').length,
        lang: root.querySelector('.cal').getAttribute('lang'),
        text: root.textContent,
      };
    })()`)) as { days: number; lang: string; text: string };
    expect(inline.days).toBe(7);
    expect(inline.lang).toBe('hu');
    expect(inline.text).toContain('Tavaszi koncert a parkban');
    // Following "next week" renders the next week in place.
    await page.evaluate(
      "document.querySelector('#inline').shadowRoot.querySelector('a[rel=\"next\"]').click()",
    );
    await page.waitForFunction(
      "document.querySelector('#inline').shadowRoot?.querySelector('time[datetime=\"2030-03-18\"]')",
      undefined,
      { timeout: 10_000 },
    );
    expect(page.url()).toBe(`${hostOrigin}/`);
    page.off('console', listen);
    expect(errors).toEqual([]);
  }, 60_000);
});
