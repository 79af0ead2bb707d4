import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CODE_DIR } from '../config/paths.js';
import { ScheduledPublications } from '../database/scheduled-publications.js';
import { Writes } from '../database/writes.js';
import { Metrics } from '../metrics/metrics.js';
import { YOUNG_GENERATION_MB } from '../common/heap.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import type { CountAttempts } from './delivery-rounds.js';
import { DispatchLoops } from './dispatch-loops.js';
import type { FromThread, ThreadData, ToThread } from './dispatcher-messages.js';
import { OutboxRepository } from './outbox.repository.js';
import { RecordPayloads } from './record-payloads.js';
import { ScheduleRepository } from './schedule.repository.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { systemResolver, type Resolver } from './target-policy.js';

/**
 * The dispatcher thread's entry (src/webhook-thread.ts, which composes its application beside
 * app.module.ts), compiled; absent when the program runs from its sources (the test runner).
 */
const THREAD_ENTRY = join(CODE_DIR, 'webhook-thread.js');
/** How long a stopping process waits for the thread to finish the passes in flight. */
const THREAD_STOP_WAIT_MS = 8_000;
/** The waits before starting a thread that could not start or died, growing to the last. */
const RESTART_MS = [1_000, 5_000, 30_000];

/**
 * Delivers the outbox (webhook-outbox.ts) by the Standard Webhooks specification, in every server
 * process, off the write path: woken after each commit of this process and every WEBHOOK_POLL
 * for the commits of others (other workers, servers, the CLI). Once a subscription exists, the
 * loops (dispatch-loops.ts) run on a thread of their own (src/webhook-thread.ts) at a lower
 * priority, so that rendering, signing and sending the messages of a busy calendar neither take
 * the time of the thread that answers requests nor, on a machine short of CPU, more than a
 * tenth of it; a thread that dies is started again, and what it held is taken over when its
 * leases run out. Where no compiled thread exists (the sources under the test runner) or the
 * database lives in this process's memory (SQLite `:memory:`, which another thread cannot
 * open), the loops run here.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly owner = `${hostname().slice(0, 20)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** One Int32: the HTTP requests this process is answering (none in a process without a server). */
  private readonly inFlight = new Int32Array(new SharedArrayBuffer(4));
  private readonly count: CountAttempts;
  private unsubscribe: Array<() => void> = [];
  /** The loops, when they run on this thread. */
  private loops: DispatchLoops | undefined;
  private worker: Worker | undefined;
  private wakeQueued = false;
  private moving = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** The resolver deliveries connect through when the loops run here (tests stand for DNS). */
  resolver: Resolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writes: Writes,
    private readonly publications: ScheduledPublications,
    private readonly outbox: OutboxRepository,
    private readonly schedule: ScheduleRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly payloads: RecordPayloads,
    private readonly adapterHost: HttpAdapterHost,
    metrics: Metrics,
  ) {
    const attempts = metrics.counter(
      'cal_webhook_attempts_total',
      'Webhook delivery attempts, by outcome: delivered, retry (failed, tried again later) or failed (for good).',
      ['outcome'],
    );
    this.count = (outcome, n) => attempts.inc({ outcome }, n);
  }

  onApplicationBootstrap(): void {
    // Requests come first: a pass tells from this count whether to yield to them.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as HttpServer | undefined;
    server?.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      Atomics.add(this.inFlight, 0, 1);
      res.once('close', () => Atomics.sub(this.inFlight, 0, 1));
    });
    this.unsubscribe = [
      this.writes.onCommit(() => this.wake()),
      // The webhooks' subscription to the clock of scheduled posts going live.
      this.publications.onWentLive(() => this.wentLive()),
    ];
    const db = this.config.database;
    const threaded = existsSync(THREAD_ENTRY) && !(db.type === 'sqlite' && db.path === ':memory:');
    // The loops start here; a process with a thread to move them to does so once a pass finds a
    // subscription (an administrator made one, here or elsewhere): a calendar without webhooks
    // keeps no thread, nor the memory of its application (about 120 MB).
    this.loops = new DispatchLoops({
      config: this.config,
      outbox: this.outbox,
      schedule: this.schedule,
      deliveries: this.deliveries,
      subscriptions: this.subscriptions,
      payloads: this.payloads,
      owner: this.owner,
      count: this.count,
      inFlight: () => Atomics.load(this.inFlight, 0),
      // Read at each attempt: tests replace `resolver` after the start.
      resolve: (host) => this.resolver(host),
      onSubscriptions: threaded ? () => void this.moveToThread() : undefined,
    });
    this.loops.start();
  }

  /** Stops the loops of this thread and starts the dispatcher thread instead (once). */
  private async moveToThread(): Promise<void> {
    const loops = this.loops;
    if (!loops || this.moving) return;
    this.moving = true;
    await loops.stop();
    this.loops = undefined;
    if (!this.stopping) this.startThread();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    clearTimeout(this.restartTimer);
    await this.loops?.stop();
    const worker = this.worker;
    if (!worker) return;
    // The thread finishes its passes in flight and closes its connections; one that does not
    // within the bound is ended (its leases run out, and the next start takes over).
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      timer = setTimeout(resolve, THREAD_STOP_WAIT_MS);
      timer.unref();
    });
    worker.postMessage('stop' satisfies ToThread);
    await exited;
    clearTimeout(timer);
    await worker.terminate();
  }

  /** Fans out soon (now, or right after the pass running), and delivers what that gives. */
  wake(): void {
    if (this.loops) return this.loops.wake();
    // One message for the commits of one turn of the event loop.
    if (!this.worker || this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      this.worker?.postMessage('wake' satisfies ToThread);
    });
  }

  /** Announces the scheduled posts gone live, on whichever thread the loops run. */
  private wentLive(): void {
    if (this.loops) return this.loops.wentLive();
    this.worker?.postMessage('went-live' satisfies ToThread);
  }

  private startThread(): void {
    const data: ThreadData = {
      owner: this.owner,
      inFlight: this.inFlight.buffer,
    };
    // The thread's own V8 heap gets the young generation of the server's (src/common/heap.ts).
    const worker = new Worker(THREAD_ENTRY, {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.worker = worker;
    worker.on('message', (message: FromThread) => {
      if (message.type === 'count') this.count(message.outcome, message.n);
      else if (message.type === 'ready') this.restarts = 0;
      else if (message.type === 'failed') {
        this.logger.warn(`webhook dispatch paused: ${message.message}`);
      }
    });
    worker.on('error', (error) => {
      this.logger.warn(`webhook dispatch paused: ${error.message}`);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      if (this.stopping) return;
      // Started again after a wait; it looks for what is due when it starts.
      const wait = RESTART_MS[Math.min(this.restarts++, RESTART_MS.length - 1)];
      this.restartTimer = setTimeout(() => this.startThread(), wait);
      this.restartTimer.unref();
    });
  }
}
