import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from './auth.js';
import { BROWSER, type Browser, HAS_BROWSER, launchChromium } from './chromium.js';
import { CONSOLE_BUILT } from './console-page.js';
import { closeApp, createTestApp } from './create-test-app.js';
import { isMysql } from './database.js';
import { listenLocally } from './local-app.js';
import { needs } from './services.js';

/** What a console browser spec reaches once its beforeAll has run. */
export interface ConsoleApp {
  app: () => NestExpressApplication;
  /** The origin the app listens at, as the browser opens it. */
  origin: () => string;
  browser: () => Browser;
  /** One user per role (unless `roleUsers: false`); filled in by the beforeAll. */
  users: RoleUsers;
  http: () => ReturnType<typeof request>;
}

/**
 * The console's browser checks run in the SQLite suite and not again in the MySQL/MariaDB one:
 * the console is the same bundle over the same REST API whatever the database, and that suite
 * runs the API's own tests. Run twice they took 5 of the gate's 16 minutes on a slow machine.
 */
const BROWSER_SUITE = !isMysql();

/**
 * The console's browser specs' setup (test/auth/console-*.e2e-spec.ts): the block is skipped
 * in the MySQL/MariaDB suite (BROWSER_SUITE) and without Chromium or the built console;
 * otherwise an app with `env` listens locally, gets one user per role, is seeded by `seed`, and
 * Chromium is launched. Both are closed after the block.
 */
export function useConsoleApp(
  options: {
    env?: Record<string, string>;
    roleUsers?: boolean;
    seed?: (started: ConsoleApp) => Promise<void>;
  } = {},
): ConsoleApp {
  beforeEach((ctx) => {
    if (!BROWSER_SUITE) ctx.skip('the console runs in the browser in the SQLite suite');
  });
  needs(`Chromium at ${BROWSER}`, () => HAS_BROWSER);
  needs('the built console (npm run build)', () => CONSOLE_BUILT);
  let app: NestExpressApplication | undefined;
  let origin = '';
  let browser: Browser | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the console app is not started (useConsoleApp)');
    return value;
  };
  const suite: ConsoleApp = {
    app: () => started(app),
    origin: () => origin,
    browser: () => started(browser),
    users: {} as RoleUsers,
    http: () => request(started(app).getHttpServer()),
  };
  beforeAll(async () => {
    if (!BROWSER_SUITE || !HAS_BROWSER || !CONSOLE_BUILT) return;
    app = await createTestApp({ env: options.env });
    origin = await listenLocally(app);
    if (options.roleUsers !== false) Object.assign(suite.users, await createRoleUsers(app));
    await options.seed?.(suite);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (app) await closeApp(app);
  });
  return suite;
}
