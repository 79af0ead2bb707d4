import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { UserInputError, UsersService } from '../auth/users/users.service.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { CliModule } from './cli.module.js';
import { parseArgs, runCommand, UsageError, USAGE } from './commands.js';

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args.command || args.options.help) {
    console.log(USAGE);
    return args.command ? 0 : 1;
  }
  loadConfig(process.env);
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    for (const line of await runCommand(args, app.get(UsersService))) console.log(line);
    return 0;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof UserInputError || error instanceof ConfigError)
      console.error(error.message);
    else console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
