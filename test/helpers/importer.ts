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
