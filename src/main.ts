// First: an older Node stops here with one line, before anything native is loaded.
import './config/node-version.js';
// Then: V8 sizes its young generation only from the command line (src/heap-flags.ts).
import './heap-flags.js';
import cluster from 'node:cluster';
import { reportListening, runPrimary } from './cluster.js';
import { isClusterWorker } from './common/cluster-worker.js';
import { ConfigError, loadConfig, type AppConfig } from './config/config.js';
import { errorText, messagesFor } from './config/messages.js';
import { describeStartupError, prepareSqliteDirectory, startupSummary } from './config/startup.js';
import { tuneHeap } from './common/heap.js';

tuneHeap();

/** Every way of failing to start ends here: one line on standard error, exit code 1. */
function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

async function bootstrap(config: AppConfig) {
  // Loaded after the configuration is checked, so that a bad variable is reported at once.
  await import('reflect-metadata');
  const [
    { NestFactory },
    { AppModule },
    { configureApp },
    { AppLogger },
    { createLogger },
    { BodyBytesAdapter },
  ] = await Promise.all([
    import('@nestjs/core'),
    import('./app.module.js'),
    import('./configure-app.js'),
    import('./common/http/app-logger.js'),
    import('./common/http/request-logger.js'),
    import('./common/http/body-bytes.adapter.js'),
  ]);
  // One pino logger for the request lines and the application's messages (one format).
  const logger = createLogger();
  // OTEL_EXPORTER_OTLP_ENDPOINT set: the SDK starts before the application, whose hooks
  // (requests, statements) install themselves only when it runs. Unset, it is never loaded.
  const tracing = config.tracing
    ? (await import('./tracing/tracing.js')).startTracing(logger)
    : null;
  // abortOnError: false lets a failed start reach the catch below instead of process.abort().
  const app = await NestFactory.create<import('@nestjs/platform-express').NestExpressApplication>(
    AppModule.withConfig(config),
    new BodyBytesAdapter(),
    { logger: new AppLogger(logger), abortOnError: false },
  );
  configureApp(app, { logger });
  await app.listen(config.port, config.host);
  stopOnSignals(app, config, tracing, logger);
  // Under WORKERS > 1 the primary prints the start-up line once every worker listens.
  if (isClusterWorker()) reportListening();
  else {
    const { SharedThrottleStores } = await import('./auth/redis-throttle-store.js');
    console.log(startupSummary(config, await app.get(SharedThrottleStores).redisAtStartup()));
  }
}

/**
 * SIGTERM or SIGINT: readiness fails at once (/health/ready answers 503) while the server still
 * accepts for SHUTDOWN_DELAY_MS, so that load balancers stop sending; then it stops accepting,
 * answers the requests in flight, closes the application (database, timers) and exits. Requests
 * still in flight SHUTDOWN_DRAIN_MS later are cut off: a stop always ends.
 */
function stopOnSignals(
  app: import('@nestjs/platform-express').NestExpressApplication,
  config: AppConfig,
  tracing: import('./tracing/tracing.js').Tracing | null,
  logger: import('pino').Logger,
): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const { Drain } = await import('./health/drain.js');
    app.get(Drain).start();
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    setTimeout(() => {
      logger.warn(
        { context: 'Shutdown', drainMs: config.shutdownDrainMs },
        'requests still in flight after SHUTDOWN_DRAIN_MS; exiting without them',
      );
      process.exit(0);
    }, config.shutdownDrainMs).unref();
    const server: import('node:http').Server = app.getHttpServer();
    await new Promise((resolve) => {
      server.close(resolve);
      // Keep-alive connections idle now would hold the close until they time out.
      server.closeIdleConnections();
    });
    await app.close();
    // The spans of the last requests are sent before the process goes.
    await tracing?.shutdown().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

/** The configuration, loaded and checked once, before anything else is loaded. */
function loadConfigOrFail(): AppConfig {
  try {
    const loaded = loadConfig(process.env);
    prepareSqliteDirectory(loaded.database);
    return loaded;
  } catch (error) {
    // One clear line naming the variable, no stack trace.
    if (error instanceof ConfigError) fail(errorText(error, messagesFor(process.env).t));
    throw error;
  }
}

const config = loadConfigOrFail();
if (config.workers > 1 && cluster.isPrimary) runPrimary(config);
else
  bootstrap(config).catch((error: unknown) => {
    // In the operator's language, from the locale (LC_ALL, LC_MESSAGES, LANG).
    const { t } = messagesFor(process.env);
    fail(
      describeStartupError(error, config, t) ??
        t('config.startup.failed', {
          reason: error instanceof Error ? error.message : String(error),
        }),
    );
  });
