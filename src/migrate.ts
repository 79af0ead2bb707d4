// First: an older Node stops here with one line, before anything native is loaded.
import './config/node-version.js';
// The extension modules' classes carry Nest's decorators, which need it loaded first.
import 'reflect-metadata';
import { runAsProcess } from './config/program-output.js';
import { applicationMigrations } from './extension-modules.js';
import { runMigrate } from './database/migrate-program.js';

/**
 * `npm run migration:run | migration:revert | migration:check` as a process, with the core's
 * migrations and the loaded extension modules' (docs/extending.md), as the application runs them.
 */
runAsProcess((output) => runMigrate(process.argv[2], process.env, output, applicationMigrations()));
