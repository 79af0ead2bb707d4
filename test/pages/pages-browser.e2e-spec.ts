import { mkdirSync } from 'node:fs';
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
} from '../helpers/chromium.js';

/**
 * The event page in headless Chromium (CONTRACT §7): an axe-core check per language (no serious
 * or critical violation), and with UPDATE_SCREENSHOTS=1 a screenshot per language into
 * docs/screenshots/. Needs Debian's `chromium` (or CHROMIUM_PATH): see helpers/services.ts for
 * what happens without it.
 */

const SHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');
const BASE = '/cal/events/v1';

describe('event page in Chromium (e2e)', () => {
  needs(`Chromium at ${BROWSER}`, () => HAS_BROWSER);
  let app: NestExpressApplication;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!HAS_BROWSER) return;
    // Pages link to SITE_URL: make it the address the browser opens.
    ({ app, origin } = await appAtOwnOrigin((site) => ({ SITE_URL: site })));
    const users = await createRoleUsers(app);
    const post = (path: string, body: Record<string, unknown>) =>
      request(app.getHttpServer())
        .post(`${BASE}/${path}`)
        .set('Authorization', users.editor.header)
        .send(body)
        .expect(201);
    const en = await post('events', {
      title: 'Spring concert in the park',
      description:
        '<p>An evening of chamber music by the lake, with works by Bartók, Enescu and Mozart.</p>',
      excerpt: 'Chamber music by the lake.',
      start_date: '2030-03-30 19:00:00',
      end_date: '2030-03-30 21:30:00',
      timezone: 'Europe/Budapest',
      slug: 'spring-concert',
      show_map_link: true,
      cost: '15',
      venue: {
        venue: 'City Park Stage',
        address: 'Kós Károly sétány',
        city: 'Budapest',
        country: 'Hungary',
      },
      organizer: [{ organizer: 'Friends of Music', email: 'friends@example.org' }],
      categories: ['Music'],
      tags: ['outdoor'],
    });
    const id = (en.body as { id: number }).id;
    await post('events', {
      title: 'Tavaszi koncert a parkban',
      description: '<p>Kamarazenei est a tó partján Bartók, Enescu és Mozart műveivel.</p>',
      start_date: '2030-03-30 19:00:00',
      end_date: '2030-03-30 21:30:00',
      timezone: 'Europe/Budapest',
      slug: 'tavaszi-koncert',
      cost: '5000 Ft',
      translation_of: id,
      i18n_language: 'hu',
    });
    await post('events', {
      title: 'Concert de primăvară în parc',
      description:
        '<p>O seară de muzică de cameră lângă lac, cu lucrări de Bartók, Enescu și Mozart.</p>',
      start_date: '2030-03-30 19:00:00',
      end_date: '2030-03-30 21:30:00',
      timezone: 'Europe/Budapest',
      slug: 'concert-de-primavara',
      cost: '75 lei',
      translation_of: id,
      i18n_language: 'ro',
    });
    const members = await post('events', {
      title: 'Members evening',
      description: '<p>The members-only programme.</p>',
      password: 'open sesame',
      slug: 'members-evening',
      start_date: '2030-04-02 19:00:00',
      end_date: '2030-04-02 21:00:00',
    });
    for (const [lang, title, words, slug] of [
      ['hu', 'Tagok estéje', '<p>A tagok műsora.</p>', 'tagok-esteje'],
      ['ro', 'Seara membrilor', '<p>Programul membrilor.</p>', 'seara-membrilor'],
    ]) {
      await post('events', {
        title,
        description: words,
        password: 'open sesame',
        slug,
        start_date: '2030-04-02 19:00:00',
        end_date: '2030-04-02 21:00:00',
        translation_of: (members.body as { id: number }).id,
        i18n_language: lang,
      });
    }
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (HAS_BROWSER) await closeApp(app);
  });

  it.each([
    ['en', '/event/spring-concert/'],
    ['hu', '/hu/event/tavaszi-koncert/'],
    ['ro', '/ro/event/concert-de-primavara/'],
  ])(
    '%s: no serious accessibility violation, styled under the CSP',
    async (lang, path) => {
      const page = await browser.newPage({ viewport: { width: 412, height: 915 } });
      const blocked: string[] = [];
      page.on('console', (message: { type(): string; text(): string }) => {
        if (message.type() === 'error') blocked.push(message.text());
      });
      const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(await page.evaluate('document.documentElement.lang')).toBe(lang);
      // The stylesheet applied (no CSP violation, no missing file).
      const width = await page.evaluate('getComputedStyle(document.body).maxWidth');
      expect(width).not.toBe('none');
      expect(blocked).toEqual([]);
      // axe-core runs through the DevTools protocol, not as a page script (the CSP allows none).
      expect(await axeViolations(page)).toEqual([]);
      if (process.env.UPDATE_SCREENSHOTS === '1') {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `event-${lang}.png`), fullPage: true });
      }
      await page.close();
    },
    60_000,
  );

  it.each([
    ['en', '/event/members-evening/', 'The members-only programme.'],
    ['hu', '/hu/event/tagok-esteje/', 'A tagok műsora.'],
    ['ro', '/ro/event/seara-membrilor/', 'Programul membrilor.'],
  ])(
    '%s: the password form unlocks a protected event',
    async (_lang, path, words) => {
      const page = await browser.newPage();
      const text = () => page.evaluate('document.body.innerText') as Promise<string>;
      await page.goto(`${origin}${path}`, { waitUntil: 'load' });
      expect(await text()).not.toContain(words);
      const submit = async (password: string) => {
        await page.fill('#post_password', password);
        const [response] = await Promise.all([
          page.waitForNavigation({ waitUntil: 'load' }),
          page.click('form.password button[type="submit"]'),
        ]);
        return response!;
      };
      const wrong = await submit('not it');
      expect(wrong.status()).toBe(403);
      expect(wrong.url()).toBe(`${origin}${path}`);
      expect(await page.$('form.password .error')).not.toBeNull();
      expect(await text()).not.toContain(words);
      const right = await submit('open sesame');
      expect(right.status()).toBe(200);
      expect(right.url()).toBe(`${origin}${path}`);
      expect(await text()).toContain(words);
      expect(await page.$('form.password')).toBeNull();
      await page.close();
    },
    60_000,
  );
});
