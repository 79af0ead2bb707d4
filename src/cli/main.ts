import { loadConfig, type AppConfig } from '../config/config.js';
import { describeStartupError, prepareSqliteDirectory } from '../config/startup.js';
import {
  commandHelp,
  CommandError,
  isImportCommand,
  parseCommandLine,
  runCommand,
  synopsis,
  usage,
  UsageError,
  type ParsedCommand,
} from './commands.js';

/**
 * `npm run cli -- <command>`. Exit codes: 0 done (and --help), 1 the command could not be done
 * (bad value, unknown user, database problem), 2 the command line is wrong.
 */
async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv);
  if ('help' in parsed) {
    console.log(parsed.spec ? commandHelp(parsed.spec) : usage());
    return 0;
  }
  const config = loadConfig(process.env);
  prepareSqliteDirectory(config.database);
  return execute(parsed, config);
}

async function execute(parsed: ParsedCommand, config: AppConfig): Promise<number> {
  // Loaded only now, so that --help and usage errors answer at once.
  await import('reflect-metadata');
  const [{ NestFactory }, { UsersService }, { TrashPurger }] = await Promise.all([
    import('@nestjs/core'),
    import('../auth/users/users.service.js'),
    import('../common/posts/purge-trash.js'),
  ]);
  // The import commands need the resource services; the others start without them.
  const importing = isImportCommand(parsed.spec.name);
  const root = importing
    ? (await import('./import-cli.module.js')).ImportCliModule
    : (await import('./cli.module.js')).CliModule;
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
  try {
    app = await NestFactory.createApplicationContext(root, {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    throw new CommandError(
      describeStartupError(error, config) ??
        `Cannot open the database: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const lines = await runCommand(parsed, {
      users: app.get(UsersService),
      trash: app.get(TrashPurger),
      tec: importing
        ? app.get((await import('../importer/tec-importer.js')).TecImporter)
        : undefined,
      ics: importing
        ? app.get((await import('../importer/ics-importer.js')).IcsImporter)
        : undefined,
      print: (line) => console.log(line),
      env: process.env,
    });
    for (const line of lines) console.log(line);
    return 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      const c = error.command;
      console.error(
        c
          ? `${error.message}\nUsage: ${synopsis(c)}\n(npm run cli -- ${c.name} --help explains each option)`
          : `${error.message}\n\n${usage()}`,
      );
      process.exit(2);
    }
    // ConfigError, UserInputError, CommandError: their message is the whole story.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
