import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import type { AttemptOutcome, DeliveriesRepository, DeliveryRow } from './deliveries.repository.js';
import { subscriptionFailure } from './failure-reasons.js';
import type { Subscriptions } from './messages.js';
import { send, type AttemptResult } from './sender.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';
import type { Resolver } from './target-policy.js';

/**
 * Deliveries claimed per round at most: a round's statements (find, claim) are shared by its
 * deliveries.
 */
const DELIVERY_BATCH = 48;
/**
 * Attempts in flight to one target (a receiver's origin: scheme, host and port) at most, as many
 * as sender.ts keeps connections to it: a receiver that hangs holds these and no more.
 */
const PER_TARGET = 16;
/** Attempts in flight at most, all targets together. */
const IN_FLIGHT = 2 * DELIVERY_BATCH;
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
  /** Called when a target's attempts are stored and its slots free again. */
  freed: () => void;
}

/** The target a subscription's deliveries go to, whose slots they take. */
const targetOf = (subscription: SubscriptionRow | undefined): string => {
  if (!subscription) return '';
  try {
    return new URL(subscription.url).origin;
  } catch {
    return subscription.url;
  }
};

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
  private readonly logger = new Logger('Webhooks');
  /** Attempts in flight, by target. */
  private readonly slots = new Map<string, number>();
  private inFlight = 0;
  /** The targets' groups of attempts in flight, each stored when its last attempt ends. */
  private readonly groups = new Set<Promise<void>>();

  constructor(private readonly ctx: RoundsContext) {}

  /**
   * Claims what is due, in up to `rounds` rounds, and sends it without waiting for it: each
   * target's attempts of a round are a group, stored once they have all ended, and take the
   * target's slots meanwhile (PER_TARGET). A target whose slots are all taken (a receiver that
   * hangs until WEBHOOK_TIMEOUT) is left out of the next looks, so that its deliveries wait for
   * it and the others' do not. `worked`: something was claimed; `more`: the last round was full
   * (more may be waiting).
   */
  async run(
    rounds: number,
    subscriptions: Subscriptions,
  ): Promise<{ worked: boolean; more: boolean }> {
    let worked = false;
    // The pass's reading of the subscriptions says which are active and where to send: one
    // statement per pass, not one per round.
    const byId = await subscriptions.byId();
    for (let round = 0; round < rounds && !this.ctx.stopped(); round++) {
      const room = Math.min(DELIVERY_BATCH, IN_FLIGHT - this.inFlight);
      const open = [...byId.values()]
        .filter((s) => s.active && this.free(targetOf(s)) > 0)
        .map((s) => s.id);
      if (room <= 0 || !open.length) return { worked, more: false };
      const due = await this.ctx.deliveries.dueDeliveries(Date.now(), room, open);
      // Each target takes at most its free slots; the rest waits for the next look.
      const taken = new Map<string, number>();
      const ids = due
        .filter(({ subscriptionId }) => {
          const target = targetOf(byId.get(subscriptionId));
          const n = taken.get(target) ?? 0;
          if (n >= this.free(target)) return false;
          taken.set(target, n + 1);
          return true;
        })
        .map((d) => d.id);
      if (!ids.length) return { worked, more: false };
      const now = Date.now();
      // The lease outlives the longest request, so only a dead holder loses it.
      const lease = now + this.ctx.config.webhooks.timeoutMs + 5000;
      const claimed = await this.ctx.deliveries.claimDeliveries(ids, this.ctx.owner, now, lease);
      worked ||= claimed.length > 0;
      const byTarget = new Map<string, DeliveryRow[]>();
      for (const delivery of claimed) {
        const target = targetOf(byId.get(delivery.subscriptionId));
        byTarget.set(target, [...(byTarget.get(target) ?? []), delivery]);
      }
      for (const [target, group] of byTarget) this.send(target, group, byId);
      if (due.length < room) return { worked, more: false };
    }
    return { worked, more: worked };
  }

  /** Resolves once every attempt in flight has ended and been stored. */
  async settled(): Promise<void> {
    while (this.groups.size) await Promise.all(this.groups);
  }

  private free(target: string): number {
    return PER_TARGET - (this.slots.get(target) ?? 0);
  }

  /** Sends `target`'s group of a round, then stores what it came to and frees its slots. */
  private send(
    target: string,
    group: DeliveryRow[],
    byId: ReadonlyMap<number, SubscriptionRow>,
  ): void {
    this.slots.set(target, (this.slots.get(target) ?? 0) + group.length);
    this.inFlight += group.length;
    const work = Promise.all(group.map((d) => this.attempt(d, byId.get(d.subscriptionId))))
      .then((outcomes) => this.store(group, outcomes, byId))
      // The database away: the leases run out and the deliveries are sent again.
      .catch((error: unknown) =>
        this.logger.warn(`webhook attempts not stored: ${(error as Error).message}`),
      )
      .finally(() => {
        const left = (this.slots.get(target) ?? 0) - group.length;
        if (left > 0) this.slots.set(target, left);
        else this.slots.delete(target);
        this.inFlight -= group.length;
        this.groups.delete(work);
        this.ctx.freed();
      });
    this.groups.add(work);
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
   * Stores what a target's attempts of a round came to, one statement per kind of outcome (delivered, to be
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
