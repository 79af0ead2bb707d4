import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import type { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryRounds, type CountAttempts } from './delivery-rounds.js';
import { FanOut } from './fan-out.js';
import { Subscriptions } from './messages.js';
import type { OutboxRepository } from './outbox.repository.js';
import type { RecordPayloads } from './record-payloads.js';
import type { ScheduleRepository } from './schedule.repository.js';
import type { SubscriptionsRepository } from './subscriptions.repository.js';
import type { Resolver } from './target-policy.js';
import { Loop } from './webhook-loop.js';

/** Delivery rounds per pass (delivery-rounds.ts: a round's deliveries are sent at once, per target). */
const DELIVERY_ROUNDS = 20;
/**
 * While the process answers requests, a delivery pass sends one round, and the next starts no
 * sooner than BUSY_PAUSE_FACTOR times as long as it took (within the bounds below): sending takes
 * at most a tenth of a busy process's time; what waits is sent once the requests stop.
 */
const BUSY_PAUSE_FACTOR = 9;
const BUSY_PAUSE_MIN_MS = 50;
const BUSY_PAUSE_MAX_MS = 2000;
/**
 * While the process answers other requests than the one whose commit woke it, a fan-out pass
 * is followed by the same pause, within these bounds: the commits of that time share the next
 * pass (its statements are the same for one entry as for a hundred), and a payload is rendered
 * at most this long after its change.
 */
const FANOUT_PAUSE_MIN_MS = 50;
const FANOUT_PAUSE_MAX_MS = 500;
const PRUNE_EVERY_MS = 3_600_000;
/** How long a stopping dispatcher waits for the passes in flight. */
const SHUTDOWN_WAIT_MS = 5_000;

/** What the loops work with: the webhook tables, the payloads, and what the process is doing. */
export interface DispatchDeps {
  config: AppConfig;
  outbox: OutboxRepository;
  schedule: ScheduleRepository;
  deliveries: DeliveriesRepository;
  subscriptions: SubscriptionsRepository;
  payloads: RecordPayloads;
  /** This process, as it holds leases. */
  owner: string;
  /** Counts stored attempts in the process's metrics. */
  count: CountAttempts;
  /** The HTTP requests the process is answering now (none in a process without a server). */
  inFlight: () => number;
  /** The resolver deliveries connect through, asked at each attempt. */
  resolve: Resolver;
  /** Called after a pass that found subscriptions (any state); the dispatcher may move the loops. */
  onSubscriptions?: () => void;
}

/**
 * The dispatcher's two loops, on whichever thread runs them (webhook-dispatcher.ts decides):
 * the fan-out runs right after each commit (so a payload shows its record as the change left it,
 * as far as possible), or soon after while other requests run (FANOUT_PAUSE_*, so that their
 * commits share a pass), the delivery after each fan-out and when a retry is due, yielding to
 * requests (BUSY_PAUSE_*).
 *
 * 1. **Fan-out** (fan-out.ts, one process at a time): scheduled posts gone live (when the clock
 *    says so, database/scheduled-publications.ts) and outbox entries become deliveries, one per
 *    subscription that wants each entry.
 * 2. **Delivery** (delivery-rounds.ts, every process): due deliveries are leased, sent in rounds
 *    and their outcomes stored; failures are tried again or mark their subscription failing.
 *
 * This file decides when each runs: passes, pauses for a busy process, pruning and stopping.
 */
export class DispatchLoops {
  private readonly logger = new Logger('Webhooks');
  /** Fan-out: after each commit, at once (commits meanwhile share the next pass), and every poll. */
  private readonly fanoutLoop = new Loop(() => this.fanOutPass());
  /** Delivery: after each fan-out and when a retry is due, yielding to requests. */
  private readonly deliveryLoop = new Loop(() => this.deliveryPass());
  private readonly fanOut: FanOut;
  private readonly rounds: DeliveryRounds;
  private lastPrune = 0;
  private failingLogged = false;

  constructor(private readonly deps: DispatchDeps) {
    const stopped = () => this.fanoutLoop.stopped;
    this.fanOut = new FanOut(deps.outbox, deps.schedule, deps.payloads, deps.owner, stopped);
    this.rounds = new DeliveryRounds({
      config: deps.config,
      deliveries: deps.deliveries,
      subscriptions: deps.subscriptions,
      count: deps.count,
      owner: deps.owner,
      resolve: deps.resolve,
      stopped,
      freed: () => this.deliveryLoop.wake(),
    });
  }

  /** Starts both loops on what earlier processes left (entries, dead holders' leases, retries). */
  start(): void {
    this.fanoutLoop.start();
    this.deliveryLoop.start();
    this.fanoutLoop.wake();
    this.deliveryLoop.wake();
  }

  /**
   * Stops both loops: the passes in flight finish if they can; one stuck on a database that no
   * longer answers is left behind, since its leases expire and another process takes over.
   */
  async stop(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      timer.unref();
    });
    await Promise.race([
      Promise.all([this.fanoutLoop.stop(), this.deliveryLoop.stop(), this.rounds.settled()]),
      waited,
    ]);
    clearTimeout(timer);
  }

  /** Fans out soon (now, or right after the pass running), and delivers what that gives. */
  wake(): void {
    this.fanoutLoop.wake();
  }

  /** Scheduled posts went live (the clock said so): announces them soon, then fans out. */
  wentLive(): void {
    this.fanOut.wentLive();
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
    const busy = this.deps.inFlight() > 1;
    let worked = false;
    const wait = await this.guarded(async () => {
      await this.fanOut.announceScheduled();
      const fanned = await this.fanOut.run(new Subscriptions(this.deps.subscriptions));
      worked = fanned.found;
      if (fanned.worked) this.deliveryLoop.wake();
      return fanned.more ? 0 : this.deps.config.webhooks.pollMs;
    });
    this.fanoutLoop.notBefore =
      busy && worked ? pauseAfter(started, FANOUT_PAUSE_MIN_MS, FANOUT_PAUSE_MAX_MS) : 0;
    return wait ?? this.deps.config.webhooks.pollMs;
  }

  /** Sends what is due; answers how long until the next is. */
  private async deliveryPass(): Promise<number> {
    const started = performance.now();
    const busy = this.deps.inFlight() > 0;
    let worked = false;
    const poll = this.deps.config.webhooks.pollMs;
    const subscriptions = new Subscriptions(this.deps.subscriptions);
    const wait = await this.guarded(async () => {
      const sent = await this.rounds.run(busy ? 1 : DELIVERY_ROUNDS, subscriptions);
      // The pass read them already: no statement more.
      if (this.deps.onSubscriptions && (await subscriptions.all()).length) {
        this.deps.onSubscriptions();
      }
      worked = sent.worked;
      if (sent.more) return 0;
      const due = await this.deps.deliveries.nextDue();
      let next = due === null ? poll : Math.max(0, Math.min(poll, due - Date.now()));
      // Due, and yet nothing was sent: it is leased by another process, or waits for an earlier
      // change of its record. The next poll looks again (instead of a pass every tick).
      if (next === 0 && !sent.worked) next = poll;
      await this.pruneNow();
      return next;
    });
    // Requests were waiting: the next pass leaves them nine times the time this one took.
    this.deliveryLoop.notBefore =
      busy && worked ? pauseAfter(started, BUSY_PAUSE_MIN_MS, BUSY_PAUSE_MAX_MS) : 0;
    return wait ?? poll;
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
    await this.deps.deliveries.prune(now - this.deps.config.webhooks.retentionMs);
  }
}

/** When the next pass may start after one that began at `started` in a busy process. */
function pauseAfter(started: number, min: number, max: number): number {
  const took = performance.now() - started;
  return Date.now() + Math.min(max, Math.max(min, took * BUSY_PAUSE_FACTOR));
}
