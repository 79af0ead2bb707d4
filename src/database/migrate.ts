import { runMigrate } from './migrate-program.js';

/** The migration commands as a process: action, environment, output, exit code. */
runMigrate(process.argv[2], process.env, {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
