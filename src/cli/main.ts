import { runCli } from './program.js';

/** The CLI as a process: arguments, environment, standard output and error, exit code. */
runCli(process.argv.slice(2), process.env, {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  progress: process.stderr,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
