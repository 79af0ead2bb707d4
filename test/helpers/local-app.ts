import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeApp, createTestApp } from './create-test-app.js';

/** Listens on a free local port; answers the origin a browser opens. */
export async function listenLocally(app: NestExpressApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

/**
 * An app listening at an origin its configuration names (pages link to SITE_URL): a probe app
 * finds a free port and is closed, then the app is made with `env(origin)` and listens there.
 */
export async function appAtOwnOrigin(
  env: (origin: string) => Record<string, string>,
): Promise<{ app: NestExpressApplication; origin: string }> {
  const probe = await createTestApp();
  const port = Number(new URL(await listenLocally(probe)).port);
  await closeApp(probe);
  const origin = `http://127.0.0.1:${port}`;
  const app = await createTestApp({ env: env(origin) });
  await app.listen(port, '127.0.0.1');
  return { app, origin };
}
