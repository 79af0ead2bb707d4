import { loadConfig, type AppConfig } from '../config/config.js';
import type { ProgramOutput } from '../config/program-output.js';
import { describeStartupError, prepareSqliteDirectory } from '../config/startup.js';
import { errorText, messagesFor, type Translate } from '../config/messages.js';
import {
  commandHelp,
  parseCommandLine,
  synopsis,
  usage,
  UsageError,
  type ParsedCommand,
} from './command-line.js';
import { CommandError, isImportCommand, runCommand } from './commands.js';

/**
 * `npm run cli -- <command>`, given its arguments, environment and output; resolves to the exit
 * code: 0 done (and --help), 1 the command could not be done (bad value, unknown user, database
 * problem), 2 the command line is wrong. main.ts runs it as the process.
 */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  output: ProgramOutput,
): Promise<number> {
  // The operator's language, from the locale as for any command-line tool (LC_ALL, LANG...).
  const { t } = messagesFor(env);
  try {
    const parsed = parseCommandLine(argv, t);
    if ('help' in parsed) {
      output.out(parsed.spec ? commandHelp(parsed.spec, t) : usage(t));
      return 0;
    }
    const config = loadConfig(env);
    prepareSqliteDirectory(config.database);
    return await execute(parsed, config, env, output, t);
  } catch (error) {
    if (error instanceof UsageError) {
      const c = error.command;
      output.err(
        c
          ? [
              error.message,
              t('cli.usage.synopsis', { synopsis: synopsis(c) }),
              t('cli.usage.see_help', { command: c.name }),
            ].join('\n')
          : `${error.message}\n\n${usage(t)}`,
      );
      return 2;
    }
    // ConfigError, UserInputError, CommandError: their message is the whole story.
    output.err(errorText(error, t));
    return 1;
  }
}

async function execute(
  parsed: ParsedCommand,
  config: AppConfig,
  env: NodeJS.ProcessEnv,
  output: ProgramOutput,
  t: Translate,
): Promise<number> {
  // Loaded only now, so that --help and usage errors answer at once.
  await import('reflect-metadata');
  const [{ NestFactory }, { CliModule }, { UsersService }, { TrashPurger }, { WebhookOutbox }] =
    await Promise.all([
      import('@nestjs/core'),
      import('./cli.module.js'),
      import('../auth/users/users.service.js'),
      import('../posts/purge-trash.js'),
      import('../webhooks/webhook-outbox.js'),
    ]);
  // The import commands need the messages and the resource services; the others start without.
  const importer = isImportCommand(parsed.spec.name) ? await loadImporter() : undefined;
  const root = CliModule.forConfig(config, importer?.modules);
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
  try {
    app = await NestFactory.createApplicationContext(root, {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    throw new CommandError(
      describeStartupError(error, config, t) ??
        t('cli.database_unavailable', {
          reason: error instanceof Error ? error.message : String(error),
        }),
    );
  }
  try {
    const lines = await runCommand(parsed, {
      users: app.get(UsersService),
      trash: app.get(TrashPurger),
      tec: importer && app.get(importer.TecImporter),
      ics: importer && app.get(importer.IcsImporter),
      quietWebhooks: () => {
        app.get(WebhookOutbox).quiet = true;
      },
      print: (line) => output.out(line),
      progress: output.progress,
      env,
      t,
    });
    for (const line of lines) output.out(line);
    return 0;
  } finally {
    await app.close();
  }
}

/** The modules and services of the import commands, loaded only when one runs. */
async function loadImporter() {
  const [
    { MessagesModule },
    { ImporterModule },
    { TecImporter },
    { IcsImporter },
    { EXTENSION_MODULES },
  ] = await Promise.all([
    import('../common/i18n/messages.module.js'),
    import('../importer/importer.module.js'),
    import('../importer/tec-importer.js'),
    import('../importer/ics-importer.js'),
    // The extension modules' write fields are imported too (docs/extending.md).
    import('../extension-modules.js'),
  ]);
  return {
    modules: [MessagesModule, ImporterModule, ...EXTENSION_MODULES],
    TecImporter,
    IcsImporter,
  };
}
