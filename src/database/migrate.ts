// First: an older Node stops here with one line, before anything native is loaded.
import '../config/node-version.js';
import { runAsProcess } from '../config/program-output.js';
import { runMigrate } from './migrate-program.js';

/** `npm run migration:run | migration:revert | migration:check` as a process. */
runAsProcess((output) => runMigrate(process.argv[2], process.env, output));
