import { existsSync, readFileSync } from 'node:fs';
import type { Browser, Frame, Page } from 'playwright-core';

export type { Browser, Locator, Page } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH), which the browser tests drive with playwright-core. */
export const BROWSER = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_BROWSER = existsSync(BROWSER);

/**
 * A headless Chromium as the browser tests run it: Debian's binary (playwright-core downloads
 * none), no sandbox (the gate runs as root).
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: BROWSER,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-dev-shm-usage'],
  });
}

interface AxeResult {
  violations: Array<{
    id: string;
    impact: string | null;
    help: string;
    nodes: Array<{ target: string[] }>;
  }>;
}

/**
 * The serious and critical axe-core violations of the page (or frame) as shown, as
 * "id: help (where)" lines. axe-core is put into the page by the DevTools protocol, which the pages'
 * Content-Security-Policy does not stop.
 */
export async function axeViolations(page: Page | Frame): Promise<string[]> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) {
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  }
  const result = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] })",
  )) as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
