import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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
import { Writes } from '../database/writes.js';
import { Metrics } from '../metrics/metrics.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryRounds, type AttemptListener } from './delivery-rounds.js';
import { FanOut } from './fan-out.js';
import { Subscriptions } from './messages.js';
import { OutboxRepository } from './outbox.repository.js';
import { RecordPayloads } from './record-payloads.js';
import { ScheduleRepository } from './schedule.repository.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { systemResolver, type Resolver } from './target-policy.js';
import { Loop } from './webhook-loop.js';

/** Delivery rounds per pass (delivery-rounds.ts: a round's deliveries are sent at once). */
const DELIVERY_ROUNDS = 20;
/**
 * While this process answers requests, a delivery pass sends one round, and the next starts no
 * sooner than BUSY_PAUSE_FACTOR times as long as it took (within the bounds below): sending takes
 * at most a tenth of a busy process's time and never slows the writes that caused it; what waits
 * is sent once the requests stop.
 */
const BUSY_PAUSE_FACTOR = 9;
const BUSY_PAUSE_MIN_MS = 50;
const BUSY_PAUSE_MAX_MS = 2000;
/**
 * While this process answers other requests than the one whose commit woke it, a fan-out pass
 * is followed by the same pause, within these bounds: the commits of that time share the next
 * pass (its statements are the same for one entry as for a hundred), and a payload is rendered
 * at most this long after its change.
 */
const FANOUT_PAUSE_MIN_MS = 50;
const FANOUT_PAUSE_MAX_MS = 500;
const PRUNE_EVERY_MS = 3_600_000;
/** How long a stopping process waits for the delivery pass in flight. */
const SHUTDOWN_WAIT_MS = 5_000;

/**
 * Delivers the outbox (webhook-outbox.ts) by the Standard Webhooks specification, in every server
 * process, off the write path: woken after each commit of this process and every WEBHOOK_POLL
 * for the commits of others (other workers, servers, the CLI). Two loops: the fan-out runs right
 * after each commit (so a payload shows its record as the change left it, as far as possible),
 * or soon after while other requests run (FANOUT_PAUSE_*, so that their commits share a pass),
 * the delivery after each fan-out and when a retry is due, yielding to requests (BUSY_PAUSE_*).
 *
 * 1. **Fan-out** (fan-out.ts, one process at a time): scheduled posts gone live and outbox
 *    entries become deliveries, one per subscription that wants each entry.
 * 2. **Delivery** (delivery-rounds.ts, every process): due deliveries are leased, sent in rounds
 *    and their outcomes stored; failures are tried again or mark their subscription failing.
 *
 * This file decides when each runs: passes, pauses for a busy process, pruning and shutdown.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly owner = `${hostname().slice(0, 20)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly attemptListeners = new Set<AttemptListener>();
  private unsubscribe: (() => void) | undefined;
  /** Fan-out: after each commit, at once (commits meanwhile share the next pass), and every poll. */
  private readonly fanoutLoop = new Loop(() => this.fanOutPass());
  /** Delivery: after each fan-out and when a retry is due, yielding to requests. */
  private readonly deliveryLoop = new Loop(() => this.deliveryPass());
  /** The HTTP requests this process is answering (none in a process without a server). */
  private inFlight = 0;
  private lastPrune = 0;
  private failingLogged = false;
  private readonly fanOut: FanOut;
  private readonly rounds: DeliveryRounds;
  /** The resolver deliveries connect through (replaced in tests to stand for a DNS answer). */
  resolver: Resolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writes: Writes,
    outbox: OutboxRepository,
    schedule: ScheduleRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly subscriptionRows: SubscriptionsRepository,
    payloads: RecordPayloads,
    private readonly adapterHost: HttpAdapterHost,
    metrics: Metrics,
  ) {
    const stopped = () => this.stopped;
    this.fanOut = new FanOut(config, outbox, schedule, payloads, this.owner, stopped);
    this.rounds = new DeliveryRounds({
      config,
      deliveries,
      subscriptions: subscriptionRows,
      metrics,
      owner: this.owner,
      listeners: this.attemptListeners,
      // Read at each attempt: tests replace `resolver` after the start.
      resolve: (host) => this.resolver(host),
      stopped,
    });
  }

  onApplicationBootstrap(): void {
    // Requests come first: a delivery pass tells from this count whether to yield to them.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as HttpServer | undefined;
    server?.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.inFlight++;
      res.once('close', () => this.inFlight--);
    });
    this.fanoutLoop.start();
    this.deliveryLoop.start();
    this.unsubscribe = this.writes.onCommit(() => this.wake());
    // What earlier processes left: entries to fan out, deliveries leased by a dead one, retries.
    this.fanoutLoop.wake();
    this.deliveryLoop.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    // The passes in flight finish if they can; one stuck on a database that no longer answers is
    // left behind, since its leases expire and another process (or the next start) takes over.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      timer.unref();
    });
    await Promise.race([Promise.all([this.fanoutLoop.stop(), this.deliveryLoop.stop()]), waited]);
    clearTimeout(timer);
  }

  private get stopped(): boolean {
    return this.fanoutLoop.stopped;
  }

  /** Calls `listener` after every attempt; returns the unsubscribe function. */
  onAttempt(listener: AttemptListener): () => void {
    this.attemptListeners.add(listener);
    return () => this.attemptListeners.delete(listener);
  }

  /** Fans out soon (now, or right after the pass running), and delivers what that gives. */
  wake(): void {
    this.fanoutLoop.wake();
  }

  /**
   * Announces the scheduled posts gone live and fans out the outbox: each record's payload is
   * rendered as soon as possible after its change, whatever the load (a message carries the
   * record as it is when the message is prepared). Then wakes the delivery.
   */
  private async fanOutPass(): Promise<number> {
    const started = performance.now();
    // The request whose commit woke this pass is still in flight: others make the process busy.
    const busy = this.inFlight > 1;
    let worked = false;
    const wait = await this.guarded(async () => {
      await this.fanOut.announceScheduled();
      const fanned = await this.fanOut.run(new Subscriptions(this.subscriptionRows));
      worked = fanned.found;
      if (fanned.worked) this.deliveryLoop.wake();
      return fanned.more ? 0 : this.config.webhooks.pollMs;
    });
    const took = performance.now() - started;
    this.fanoutLoop.notBefore =
      busy && worked
        ? Date.now() +
          Math.min(FANOUT_PAUSE_MAX_MS, Math.max(FANOUT_PAUSE_MIN_MS, took * BUSY_PAUSE_FACTOR))
        : 0;
    return wait ?? this.config.webhooks.pollMs;
  }

  /** Sends what is due; answers how long until the next is. */
  private async deliveryPass(): Promise<number> {
    const started = performance.now();
    const busy = this.inFlight > 0;
    let worked = false;
    const wait = await this.guarded(async () => {
      const sent = await this.rounds.run(
        busy ? 1 : DELIVERY_ROUNDS,
        new Subscriptions(this.subscriptionRows),
      );
      worked = sent.worked;
      const poll = this.config.webhooks.pollMs;
      if (sent.more) return 0;
      const due = await this.deliveries.nextDue();
      let next = due === null ? poll : Math.max(0, Math.min(poll, due - Date.now()));
      // Due, and yet nothing was sent: it is leased by another process, or waits for an earlier
      // change of its record. The next poll looks again (instead of a pass every tick).
      if (next === 0 && !sent.worked) next = poll;
      await this.pruneNow();
      return next;
    });
    // Requests were waiting: the next pass leaves them nine times the time this one took.
    const took = performance.now() - started;
    this.deliveryLoop.notBefore =
      busy && worked
        ? Date.now() +
          Math.min(BUSY_PAUSE_MAX_MS, Math.max(BUSY_PAUSE_MIN_MS, took * BUSY_PAUSE_FACTOR))
        : 0;
    return wait ?? this.config.webhooks.pollMs;
  }

  /** Runs `work`; when the database is away or busy, says so once and answers undefined. */
  private async guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await work();
      this.failingLogged = false;
      return result;
    } catch (error) {
      if (!this.failingLogged) {
        this.logger.warn(`webhook dispatch paused: ${(error as Error).message}`);
        this.failingLogged = true;
      }
      return undefined;
    }
  }
  private async pruneNow(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.deliveries.prune(now - this.config.webhooks.retentionMs);
  }
}
