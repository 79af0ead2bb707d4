import request from 'supertest';
import { basic } from './auth.js';
import { closeApp, createTestApp } from './create-test-app.js';
import { resetDatabase } from './database.js';
import { cli } from './programs.js';
import { sharedDatabaseUrl } from './spawn.js';

/** The local editor the import specs' commands write as (`--author`). */
export const IMPORTER = { login: 'importer', password: 'importer long password' };

/**
 * An empty database (`url`, by default this run's SQLite file or MariaDB test database) with
 * IMPORTER in it, made through the CLI as an operator would; answers its URL.
 */
export async function databaseWithImporter(url = sharedDatabaseUrl()): Promise<string> {
  await resetDatabase(url);
  const created = await cli(
    ['user:create', IMPORTER.login, '--role', 'editor', '--password', IMPORTER.password],
    { DATABASE_URL: url },
  );
  if (created.code !== 0) throw new Error(created.stderr);
  return url;
}

/**
 * The events that `/cal/events/v1/events?${query}` lists to IMPORTER on the database `url` (where
 * an import wrote), read through an app opened on it for the purpose.
 */
export async function importedEvents(
  url: string,
  query: string,
): Promise<Record<string, unknown>[]> {
  const app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
  try {
    const res = await request(app.getHttpServer())
      .get(`/cal/events/v1/events?${query}`)
      .set('Authorization', basic(IMPORTER.login, IMPORTER.password))
      .expect(200);
    return res.body.events as Record<string, unknown>[];
  } finally {
    await closeApp(app);
  }
}
