import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { Actor } from '../common/actor.js';
import { ApiError, forbidden, invalidParams, t } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig, type Language } from '../config/config.js';
import type { CreateWebhookDto, ListDeliveriesQuery, UpdateWebhookDto } from './dto/webhook.dto.js';
import { failureText, subscriptionFailureText, type Translate } from './failure-reasons.js';
import { checkTarget, type Resolver, systemResolver } from './target-policy.js';
import { DeliveriesRepository, type DeliveryRow } from './deliveries.repository.js';
import {
  SubscriptionsRepository,
  type SubscriptionFields,
  type SubscriptionRow,
} from './subscriptions.repository.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

/** Subscriptions a site may have: each change costs one delivery per subscription. */
const MAX_SUBSCRIPTIONS = 100;

/** A subscription as the API answers it; `secret` only on create and rotation. */
export interface WebhookView {
  id: number;
  url: string;
  events: string[];
  language: string | null;
  include_private: boolean;
  active: boolean;
  /** `active`, `paused` (not active) or `failing` (a delivery failed for good; see the reason). */
  status: 'active' | 'paused' | 'failing';
  failing_since: string | null;
  failure_reason: string | null;
  created: string;
  modified: string;
  secret?: string;
  /** Until when the previous secret still signs, after a rotation. */
  previous_secret_expires?: string;
}

export interface DeliveryView {
  id: number;
  webhook_id: number;
  message_id: string;
  type: string;
  kind: string;
  record_id: number;
  status: string;
  attempts: number;
  response_status: number | null;
  /** Why the last attempt failed, as a failure code (failure-reasons.ts). */
  error: string | null;
  /** The same in words, in the request's language. */
  failure_reason: string | null;
  duration_ms: number | null;
  created: string;
  next_attempt: string | null;
  finished: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const notFound = () => new ApiError('webhook-not-found', 404);

/**
 * Subscriptions and their delivery log, for administrators only (everyone else: 401/403 after
 * validation, as every route). A target is checked by the target policy when it is written;
 * deliveries check it again where they connect (sender.ts).
 */
@Injectable()
export class WebhooksService {
  /** Replaced in tests that must not depend on the machine's DNS. */
  resolver: Resolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly deliveryLog: DeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly i18n: I18nService,
  ) {}

  async create(dto: CreateWebhookDto, actor: Actor, lang: Language): Promise<WebhookView> {
    this.authorize(actor);
    const fields: SubscriptionFields = {
      url: dto.url,
      events: [...new Set(dto.events)],
      language: dto.language || null,
      includePrivate: dto.include_private ?? false,
      active: dto.active ?? true,
    };
    await this.checkUrl(fields.url);
    if ((await this.subscriptions.countSubscriptions()) >= MAX_SUBSCRIPTIONS) {
      throw invalidParams({ url: t('webhooks.reason.too_many', { max: MAX_SUBSCRIPTIONS }) });
    }
    const secret = newSecret();
    const id = await this.subscriptions.createSubscription(fields, secret, Date.now());
    return { ...this.view((await this.subscriptions.findSubscription(id))!, lang), secret };
  }

  async list(actor: Actor, lang: Language): Promise<{ webhooks: WebhookView[]; total: number }> {
    this.authorize(actor);
    const webhooks = (await this.subscriptions.listSubscriptions()).map((w) => this.view(w, lang));
    return { webhooks, total: webhooks.length };
  }

  async get(id: number, actor: Actor, lang: Language): Promise<WebhookView> {
    this.authorize(actor);
    return this.view(await this.mustFind(id), lang);
  }

  async update(
    id: number,
    dto: UpdateWebhookDto,
    actor: Actor,
    lang: Language,
  ): Promise<WebhookView> {
    this.authorize(actor);
    const current = await this.mustFind(id);
    const fields: SubscriptionFields = {
      url: dto.url ?? current.url,
      events: dto.events ? [...new Set(dto.events)] : current.events,
      language: dto.language === undefined ? current.language : dto.language || null,
      includePrivate: dto.include_private ?? current.includePrivate,
      active: dto.active ?? current.active,
    };
    if (dto.url !== undefined) await this.checkUrl(fields.url);
    await this.subscriptions.updateSubscription(id, fields, Date.now());
    // A subscription made active again may have deliveries waiting.
    this.dispatcher.wake();
    return this.view((await this.subscriptions.findSubscription(id)) ?? current, lang);
  }

  async remove(id: number, actor: Actor, lang: Language): Promise<WebhookView> {
    this.authorize(actor);
    const current = await this.mustFind(id);
    await this.subscriptions.deleteSubscription(id);
    return this.view(current, lang);
  }

  /** A new secret; the previous one signs beside it for WEBHOOK_SECRET_GRACE. */
  async rotateSecret(id: number, actor: Actor, lang: Language): Promise<WebhookView> {
    this.authorize(actor);
    await this.mustFind(id);
    const now = Date.now();
    const secret = newSecret();
    const until = now + this.config.webhooks.secretGraceMs;
    await this.subscriptions.rotateSecret(id, secret, until, now);
    return {
      ...this.view((await this.subscriptions.findSubscription(id))!, lang),
      secret,
      previous_secret_expires: new Date(until).toISOString(),
    };
  }

  async deliveries(id: number, query: ListDeliveriesQuery, actor: Actor, lang: Language) {
    this.authorize(actor);
    await this.mustFind(id);
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { rows, total } = await this.deliveryLog.listDeliveries(
      id,
      perPage,
      (page - 1) * perPage,
    );
    return {
      deliveries: rows.map((d) => this.deliveryView(d, lang)),
      total,
      total_pages: Math.ceil(total / perPage),
    };
  }

  /** Sends a delivery's message again (same `webhook-id` and body) as a new delivery. */
  async replay(
    id: number,
    deliveryId: number,
    actor: Actor,
    lang: Language,
  ): Promise<DeliveryView> {
    this.authorize(actor);
    await this.mustFind(id);
    const delivery = await this.deliveryLog.findDelivery(id, deliveryId);
    if (!delivery) throw new ApiError('webhook-delivery-not-found', 404);
    const replayId = await this.deliveryLog.replay(delivery, Date.now());
    // Pruned between the read and the copy: as if it had been gone at the read.
    if (!replayId) throw new ApiError('webhook-delivery-not-found', 404);
    this.dispatcher.wake();
    return this.deliveryView((await this.deliveryLog.findDeliveryLog(replayId))!, lang);
  }

  /** Administrators only (CONTRACT §2: 401 without credentials, 403 with a lesser role). */
  private authorize(actor: Actor): void {
    if (actor.user?.role !== 'administrator') throw forbidden(!!actor.user);
  }

  private async mustFind(id: number): Promise<SubscriptionRow> {
    const found = await this.subscriptions.findSubscription(id);
    if (!found) throw notFound();
    return found;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await checkTarget(url, this.config.webhooks.allowedTargets, this.resolver);
    if (problem) throw invalidParams({ url: t(problem.key, problem.args) });
  }

  private view(row: SubscriptionRow, lang: Language): WebhookView {
    return {
      id: row.id,
      url: row.url,
      events: row.events,
      language: row.language,
      include_private: row.includePrivate,
      active: row.active,
      status: !row.active ? 'paused' : row.failingSince !== null ? 'failing' : 'active',
      failing_since: iso(row.failingSince),
      failure_reason: subscriptionFailureText(row.failureReason, this.translate(lang)),
      created: iso(row.createdAt)!,
      modified: iso(row.modifiedAt)!,
    };
  }

  private deliveryView(row: DeliveryRow, lang: Language): DeliveryView {
    const colon = row.recordKey.indexOf(':');
    return {
      id: row.id,
      webhook_id: row.subscriptionId,
      message_id: row.messageId,
      type: row.type,
      kind: row.recordKey.slice(0, colon),
      record_id: Number(row.recordKey.slice(colon + 1)),
      status: row.status,
      attempts: row.attempts,
      response_status: row.responseStatus,
      error: row.error,
      failure_reason: failureText(row.error, this.translate(lang)),
      duration_ms: row.durationMs,
      created: iso(row.createdAt)!,
      next_attempt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
      finished: iso(row.finishedAt),
    };
  }

  /** Translates into `lang` (the request's language). */
  private translate(lang: Language): Translate {
    return (key, args) => this.i18n.translate(key, { lang, args, defaultValue: key });
  }
}
