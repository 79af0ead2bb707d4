import { runAsProcess } from '../config/program-output.js';
import { runCli } from './program.js';

/** `npm run cli -- <command>` as a process. */
runAsProcess((output) => runCli(process.argv.slice(2), process.env, output));
