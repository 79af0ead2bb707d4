// The webhook dispatcher's own thread (webhooks/webhook-dispatcher.ts starts it in each server process):
// the fan-out (payload reads and renders, bodies and deliveries written) and the sending (HTTP,
// signatures, outcomes stored) run here, beside the thread that answers requests instead of on
// it, at a lower scheduling priority. The thread has its own application context: the database
// (a small pool of its own), the resource presenters the payloads need, the webhook tables.
import 'reflect-metadata';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CacheModule } from './cache/cache.module.js';
import { AppLogger } from './common/http/app-logger.js';
import { createLogger } from './common/http/request-logger.js';
import { MessagesModule } from './common/i18n/messages.module.js';
import { loadConfig, type AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { dataSourceOptions } from './database/data-source.js';
import { entities } from './entities.js';
import { EventsModule } from './events/events.module.js';
import { OrganizersModule } from './organizers/organizers.module.js';
import { TermsModule } from './terms/terms.module.js';
import { VenuesModule } from './venues/venues.module.js';
import { DeliveriesRepository } from './webhooks/deliveries.repository.js';
import { DispatchLoops } from './webhooks/dispatch-loops.js';
import { OutboxRepository } from './webhooks/outbox.repository.js';
import { RecordPayloads } from './webhooks/record-payloads.js';
import { ScheduleRepository } from './webhooks/schedule.repository.js';
import { SubscriptionsRepository } from './webhooks/subscriptions.repository.js';
import { systemResolver } from './webhooks/target-policy.js';
import { WebhookOutboxModule } from './webhooks/webhook-outbox.js';
import type { FromThread, ThreadData, ToThread } from './webhooks/dispatcher-messages.js';

/**
 * The thread's nice value: under contention for the CPU it gets about a tenth of what the
 * thread answering requests gets (Linux weights 110 against 1024); on an idle CPU, all of it.
 */
const NICE = 10;
/** Connections of the thread's own pool: a pass uses one at a time, a round's store a second. */
const POOL = 3;

@Module({})
class DispatcherThreadModule {
  static forConfig(config: AppConfig): DynamicModule {
    // The primary only: the dispatcher writes what it reads (leases, claims).
    const options = dataSourceOptions({ ...config, replicas: [] }, POOL);
    return {
      module: DispatcherThreadModule,
      imports: [
        ConfigModule.withValue(config),
        TypeOrmModule.forRoot({
          ...options,
          entities,
          retryAttempts: 0,
        }),
        MessagesModule,
        CacheModule,
        WebhookOutboxModule,
        EventsModule,
        VenuesModule,
        OrganizersModule,
        TermsModule,
      ],
      providers: [RecordPayloads, SubscriptionsRepository, DeliveriesRepository],
    };
  }
}

/** Lowers this thread's priority (Linux: a thread's nice value is its own); elsewhere nothing. */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid)) setPriority(tid, NICE);
  } catch {
    // Not Linux, or not allowed: the thread runs at the process's priority.
  }
}

async function main(): Promise<void> {
  const port = parentPort!;
  const data = workerData as ThreadData;
  const post = (message: FromThread) => port.postMessage(message);
  lowerPriority();
  const loaded = loadConfig(process.env);
  // Migrations are the server's; payloads are read fresh (the thread hears of no write, so a
  // cache of its own could keep a stale record).
  const config: AppConfig = { ...loaded, migrationsRun: false, recordCacheMb: 0 };
  // The server's log format; with OTEL_* set, the attempts are client spans of this thread's
  // own SDK, linked to the traces of the writes they announce as on the server's thread.
  const logger = createLogger();
  const tracing = config.tracing
    ? (await import('./tracing/tracing.js')).startTracing(logger)
    : null;
  const app = await NestFactory.createApplicationContext(DispatcherThreadModule.forConfig(config), {
    logger: new AppLogger(logger),
    abortOnError: false,
  });
  const inFlight = new Int32Array(data.inFlight);
  const loops = new DispatchLoops({
    config,
    outbox: app.get(OutboxRepository),
    schedule: app.get(ScheduleRepository),
    deliveries: app.get(DeliveriesRepository),
    subscriptions: app.get(SubscriptionsRepository),
    payloads: app.get(RecordPayloads),
    owner: data.owner,
    count: (outcome, n) => post({ type: 'count', outcome, n }),
    inFlight: () => Atomics.load(inFlight, 0),
    resolve: systemResolver,
  });
  port.on('message', (message: ToThread) => {
    if (message === 'wake') loops.wake();
    else if (message === 'went-live') loops.wentLive();
    else if (message === 'stop') {
      void loops
        .stop()
        .then(() => app.close())
        .then(() => tracing?.shutdown())
        // Its pool closed, the thread has nothing left to wait for: it ends (the server waits
        // for that, and ends it after a bound if something still holds it).
        .finally(() => port.close());
    }
  });
  loops.start();
  post({ type: 'ready' });
}

main().catch((error: unknown) => {
  parentPort!.postMessage({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
  } satisfies FromThread);
  // In a worker, exit ends this thread only: the server starts another after a wait. Whatever
  // a failed start left open (a half-made pool, the tracing SDK) must not keep it from ending.
  process.exit(1);
});
