import { beforeEach } from 'vitest';

/**
 * For tests that need a service this machine may lack (Redis, Chromium): call it in their
 * `describe`. Outside CI a missing service skips each test, with the reason in the report; at the
 * gate (`CI=true`), which installs and starts every service, a missing one fails them instead, so
 * that nothing counts as passed there without having run.
 */
export function needs(service: string, available: () => boolean): void {
  beforeEach((ctx) => {
    if (available()) return;
    if (process.env.CI === 'true') {
      throw new Error(`${service} is missing; the gate (CI=true) must provide it`);
    }
    ctx.skip(`needs ${service}`);
  });
}
