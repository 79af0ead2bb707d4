import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module.js';
import { BodyBytesAdapter } from '../../src/common/http/body-bytes.adapter.js';
import { configureApp } from '../../src/configure-app.js';
import { resetMigratedDatabase, testDatabaseUrl } from './database.js';
import { forgetOpenApi, judgeByOpenApi } from './openapi-contract.js';

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Extra controllers (e.g. probes of shared behaviour). */
  controllers?: Type[];
  /** Keep the current database instead of recreating it (MySQL). */
  keepDatabase?: boolean;
  /** Receives the request log lines (request logging is off unless LOG_REQUESTS=true). */
  logSink?: (line: string) => void;
  /** The application module (default AppModule; `AppModule.withExtensions([])`: no modules). */
  module?: Type | DynamicModule;
}

const BASE_ENV = { ...process.env };

/** The whole app as `main.ts` builds it, on a fresh test database, with migrations run. */
export async function createTestApp(options: TestAppOptions = {}): Promise<NestExpressApplication> {
  process.env = {
    ...BASE_ENV,
    DATABASE_URL: testDatabaseUrl(),
    SITE_URL: 'http://cal.test',
    SITE_TIMEZONE: 'UTC',
    MIGRATIONS_RUN: 'true',
    LOG_REQUESTS: options.logSink ? 'true' : 'false',
    ...options.env,
  };
  if (!options.keepDatabase) await resetMigratedDatabase(process.env.DATABASE_URL);
  const moduleRef = await Test.createTestingModule({
    imports: [options.module ?? AppModule],
    controllers: options.controllers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new BodyBytesAdapter(), {
    logger: ['error'],
  });
  configureApp(app, { logSink: options.logSink });
  await app.init();
  // Every supertest response of this app is validated against the app's own OpenAPI document.
  judgeByOpenApi(app);
  return app;
}

export async function closeApp(app: INestApplication | undefined): Promise<void> {
  if (app) forgetOpenApi(app);
  await app?.close();
  process.env = { ...BASE_ENV };
}
