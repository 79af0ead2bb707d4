import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Counter } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { nowUtcSql } from '../database/columns.js';
import { Writes } from '../database/writes.js';
import { Metrics } from '../metrics/metrics.js';
import { subscriptionFailure } from './failure-reasons.js';
import { eventTypeOf, isPublicChange, wants } from './event-types.js';
import { RecordPayloads, type Audience } from './record-payloads.js';
import { send, type AttemptResult } from './sender.js';
import { systemResolver, type Resolver } from './target-policy.js';
import {
  WebhooksRepository,
  type DeliveryRow,
  type NewDelivery,
  type OutboxRow,
  type SubscriptionRow,
} from './webhooks.repository.js';

/** Outbox entries fanned out per batch, and batches per pass (the rest waits for the next). */
const FANOUT_BATCH = 100;
const FANOUT_BATCHES = 10;
/** Deliveries claimed per round, all sent at once. */
const DELIVERY_BATCH = 16;
const DELIVERY_ROUNDS = 20;
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
 * for the commits of others (other workers, servers, the CLI).
 *
 * 1. **Fan-out** (one process at a time, by the `fanout` row of `webhook_leases`): each outbox
 *    entry becomes one delivery per subscription that wants it (event type, language, public or
 *    private), with its body rendered once per audience; the entries are marked dispatched in the
 *    same transaction as their deliveries are written, only if no one else marked them first.
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
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private lastPrune = 0;
  private failingLogged = false;
  private readonly attempts: Counter<'outcome'>;
  /** The resolver deliveries connect through (replaced in tests to stand for a DNS answer). */
  resolver: Resolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writes: Writes,
    private readonly repository: WebhooksRepository,
    private readonly payloads: RecordPayloads,
    metrics: Metrics,
  ) {
    this.attempts = metrics.counter(
      'cal_webhook_attempts_total',
      'Webhook delivery attempts, by outcome: delivered, retry (failed, tried again later) or failed (for good).',
      ['outcome'],
    );
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.unsubscribe = this.writes.onCommit(() => this.wake());
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    // The pass in flight finishes if it can; one stuck on a database that no longer answers is
    // left behind, since its leases expire and another process (or the next start) takes over.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      timer.unref();
    });
    await Promise.race([this.running, waited]);
    clearTimeout(timer);
  }

  /** Calls `listener` after every attempt; returns the unsubscribe function. */
  onAttempt(listener: AttemptListener): () => void {
    this.attemptListeners.add(listener);
    return () => this.attemptListeners.delete(listener);
  }

  /** Runs a pass soon (now, or right after the one running). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        setImmediate(() => this.wake());
      }
    });
  }

  private async pass(): Promise<void> {
    let wait = this.config.webhooks.pollMs;
    try {
      await this.announceScheduled();
      await this.fanOut();
      const more = await this.deliverDue();
      if (more) wait = 0;
      else {
        const next = await this.repository.nextDue();
        if (next !== null) wait = Math.max(0, Math.min(wait, next - Date.now()));
      }
      await this.pruneNow();
      this.failingLogged = false;
    } catch (error) {
      // The database is away or busy: try again at the next poll, and say so once.
      if (!this.failingLogged) {
        this.logger.warn(`webhook dispatch paused: ${(error as Error).message}`);
        this.failingLogged = true;
      }
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => this.wake(), wait);
      this.timer.unref();
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
    for (let batch = 0; batch < FANOUT_BATCHES && !this.stopped; batch++) {
      const due = await this.repository.dueScheduled(nowUtcSql(), FANOUT_BATCH);
      if (!due.length) return;
      await this.repository.announceScheduled(due);
      if (due.length < FANOUT_BATCH) return;
    }
  }

  // ------------------------------------------------------------------------------ fan-out

  private async fanOut(): Promise<void> {
    for (let batch = 0; batch < FANOUT_BATCHES && !this.stopped; batch++) {
      const now = Date.now();
      // A cheap look first: most passes find nothing, and need no lease for it.
      const entries = await this.repository.pendingOutbox(FANOUT_BATCH);
      if (!entries.length) return;
      if (!(await this.repository.takeLease('fanout', this.owner, now, now + FANOUT_LEASE_MS))) {
        return;
      }
      try {
        // Read again under the lease: the previous holder may have dispatched them.
        const leased = await this.repository.pendingOutbox(FANOUT_BATCH);
        const subscriptions = (await this.repository.listSubscriptions()).filter((s) => s.active);
        const deliveries = await this.deliveriesOf(leased, subscriptions);
        await this.repository.dispatch(
          leased.map((e) => e.id),
          deliveries,
          Date.now(),
        );
        if (leased.length < FANOUT_BATCH) return;
      } finally {
        await this.repository.releaseLease('fanout', this.owner);
      }
    }
  }

  private async deliveriesOf(
    entries: OutboxRow[],
    subscriptions: SubscriptionRow[],
  ): Promise<NewDelivery[]> {
    const deliveries: NewDelivery[] = [];
    if (!subscriptions.length) return deliveries;
    for (const entry of entries) {
      const type = eventTypeOf(entry);
      const language =
        entry.language ?? (await this.repository.languageOf(entry.kind, entry.recordId));
      const isPublic = isPublicChange(entry);
      const bodies = new Map<Audience, string>();
      for (const subscription of subscriptions) {
        if (!wants(subscription.events, type)) continue;
        if (subscription.language && subscription.language !== language) continue;
        const audience: Audience = subscription.includePrivate ? 'private' : 'public';
        if (audience === 'public' && !isPublic) continue;
        let body = bodies.get(audience);
        if (body === undefined) {
          body = await this.body(entry, type, language, audience);
          bodies.set(audience, body);
        }
        deliveries.push({
          subscriptionId: subscription.id,
          outboxId: entry.id,
          messageId: `msg_${randomUUID().replaceAll('-', '')}`,
          recordKey: `${entry.kind}:${entry.recordId}`,
          type,
          payload: body,
        });
      }
    }
    return deliveries;
  }

  /** The body of a message (CONTRACT "Webhooks"); `record` is absent when the reader may not read it. */
  private async body(
    entry: OutboxRow,
    type: string,
    language: string | null,
    audience: Audience,
  ): Promise<string> {
    const record =
      entry.action === 'deleted'
        ? undefined
        : await this.payloads.render(entry.kind, entry.recordId, language, audience);
    return JSON.stringify({
      type,
      timestamp: new Date(entry.createdAt).toISOString(),
      data: {
        id: entry.recordId,
        kind: entry.kind,
        language,
        ...(record === undefined ? {} : { record }),
      },
    });
  }

  // ----------------------------------------------------------------------------- delivery

  /** Sends what is due; true when a full batch was sent (more may be waiting). */
  private async deliverDue(): Promise<boolean> {
    const subscriptions = new Map<number, SubscriptionRow | null>();
    for (let round = 0; round < DELIVERY_ROUNDS && !this.stopped; round++) {
      const ids = await this.repository.dueDeliveries(Date.now(), DELIVERY_BATCH);
      if (!ids.length) return false;
      const now = Date.now();
      // The lease outlives the longest request, so only a dead holder loses it.
      const lease = now + this.config.webhooks.timeoutMs + 5000;
      const claimed = await this.repository.claimDeliveries(ids, this.owner, now, lease);
      for (const delivery of claimed) {
        if (!subscriptions.has(delivery.subscriptionId)) {
          const found = await this.repository.findSubscription(delivery.subscriptionId);
          subscriptions.set(delivery.subscriptionId, found);
        }
      }
      const outcomes = await Promise.all(
        claimed.map((delivery) => this.attempt(delivery, subscriptions)),
      );
      await this.store(claimed, outcomes, subscriptions);
      if (ids.length < DELIVERY_BATCH) return false;
    }
    return true;
  }

  /** Sends one claimed delivery; null when its subscription is gone. */
  private async attempt(
    delivery: DeliveryRow,
    subscriptions: Map<number, SubscriptionRow | null>,
  ): Promise<AttemptResult | null> {
    const { webhooks } = this.config;
    const subscription = subscriptions.get(delivery.subscriptionId);
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
      },
    );
  }

  /**
   * Stores what a round's attempts came to: the deliveries that succeeded in one statement, the
   * others one by one (their next attempt or their failure), then each subscription's state.
   */
  private async store(
    claimed: DeliveryRow[],
    outcomes: Array<AttemptResult | null>,
    subscriptions: Map<number, SubscriptionRow | null>,
  ): Promise<void> {
    const finishedAt = Date.now();
    const delivered: Array<{ id: number; responseStatus: number | null; durationMs: number }> = [];
    const succeeded = new Set<number>();
    const failed = new Map<number, { delivery: DeliveryRow; result: AttemptResult }>();
    for (const [i, delivery] of claimed.entries()) {
      const result = outcomes[i];
      if (!result) continue;
      if (result.ok) {
        delivered.push({
          id: delivery.id,
          responseStatus: result.responseStatus,
          durationMs: result.durationMs,
        });
        succeeded.add(delivery.subscriptionId);
        this.attempts.inc({ outcome: 'delivered' });
        continue;
      }
      const attempts = delivery.attempts + 1;
      const retryIn = this.config.webhooks.retrySchedule[attempts - 1];
      const status = result.retry && retryIn !== undefined ? 'pending' : 'failed';
      const stored = await this.repository.finishAttempt(
        delivery.id,
        this.owner,
        {
          status,
          nextAttemptAt: status === 'pending' ? finishedAt + retryIn : delivery.nextAttemptAt,
          responseStatus: result.responseStatus,
          error: result.error,
          durationMs: result.durationMs,
        },
        finishedAt,
      );
      if (!stored) continue;
      this.attempts.inc({ outcome: status === 'pending' ? 'retry' : status });
      if (status === 'failed') failed.set(delivery.subscriptionId, { delivery, result });
    }
    await this.repository.finishDelivered(delivered, this.owner, finishedAt);
    for (const id of succeeded) {
      // Only a failing subscription has anything to clear: no statement otherwise.
      const subscription = subscriptions.get(id);
      if (subscription && subscription.failingSince !== null && !failed.has(id)) {
        await this.repository.clearFailing(id);
        subscription.failingSince = null;
      }
    }
    for (const [id, { delivery, result }] of failed) {
      const reason = subscriptionFailure({
        delivery: delivery.id,
        type: delivery.type,
        attempts: delivery.attempts + 1,
        error: result.error,
      });
      await this.repository.markFailing(id, reason, finishedAt);
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
    await this.repository.prune(now - this.config.webhooks.retentionMs);
  }
}
