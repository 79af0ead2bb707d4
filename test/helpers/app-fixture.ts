import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from './auth.js';
import { closeApp, createTestApp, type TestAppOptions } from './create-test-app.js';

export interface TestAppFixture {
  /** The app of this describe block, once its beforeAll has run. */
  app: () => NestExpressApplication;
  /** One user per role; filled in by the beforeAll, so it may be destructured up front. */
  users: RoleUsers;
  /** A supertest agent on the app. */
  http: () => ReturnType<typeof request>;
}

/**
 * What most e2e describe blocks open with: an app on a fresh database (beforeAll, optionally with
 * `timeout`), one user per role, and the app closed after the block (afterAll).
 */
export function useTestApp(options: TestAppOptions = {}, timeout?: number): TestAppFixture {
  let current: NestExpressApplication | undefined;
  const users = {} as RoleUsers;
  beforeAll(async () => {
    current = await createTestApp(options);
    Object.assign(users, await createRoleUsers(current));
  }, timeout);
  afterAll(() => closeApp(current));
  const app = () => {
    if (!current) throw new Error('the test app is not started (useTestApp runs in beforeAll)');
    return current;
  };
  return { app, users, http: () => request(app().getHttpServer()) };
}

/**
 * For a describe block whose tests each need an app of their own settings: `start(options)` builds
 * one on a fresh database and answers it with a supertest agent on it; it is closed after the test.
 */
export function useAppPerTest() {
  let current: NestExpressApplication | undefined;
  afterEach(async () => {
    await closeApp(current);
    current = undefined;
  });
  return async (options: TestAppOptions = {}) => {
    const app = await createTestApp(options);
    current = app;
    return { app, http: () => request(app.getHttpServer()) };
  };
}

/** POSTs `body` to `${base}/events` with `header` as Authorization; the caller expects the status. */
export const postEvent = (
  http: () => ReturnType<typeof request>,
  header: string,
  body: Record<string, unknown>,
  base = '/cal/events/v1',
) => http().post(`${base}/events`).set('Authorization', header).send(body);

/**
 * POSTs `body` to `${base}${path}` as `header` and answers the record; an answer other than
 * `status` throws, with its body (a seeding step that fails says why).
 */
export async function postRecord(
  http: () => ReturnType<typeof request>,
  header: string,
  path: string,
  body: Record<string, unknown>,
  status = 201,
  base = '/cal/events/v1',
): Promise<Record<string, unknown> & { id: number }> {
  const res = await http().post(`${base}${path}`).set('Authorization', header).send(body);
  if (res.status !== status) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { id: number };
}
