import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/program.js';
import { runMigrate } from '../../src/database/migrate-program.js';
import { applicationMigrations } from '../../src/extension-modules.js';
import type { ProgramOutput } from '../../src/config/program-output.js';
import { captureExpectedLogs } from './expected-logs.js';
import type { Finished } from './spawn.js';

/**
 * The CLI and the migration commands run inside the test process: the same code as the built
 * programs (`CLI`, `MIGRATE` in spawn.ts) without starting Node each time, which cost about half
 * a second of CPU per command. Like a spawned program, a command sees only the `env` given and
 * the test reads what it printed and its exit code. What only a real process shows (exit codes
 * as the shell sees them, output of a killed run, two processes on one database) stays tested
 * with `run()`.
 */
async function capture(program: (output: ProgramOutput) => Promise<number>): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  // A command's own database connection, beside the app a test has open in this same process,
  // makes @nestjs/typeorm warn that two data sources share the default name: true here and
  // harmless (they belong to different apps), impossible in the CLI's own process. Anything
  // else logged meanwhile is printed as usual.
  const logs = captureExpectedLogs();
  const code = await program({
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
    // The importers' progress lines, as a pipe would get them (no terminal: no bar).
    progress: new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        stderr += chunk.toString();
        done();
      },
    }),
  }).finally(() => {
    logs.restore();
    for (const line of logs.lines)
      if (!line.includes('DataSourceNameRegistry')) console.error(line);
  });
  return { code, stdout, stderr };
}

export const cli = (args: string[], env: Record<string, string>) =>
  capture((output) => runCli(args, { ...env }, output));

export const migrate = (action: string, env: Record<string, string>) =>
  capture((output) => runMigrate(action, { ...env }, output, applicationMigrations()));
