import type { AppConfig } from '../config/config.js';
import type { AttemptOutcome, DeliveriesRepository, DeliveryRow } from './deliveries.repository.js';
import { subscriptionFailure } from './failure-reasons.js';
import type { Subscriptions } from './messages.js';
import { send, type AttemptResult } from './sender.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';
import type { Resolver } from './target-policy.js';

/**
 * Deliveries claimed per round, all sent at once (over at most 16 connections per receiver,
 * sender.ts): a round's statements (find, claim, read, store) are shared by its deliveries.
 */
const DELIVERY_BATCH = 48;
const USER_AGENT = 'cal-events-api-webhooks/1.0 (Standard Webhooks)';

/** What an attempt came to once stored, for `cal_webhook_attempts_total`. */
export type AttemptOutcomeKind = 'delivered' | 'retry' | 'failed';
/** Counts `n` stored attempts of one outcome (in the process's metrics, from either thread). */
export type CountAttempts = (outcome: AttemptOutcomeKind, n: number) => void;

/** What a round needs of the dispatcher that runs it. */
export interface RoundsContext {
  config: AppConfig;
  deliveries: DeliveriesRepository;
  subscriptions: SubscriptionsRepository;
  count: CountAttempts;
  /** This process, as it holds the leases of the deliveries it claims. */
  owner: string;
  /** The resolver deliveries connect through, asked at each attempt. */
  resolve: Resolver;
  /** True once the process stops: no further round starts. */
  stopped: () => boolean;
}

/**
 * The dispatcher's sending (every process): a due delivery is leased by a conditional UPDATE (the
 * lease outlives the request's timeout), sent, and its outcome stored; only the earliest pending
 * delivery of a record per subscription is due, so a record's changes arrive in order. A process
 * that dies holding a lease loses nothing: the lease runs out and another sends it.
 *
 * Retries: timeouts, network errors, 408, 429 and 5xx are tried again after the waits of
 * WEBHOOK_RETRY_SCHEDULE; after the last, or at once for other answers (3xx included: no redirect
 * is followed), the delivery has failed and its subscription is marked failing with the reason,
 * until a delivery to it succeeds again. Administrators can replay a delivery.
 */
export class DeliveryRounds {
  constructor(private readonly ctx: RoundsContext) {}

  /**
   * Sends what is due, in up to `rounds` rounds. `worked`: something was sent; `more`: the last
   * round was full (more may be waiting).
   */
  async run(
    rounds: number,
    subscriptions: Subscriptions,
  ): Promise<{ worked: boolean; more: boolean }> {
    let worked = false;
    // The pass's reading of the subscriptions says which are active and where to send: one
    // statement per pass, not one per round.
    const byId = await subscriptions.byId();
    const active = [...byId.values()].filter((s) => s.active).map((s) => s.id);
    for (let round = 0; round < rounds && !this.ctx.stopped(); round++) {
      const ids = await this.ctx.deliveries.dueDeliveries(Date.now(), DELIVERY_BATCH, active);
      if (!ids.length) return { worked, more: false };
      const now = Date.now();
      // The lease outlives the longest request, so only a dead holder loses it.
      const lease = now + this.ctx.config.webhooks.timeoutMs + 5000;
      const claimed = await this.ctx.deliveries.claimDeliveries(ids, this.ctx.owner, now, lease);
      worked ||= claimed.length > 0;
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
    const { webhooks } = this.ctx.config;
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
        resolve: this.ctx.resolve,
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
      const retryIn = this.ctx.config.webhooks.retrySchedule[delivery.attempts];
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
      (await this.ctx.deliveries.finishAttempts(
        rows.map((r) => ({ id: r.delivery.id, ...r.outcome })),
        this.ctx.owner,
        finishedAt,
      )) === rows.length;
    let succeeded = new Set<number>();
    const stored = await this.ctx.deliveries.finishDelivered(delivered, this.ctx.owner, finishedAt);
    if (stored === delivered.length) {
      this.ctx.count('delivered', delivered.length);
      succeeded = reached;
    }
    if (retried.length && (await storedAll(retried))) {
      this.ctx.count('retry', retried.length);
    }
    const failed = new Map<number, { delivery: DeliveryRow; outcome: AttemptOutcome }>();
    if (given.length && (await storedAll(given))) {
      this.ctx.count('failed', given.length);
      for (const g of given) failed.set(g.delivery.subscriptionId, g);
    }
    for (const id of succeeded) {
      // Only a failing subscription has anything to clear: no statement otherwise.
      const subscription = subscriptions.get(id);
      if (subscription && subscription.failingSince !== null && !failed.has(id)) {
        await this.ctx.subscriptions.clearFailing(id);
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
      await this.ctx.subscriptions.markFailing(id, reason, finishedAt);
      const subscription = subscriptions.get(id);
      if (subscription) subscription.failingSince ??= finishedAt;
    }
  }
}
