import { parseAllowedTargets, type AllowedTargets } from './target-policy.js';

/** The webhook settings (CONTRACT §1), read once with the rest of the configuration. */
export interface WebhookConfig {
  /** WEBHOOK_ALLOWED_TARGETS: hosts, addresses and ranges deliveries may reach inside networks. */
  allowedTargets: AllowedTargets;
  /**
   * WEBHOOK_RETRY_SCHEDULE: the waits before each retry of a failed delivery; after the last one
   * the delivery has failed. The default spans more than a day (27 h 35 min).
   */
  retrySchedule: number[];
  /** WEBHOOK_TIMEOUT: the longest a delivery's request may take, connection included. */
  timeoutMs: number;
  /** WEBHOOK_SECRET_GRACE: how long a rotated secret keeps signing beside the new one. */
  secretGraceMs: number;
  /** WEBHOOK_LOG_RETENTION: finished deliveries and dispatched outbox entries are kept this long. */
  retentionMs: number;
  /** WEBHOOK_POLL: how often each process looks for work that other processes committed. */
  pollMs: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** A setting that cannot be used: the variable and why (ConfigError's two parts). */
export class WebhookConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`${variable} ${reason}`);
  }
}

function duration(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const match = DURATION.exec(raw.trim());
  const ms = match ? Number(match[1]) * UNITS[match[2]] : NaN;
  if (!(ms >= min)) {
    throw new WebhookConfigError(
      name,
      `must be a duration of at least ${min} ms such as 30s, 10m, 2h or 500ms, got "${raw}"`,
    );
  }
  return ms;
}

const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

export function parseWebhookConfig(env: Record<string, string | undefined>): WebhookConfig {
  let allowedTargets: AllowedTargets;
  try {
    allowedTargets = parseAllowedTargets(env.WEBHOOK_ALLOWED_TARGETS);
  } catch (error) {
    throw new WebhookConfigError('WEBHOOK_ALLOWED_TARGETS', (error as Error).message);
  }
  const schedule = (env.WEBHOOK_RETRY_SCHEDULE?.trim() || DEFAULT_RETRY_SCHEDULE).split(',');
  if (schedule.length > 30) {
    throw new WebhookConfigError('WEBHOOK_RETRY_SCHEDULE', 'lists more than 30 waits');
  }
  return {
    allowedTargets,
    retrySchedule: schedule.map((part) => duration('WEBHOOK_RETRY_SCHEDULE', part, 0)),
    timeoutMs: Math.min(duration('WEBHOOK_TIMEOUT', env.WEBHOOK_TIMEOUT, 10_000, 100), 120_000),
    secretGraceMs: duration('WEBHOOK_SECRET_GRACE', env.WEBHOOK_SECRET_GRACE, 86_400_000),
    retentionMs: duration('WEBHOOK_LOG_RETENTION', env.WEBHOOK_LOG_RETENTION, 30 * 86_400_000),
    pollMs: duration('WEBHOOK_POLL', env.WEBHOOK_POLL, 1000, 10),
  };
}
