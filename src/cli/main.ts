// First: an older Node stops here with one line, before anything native is loaded.
import '../config/node-version.js';
import { ConfigError } from '../config/config-error.js';
import { parseOperations } from '../config/operations.js';
import { runAsProcess } from '../config/program-output.js';
import { runCli } from './program.js';

/** Whether the OTEL_* variables ask for traces; a bad value is left for runCli to report. */
function tracingRequested(): boolean {
  try {
    return parseOperations(process.env).tracing;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

/**
 * `npm run cli -- <command>` as a process. With OTEL_EXPORTER_OTLP_ENDPOINT set, the command is
 * one trace: a root span named after it, with its statements and the importers' requests (which
 * pass `traceparent` on to the source) as children; its spans are sent before the process exits.
 */
runAsProcess(async (output) => {
  const argv = process.argv.slice(2);
  if (!tracingRequested()) return runCli(argv, process.env, output);
  const [{ startTracing }, { inRootSpan }, { createLogger }] = await Promise.all([
    import('../tracing/tracing.js'),
    import('../tracing/spans.js'),
    import('../common/http/request-logger.js'),
  ]);
  // Standard output is the command's (a created user's password is its last line).
  const tracing = startTracing(createLogger((line) => process.stderr.write(`${line}\n`)));
  const command = /^[a-z][a-z:-]{0,39}$/.test(argv[0] ?? '') ? argv[0] : 'command';
  try {
    return await inRootSpan(`cli ${command}`, () => runCli(argv, process.env, output));
  } finally {
    await tracing.shutdown().catch(() => undefined);
  }
});
