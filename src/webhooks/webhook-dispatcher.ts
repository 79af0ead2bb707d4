import { randomBytes, randomUUID } from 'node:crypto';
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
import type { Counter } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { nowUtcSql } from '../database/columns.js';
import { Writes, type RecordKind } from '../database/writes.js';
import { Metrics } from '../metrics/metrics.js';
import { untraced } from '../tracing/spans.js';
import { subscriptionFailure } from './failure-reasons.js';
import { eventTypeOf, isPublicChange, wants } from './event-types.js';
import { RecordPayloads, type Audience } from './record-payloads.js';
import { Subscriptions, bodyOf } from './messages.js';
import { send, type AttemptResult } from './sender.js';
import { systemResolver, type Resolver } from './target-policy.js';
import {
  DeliveriesRepository,
  type AttemptOutcome,
  type DeliveryRow,
} from './deliveries.repository.js';
import { OutboxRepository, type NewDelivery, type OutboxRow } from './outbox.repository.js';
import { ScheduleRepository } from './schedule.repository.js';
import { SubscriptionsRepository, type SubscriptionRow } from './subscriptions.repository.js';

/** Outbox entries fanned out per batch, and batches per pass (the rest waits for the next). */
const FANOUT_BATCH = 100;
const FANOUT_BATCHES = 10;
/**
 * Deliveries claimed per round, all sent at once (over at most 16 connections per receiver,
 * sender.ts), and rounds per pass: a round's statements (find, claim, read, store) are shared by
 * its deliveries.
 */
const DELIVERY_BATCH = 48;
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
/** How long the fan-out lease lasts when its holder dies mid-pass. */
const FANOUT_LEASE_MS = 30_000;
const PRUNE_EVERY_MS = 3_600_000;
/** How long a stopping process waits for the delivery pass in flight. */
const SHUTDOWN_WAIT_MS = 5_000;
const USER_AGENT = 'cal-events-api-webhooks/1.0 (Standard Webhooks)';

/** Published outcome of each attempt, for metrics and tests. */
export type AttemptListener = (subscriptionId: number, result: AttemptResult) => void;

/**
 * Delivers the outbox (webhook-outbox.ts) by the Standard Webhooks specification, in every server
 * process, off the write path: woken after each commit of this process and every WEBHOOK_POLL
 * for the commits of others (other workers, servers, the CLI). Two loops: the fan-out runs right
 * after each commit (so a payload shows its record as the change left it, as far as possible),
 * or soon after while other requests run (FANOUT_PAUSE_*, so that their commits share a pass),
 * the delivery after each fan-out and when a retry is due, yielding to requests (BUSY_PAUSE_*).
 *
 * 1. **Fan-out** (one process at a time, by the `fanout` row of `webhook_leases`): each outbox
 *    entry becomes one delivery per subscription that wants it (event type, language, public or
 *    private); a batch's records are rendered together, one presenter read per kind, audience
 *    and language, whatever the number of records, entries and subscriptions; the entries are marked dispatched in the same transaction as their deliveries
 *    are written, only if no one else marked them first.
 * 2. **Delivery** (every process): a due delivery is leased by a conditional UPDATE (the lease
 *    outlives the request's timeout), sent, and its outcome stored; only the earliest pending
 *    delivery of a record per subscription is due, so a record's changes arrive in order. A
 *    process that dies holding a lease loses nothing: the lease runs out and another sends it.
 * 3. **Retries**: timeouts, network errors, 408, 429 and 5xx are tried again after the waits of
 *    WEBHOOK_RETRY_SCHEDULE; after the last, or at once for other answers (3xx included: no
 *    redirect is followed), the delivery has failed and its subscription is marked failing with
 *    the reason, until a delivery to it succeeds again. Administrators can replay a delivery.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly owner = `${hostname().slice(0, 20)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly attemptListeners = new Set<AttemptListener>();
  private unsubscribe: (() => void) | undefined;
  /** Fan-out: after each commit, at once (commits meanwhile share the next pass), and every poll. */
  private readonly fanout = new Loop(() => this.fanOutPass());
  /** Delivery: after each fan-out and when a retry is due, yielding to requests. */
  private readonly delivery = new Loop(() => this.deliveryPass());
  /** The HTTP requests this process is answering (none in a process without a server). */
  private inFlight = 0;
  private lastPrune = 0;
  /** When the fan-out looks for scheduled posts gone live next. */
  private scheduledLookAt = 0;
  private failingLogged = false;
  private readonly attempts: Counter<'outcome'>;
  /** The resolver deliveries connect through (replaced in tests to stand for a DNS answer). */
  resolver: Resolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writes: Writes,
    private readonly outbox: OutboxRepository,
    private readonly schedule: ScheduleRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly subscriptionRows: SubscriptionsRepository,
    private readonly payloads: RecordPayloads,
    private readonly adapterHost: HttpAdapterHost,
    metrics: Metrics,
  ) {
    this.attempts = metrics.counter(
      'cal_webhook_attempts_total',
      'Webhook delivery attempts, by outcome: delivered, retry (failed, tried again later) or failed (for good).',
      ['outcome'],
    );
  }

  onApplicationBootstrap(): void {
    // Requests come first: a delivery pass tells from this count whether to yield to them.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as HttpServer | undefined;
    server?.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.inFlight++;
      res.once('close', () => this.inFlight--);
    });
    this.fanout.start();
    this.delivery.start();
    this.unsubscribe = this.writes.onCommit(() => this.wake());
    // What earlier processes left: entries to fan out, deliveries leased by a dead one, retries.
    this.fanout.wake();
    this.delivery.wake();
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
    await Promise.race([Promise.all([this.fanout.stop(), this.delivery.stop()]), waited]);
    clearTimeout(timer);
  }

  private get stopped(): boolean {
    return this.fanout.stopped;
  }

  /** Calls `listener` after every attempt; returns the unsubscribe function. */
  onAttempt(listener: AttemptListener): () => void {
    this.attemptListeners.add(listener);
    return () => this.attemptListeners.delete(listener);
  }

  /** Fans out soon (now, or right after the pass running), and delivers what that gives. */
  wake(): void {
    this.fanout.wake();
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
      await this.announceScheduled();
      const fanned = await this.fanOut(FANOUT_BATCHES, new Subscriptions(this.subscriptionRows));
      worked = fanned.found;
      if (fanned.worked) this.delivery.wake();
      return fanned.more ? 0 : this.config.webhooks.pollMs;
    });
    const took = performance.now() - started;
    this.fanout.notBefore =
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
      const sent = await this.deliverDue(
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
    this.delivery.notBefore =
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

  // ---------------------------------------------------------------------- scheduled posts

  /**
   * Scheduled posts whose date has passed become `published` outbox entries: nothing is written
   * when a post goes live by the clock, so the rows the writes left in `webhook_schedule` say
   * which. Each row is taken by a conditional DELETE in the transaction that adds the entry, so
   * one process announces it, whichever of several passes first.
   */
  private async announceScheduled(): Promise<void> {
    // The clock moves posts live, not the commits that wake most passes: one look per poll.
    if (Date.now() < this.scheduledLookAt) return;
    this.scheduledLookAt = Date.now() + this.config.webhooks.pollMs;
    for (let batch = 0; batch < FANOUT_BATCHES && !this.stopped; batch++) {
      const due = await this.schedule.dueScheduled(nowUtcSql(), FANOUT_BATCH);
      if (!due.length) return;
      await this.schedule.announceScheduled(due);
      if (due.length < FANOUT_BATCH) return;
    }
    // More are due than a pass takes: the next pass looks again.
    this.scheduledLookAt = 0;
  }

  // ------------------------------------------------------------------------------ fan-out

  /**
   * Turns up to `batches` batches of outbox entries into deliveries, under the fan-out lease
   * (renewed per batch, released at the end). `worked`: deliveries were written; `more`: a full
   * batch was the last; `found`: there were entries.
   */
  private async fanOut(
    batches: number,
    subscriptions: Subscriptions,
  ): Promise<{ worked: boolean; more: boolean; found: boolean }> {
    let leased = false;
    let worked = false;
    let found = false;
    try {
      for (let batch = 0; batch < batches && !this.stopped; batch++) {
        // A look first: most passes of an idle process find nothing, and need no lease for it.
        // The entries read before the lease was taken may be another holder's work of the
        // moment: dispatch() then writes nothing (it marks only what nobody marked), and the
        // next batch reads them again under the lease.
        const entries = await this.outbox.pendingOutbox(FANOUT_BATCH);
        if (!entries.length) return { worked, more: false, found };
        found = true;
        const now = Date.now();
        if (!(await this.outbox.takeLease('fanout', this.owner, now, now + FANOUT_LEASE_MS))) {
          return { worked, more: false, found };
        }
        leased = true;
        const active = (await subscriptions.all()).filter((s) => s.active);
        const deliveries = await this.deliveriesOf(entries, active);
        const written = await this.outbox.dispatch(
          entries.map((e) => e.id),
          deliveries,
          Date.now(),
        );
        worked ||= written && deliveries.length > 0;
        if (entries.length < FANOUT_BATCH) return { worked, more: false, found };
      }
      return { worked, more: leased, found };
    } finally {
      if (leased) await this.outbox.releaseLease('fanout', this.owner);
    }
  }

  private async deliveriesOf(
    entries: OutboxRow[],
    subscriptions: SubscriptionRow[],
  ): Promise<NewDelivery[]> {
    if (!subscriptions.length) return [];
    const languages = await this.outbox.languagesOf(entries.filter((e) => e.language === null));
    // Who hears of each entry, and as which reader: then the records each reader needs, rendered
    // per kind, language and reader in one read of the kind's presenter (whatever the number
    // of records, of their entries in the batch and of the subscriptions hearing of them).
    const plans = entries.map((entry) => {
      const type = eventTypeOf(entry);
      const language = entry.language ?? languages.get(`${entry.kind}:${entry.recordId}`) ?? null;
      const isPublic = isPublicChange(entry);
      const hearers: Array<{ subscription: SubscriptionRow; audience: Audience }> = [];
      for (const subscription of subscriptions) {
        if (!wants(subscription.events, type)) continue;
        if (subscription.language && subscription.language !== language) continue;
        const audience: Audience = subscription.includePrivate ? 'private' : 'public';
        if (audience === 'public' && !isPublic) continue;
        hearers.push({ subscription, audience });
      }
      return { entry, type, language, hearers };
    });
    const wanted = new Map<
      string,
      { kind: RecordKind; language: string | null; audience: Audience; ids: Set<number> }
    >();
    for (const { entry, language, hearers } of plans) {
      if (entry.action === 'deleted') continue;
      for (const { audience } of hearers) {
        const group = `${entry.kind}:${language}:${audience}`;
        let needs = wanted.get(group);
        if (!needs) {
          needs = { kind: entry.kind, language, audience, ids: new Set() };
          wanted.set(group, needs);
        }
        needs.ids.add(entry.recordId);
      }
    }
    const records = new Map<string, ReadonlyMap<number, string>>();
    for (const [group, { kind, language, audience, ids }] of wanted) {
      records.set(group, await this.payloads.renderJson(kind, [...ids], language, audience));
    }
    const deliveries: NewDelivery[] = [];
    for (const { entry, type, language, hearers } of plans) {
      const bodies = new Map<Audience, string>();
      for (const { subscription, audience } of hearers) {
        let body = bodies.get(audience);
        if (body === undefined) {
          const record =
            entry.action === 'deleted'
              ? undefined
              : records.get(`${entry.kind}:${language}:${audience}`)?.get(entry.recordId);
          body = bodyOf(entry, type, language, record);
          bodies.set(audience, body);
        }
        deliveries.push({
          subscriptionId: subscription.id,
          outboxId: entry.id,
          messageId: `msg_${randomUUID().replaceAll('-', '')}`,
          recordKey: `${entry.kind}:${entry.recordId}`,
          type,
          payload: body,
          traceparent: entry.traceparent,
        });
      }
    }
    return deliveries;
  }

  // ----------------------------------------------------------------------------- delivery

  /**
   * Sends what is due, in up to `rounds` rounds. `worked`: something was sent; `more`: the last
   * round was full (more may be waiting).
   */
  private async deliverDue(
    rounds: number,
    subscriptions: Subscriptions,
  ): Promise<{ worked: boolean; more: boolean }> {
    let worked = false;
    for (let round = 0; round < rounds && !this.stopped; round++) {
      const ids = await this.deliveries.dueDeliveries(Date.now(), DELIVERY_BATCH);
      if (!ids.length) return { worked, more: false };
      const now = Date.now();
      // The lease outlives the longest request, so only a dead holder loses it.
      const lease = now + this.config.webhooks.timeoutMs + 5000;
      const claimed = await this.deliveries.claimDeliveries(ids, this.owner, now, lease);
      worked ||= claimed.length > 0;
      const byId = await subscriptions.byId();
      const outcomes = await Promise.all(
        claimed.map((delivery) => this.attempt(delivery, byId.get(delivery.subscriptionId))),
      );
      await this.store(claimed, outcomes, byId);
      if (ids.length < DELIVERY_BATCH) return { worked, more: false };
    }
    return { worked, more: worked };
  }

  /** Sends one claimed delivery; null when its subscription is gone. */
  private async attempt(
    delivery: DeliveryRow,
    subscription: SubscriptionRow | undefined,
  ): Promise<AttemptResult | null> {
    const { webhooks } = this.config;
    if (!subscription) return null;
    const now = Date.now();
    const secrets = [subscription.secret];
    if (
      subscription.previousSecret &&
      subscription.previousSecretUntil !== null &&
      subscription.previousSecretUntil > now
    ) {
      secrets.push(subscription.previousSecret);
    }
    return send(
      subscription.url,
      { id: delivery.messageId, body: delivery.payload, secrets },
      {
        allowed: webhooks.allowedTargets,
        timeoutMs: webhooks.timeoutMs,
        userAgent: USER_AGENT,
        resolve: this.resolver,
        trace: {
          traceparent: delivery.traceparent,
          attributes: {
            'cal.webhook.delivery_id': delivery.id,
            'cal.webhook.attempt': delivery.attempts + 1,
          },
        },
      },
    );
  }

  /**
   * Stores what a round's attempts came to, one statement per kind of outcome (delivered, to be
   * tried again, failed), then each subscription's state. A kind whose rows were not all this
   * process's any more (it stalled past their lease, and another process took them over) is
   * left to that process: neither counted nor marked here.
   */
  private async store(
    claimed: DeliveryRow[],
    outcomes: Array<AttemptResult | null>,
    subscriptions: ReadonlyMap<number, SubscriptionRow>,
  ): Promise<void> {
    const finishedAt = Date.now();
    const delivered: Array<{ id: number; responseStatus: number | null; durationMs: number }> = [];
    const reached = new Set<number>();
    const retried: Array<{ delivery: DeliveryRow; outcome: AttemptOutcome }> = [];
    const given: Array<{ delivery: DeliveryRow; outcome: AttemptOutcome }> = [];
    for (const [i, delivery] of claimed.entries()) {
      const result = outcomes[i];
      if (!result) continue;
      if (result.ok) {
        delivered.push({
          id: delivery.id,
          responseStatus: result.responseStatus,
          durationMs: result.durationMs,
        });
        reached.add(delivery.subscriptionId);
        continue;
      }
      const retryIn = this.config.webhooks.retrySchedule[delivery.attempts];
      const again = result.retry && retryIn !== undefined;
      const outcome: AttemptOutcome = {
        status: again ? 'pending' : 'failed',
        nextAttemptAt: again ? finishedAt + retryIn : delivery.nextAttemptAt,
        responseStatus: result.responseStatus,
        error: result.error,
        durationMs: result.durationMs,
      };
      if (again) retried.push({ delivery, outcome });
      else given.push({ delivery, outcome });
    }
    const storedAll = async (
      rows: ReadonlyArray<{ delivery: DeliveryRow; outcome: AttemptOutcome }>,
    ) =>
      (await this.deliveries.finishAttempts(
        rows.map((r) => ({ id: r.delivery.id, ...r.outcome })),
        this.owner,
        finishedAt,
      )) === rows.length;
    let succeeded = new Set<number>();
    const stored = await this.deliveries.finishDelivered(delivered, this.owner, finishedAt);
    if (stored === delivered.length) {
      this.attempts.inc({ outcome: 'delivered' }, delivered.length);
      succeeded = reached;
    }
    if (retried.length && (await storedAll(retried))) {
      this.attempts.inc({ outcome: 'retry' }, retried.length);
    }
    const failed = new Map<number, { delivery: DeliveryRow; outcome: AttemptOutcome }>();
    if (given.length && (await storedAll(given))) {
      this.attempts.inc({ outcome: 'failed' }, given.length);
      for (const g of given) failed.set(g.delivery.subscriptionId, g);
    }
    for (const id of succeeded) {
      // Only a failing subscription has anything to clear: no statement otherwise.
      const subscription = subscriptions.get(id);
      if (subscription && subscription.failingSince !== null && !failed.has(id)) {
        await this.subscriptionRows.clearFailing(id);
        subscription.failingSince = null;
      }
    }
    for (const [id, { delivery, outcome }] of failed) {
      const reason = subscriptionFailure({
        delivery: delivery.id,
        type: delivery.type,
        attempts: delivery.attempts + 1,
        error: outcome.error,
      });
      await this.subscriptionRows.markFailing(id, reason, finishedAt);
      const subscription = subscriptions.get(id);
      if (subscription) subscription.failingSince ??= finishedAt;
    }
    for (const [i, delivery] of claimed.entries()) {
      const result = outcomes[i];
      if (!result) continue;
      for (const listener of this.attemptListeners) listener(delivery.subscriptionId, result);
    }
  }

  private async pruneNow(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.deliveries.prune(now - this.config.webhooks.retentionMs);
  }
}

/**
 * One of the dispatcher's loops: a pass at a time, woken to run now (or right after the pass
 * running) and planned again by what the pass answers (how long to wait), never before
 * `notBefore`. Each pass runs outside the trace of the request whose commit woke it: it works
 * for other writes too.
 */
class Loop {
  stopped = true;
  /** No pass starts before this (a busy process's pause). */
  notBefore = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly pass: () => Promise<number>) {}

  start(): void {
    this.stopped = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else if (this.notBefore <= Date.now()) {
      clearTimeout(this.timer);
      this.run();
    } else this.plan(this.notBefore);
  }

  /** Starts the next pass at `at`, unless one is planned sooner. */
  private plan(at: number): void {
    if (this.stopped || (this.timer && this.timerAt <= at)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.run(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private run(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.stopped || this.running) return;
    this.running = untraced(() => this.pass()).then((wait) => {
      this.running = undefined;
      const next = this.again ? 0 : wait;
      this.again = false;
      this.plan(Math.max(Date.now() + next, this.notBefore));
    });
  }
}
