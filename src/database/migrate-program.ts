import 'reflect-metadata';
import { MigrationExecutor, type DataSource } from 'typeorm';
import { ConfigError, loadConfig, type AppConfig } from '../config/config.js';
import {
  describeDatabase,
  describeStartupError,
  prepareSqliteDirectory,
} from '../config/startup.js';
import { createDataSource } from './data-source.js';
import { migrationLabel } from './migration-label.js';
import type { ProgramOutput } from '../config/program-output.js';

const MIGRATE_USAGE = `Usage: npm run migration:run | migration:revert | migration:check
  migration:run     apply the pending migrations, naming each one
  migration:revert  revert the most recently applied migration
  migration:check   say whether migrations are pending and whether entities and migrations
                    describe the same schema (exit code 1 when not)
Each works on the DATABASE_URL database.`;

async function act(action: string, ds: DataSource, output: ProgramOutput): Promise<number> {
  const executor = new MigrationExecutor(ds);
  if (action === 'run') {
    const done = await ds.runMigrations({ transaction: 'each' });
    output.out(
      done.length
        ? done.map((m) => `applied ${migrationLabel(m.name)}`).join('\n')
        : 'nothing to apply: every migration has run',
    );
    return 0;
  }
  if (action === 'revert') {
    const executed = await executor.getExecutedMigrations();
    const last = executed.sort((a, b) => b.timestamp - a.timestamp)[0];
    if (!last) {
      output.out('nothing to revert: no migration has run on this database');
      return 0;
    }
    await ds.undoLastMigration({ transaction: 'each' });
    output.out(`reverted ${migrationLabel(last.name)}`);
    return 0;
  }
  // check: pending migrations first (the fix is to run them), then drift between entities and
  // migrations (the fix is a new migration).
  const pending = await executor.getPendingMigrations();
  if (pending.length) {
    output.out(
      `NOT UP TO DATE: ${pending.length} migration(s) pending; run \`npm run migration:run\``,
    );
    for (const m of pending) output.out(`  pending ${migrationLabel(m.name)}`);
    return 1;
  }
  const drift = (await ds.driver.createSchemaBuilder().log()).upQueries;
  if (drift.length) {
    output.out(
      `DRIFT: the entities differ from what the migrations build; add a migration to ` +
        `src/database/migrations/ that makes these ${drift.length} change(s):`,
    );
    for (const q of drift) output.out(`  ${q.query};`);
    return 1;
  }
  output.out('OK: every migration has run and the schema matches the entities');
  return 0;
}

/**
 * `npm run migration:run | migration:revert | migration:check` on the database of `env`; resolves
 * to the exit code (0 done, 1 failed or not up to date, 2 a wrong action). migrate.ts runs it as
 * the process.
 */
export async function runMigrate(
  action: string | undefined,
  env: NodeJS.ProcessEnv,
  output: ProgramOutput,
): Promise<number> {
  if (action === '--help' || action === '-h' || action === 'help') {
    output.out(MIGRATE_USAGE);
    return 0;
  }
  if (action !== 'run' && action !== 'revert' && action !== 'check') {
    output.err(`${action ? `unknown action "${action}"` : 'no action given'}\n\n${MIGRATE_USAGE}`);
    return 2;
  }
  let config: AppConfig;
  try {
    config = loadConfig(env);
    prepareSqliteDirectory(config.database);
  } catch (error) {
    if (error instanceof ConfigError) {
      output.err(error.message);
      return 1;
    }
    throw error;
  }
  const ds = createDataSource({ ...config, migrationsRun: false });
  try {
    await ds.initialize();
  } catch (error) {
    output.err(
      describeStartupError(error, config) ??
        `Cannot open the database ${describeDatabase(config.database)}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  try {
    return await act(action, ds, output);
  } finally {
    await ds.destroy();
  }
}
