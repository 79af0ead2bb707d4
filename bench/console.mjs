#!/usr/bin/env node
// The editors' console (issue 51) in headless Chromium against the built server on a new SQLite
// file: bytes transferred for the login screen (target ≤ 600 KB) and the time from the login's
// submit to the events list being shown (target ≤ 2 s). Prints figures; not a test.
//
//   npm run bench:console
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { migrate, startServer, stopServer, waitHealthy } from './lib.mjs';

const PORT = 3951;
const LOGIN = 'bench-chief';
const PASSWORD = 'bench console passphrase';
const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-console-')), 'bench.sqlite')}`;
migrate(url);
const server = startServer(url, PORT, { ADMIN_LOGIN: LOGIN, ADMIN_PASSWORD: PASSWORD });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  chromiumSandbox: false,
  args: ['--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  await waitHealthy(PORT);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // Bytes on the wire (encoded), as the DevTools protocol counts them.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  await page.goto(`http://127.0.0.1:${PORT}/admin/`, { waitUntil: 'networkidle' });
  await page.waitForSelector('input[name="username"]');
  const loginBytes = bytes;
  await page.fill('input[name="username"]', LOGIN);
  await page.fill('input[name="password"]', PASSWORD);
  const t0 = performance.now();
  await page.click('button[type="submit"]');
  // The list is interactive when its search field (alwaysOn filter) takes input.
  await page
    .getByRole('textbox', { name: /search/i })
    .first()
    .waitFor({ timeout: 30_000 });
  const loginMs = performance.now() - t0;
  const kb = (loginBytes / 1024).toFixed(1);
  console.log(`login screen: ${kb} KB transferred (target ≤ 600 KB)`);
  console.log(`login submit → events list: ${loginMs.toFixed(0)} ms (target ≤ 2000 ms)`);
  console.log(`after login: ${((bytes - loginBytes) / 1024).toFixed(1)} KB more`);
} finally {
  await browser.close();
  await stopServer(server);
}
