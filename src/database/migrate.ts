import { runAsProcess } from '../config/program-output.js';
import { runMigrate } from './migrate-program.js';

/** `npm run migration:run | migration:revert | migration:check` as a process. */
runAsProcess((output) => runMigrate(process.argv[2], process.env, output));
