import 'reflect-metadata';
import { DataSource, MigrationExecutor, type MigrationInterface } from 'typeorm';
import { ConfigError, loadConfig, type AppConfig } from '../config/config.js';
import {
  describeDatabase,
  describeStartupError,
  prepareSqliteDirectory,
} from '../config/startup.js';
import { dataSourceOptions } from './data-source.js';
import { migrationLabel } from './migration-label.js';
import type { ProgramOutput } from '../config/program-output.js';
import { errorText, messagesFor, type Translate } from '../config/messages.js';

/** The usage of the migration commands, in the operator's language. */
const usage = (t: Translate) =>
  [
    t('cli.migrate.usage'),
    `  migration:run     ${t('cli.migrate.run')}`,
    `  migration:revert  ${t('cli.migrate.revert')}`,
    `  migration:check   ${t('cli.migrate.check')}`,
    t('cli.migrate.database'),
  ].join('\n');

async function act(
  action: string,
  ds: DataSource,
  output: ProgramOutput,
  t: Translate,
): Promise<number> {
  const executor = new MigrationExecutor(ds);
  if (action === 'run') {
    const done = await ds.runMigrations({ transaction: 'each' });
    output.out(
      done.length
        ? done.map((m) => t('cli.migrate.applied', { name: migrationLabel(m.name) })).join('\n')
        : t('cli.migrate.nothing_to_apply'),
    );
    return 0;
  }
  if (action === 'revert') {
    const executed = await executor.getExecutedMigrations();
    const last = executed.sort((a, b) => b.timestamp - a.timestamp)[0];
    if (!last) {
      output.out(t('cli.migrate.nothing_to_revert'));
      return 0;
    }
    await ds.undoLastMigration({ transaction: 'each' });
    output.out(t('cli.migrate.reverted', { name: migrationLabel(last.name) }));
    return 0;
  }
  // check: pending migrations first (the fix is to run them), then drift between entities and
  // migrations (the fix is a new migration).
  const pending = await executor.getPendingMigrations();
  if (pending.length) {
    output.out(t('cli.migrate.not_up_to_date', { count: pending.length }));
    for (const m of pending) {
      output.out(`  ${t('cli.migrate.pending', { name: migrationLabel(m.name) })}`);
    }
    return 1;
  }
  const drift = (await ds.driver.createSchemaBuilder().log()).upQueries;
  if (drift.length) {
    output.out(t('cli.migrate.drift', { count: drift.length }));
    for (const q of drift) output.out(`  ${q.query};`);
    return 1;
  }
  output.out(t('cli.migrate.ok'));
  return 0;
}

/**
 * `npm run migration:run | migration:revert | migration:check` on the database of `env`; resolves
 * to the exit code (0 done, 1 failed or not up to date, 2 a wrong action). src/migrate.ts runs it
 * as the process.
 */
export async function runMigrate(
  action: string | undefined,
  env: NodeJS.ProcessEnv,
  output: ProgramOutput,
  /** The core's and the loaded extension modules' (applicationMigrations(), given by src/migrate.ts). */
  migrations: ReadonlyArray<new () => MigrationInterface>,
): Promise<number> {
  // The operator's language, from the locale as for any command-line tool (LC_ALL, LANG...).
  const { t } = messagesFor(env);
  if (action === '--help' || action === '-h' || action === 'help') {
    output.out(usage(t));
    return 0;
  }
  if (action !== 'run' && action !== 'revert' && action !== 'check') {
    const problem = action
      ? t('cli.migrate.unknown_action', { action })
      : t('cli.migrate.no_action');
    output.err(`${problem}\n\n${usage(t)}`);
    return 2;
  }
  let config: AppConfig;
  try {
    config = loadConfig(env);
    prepareSqliteDirectory(config.database);
  } catch (error) {
    if (error instanceof ConfigError) {
      output.err(errorText(error, t));
      return 1;
    }
    throw error;
  }
  const ds = new DataSource({
    ...dataSourceOptions({ ...config, migrationsRun: false }),
    migrations: [...migrations],
  });
  try {
    await ds.initialize();
  } catch (error) {
    output.err(
      describeStartupError(error, config, t) ??
        t('cli.migrate.cannot_open', {
          database: describeDatabase(config.database),
          reason: error instanceof Error ? error.message : String(error),
        }),
    );
    return 1;
  }
  try {
    return await act(action, ds, output, t);
  } finally {
    await ds.destroy();
  }
}
