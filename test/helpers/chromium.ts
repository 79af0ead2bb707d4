import { existsSync } from 'node:fs';

/** Debian's Chromium (or CHROMIUM_PATH), which the browser tests drive with puppeteer-core. */
export const BROWSER = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_BROWSER = existsSync(BROWSER);

/** A headless Chromium as the browser tests run it (no sandbox: the gate runs as root). */
export async function launchChromium() {
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({
    executablePath: BROWSER,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}
