/**
 * Why a delivery failed, stored as a code and put into words when read, in the reader's
 * language (`webhooks.failure.<code>` in i18n/<lang>/webhooks.json). A delivery's code is
 * `<code>` or `<code>:<detail>`:
 *
 * - `timeout`: no answer within WEBHOOK_TIMEOUT;
 * - `network:<error code>`: the connection failed or broke (`ECONNREFUSED`, `ECONNRESET`, ...);
 * - `unresolved:<host>`: the host name did not resolve;
 * - `forbidden-address:<address>`: the target policy refused the address connected to;
 * - `status:<HTTP status>`: the receiver answered with an error;
 * - `redirect:<HTTP status>`: the receiver answered with a redirect, which is not followed.
 *
 * A subscription marked failing keeps the failed delivery, its event type, its attempts and
 * its code, as JSON (`subscriptionFailure`).
 */
const CODES = ['timeout', 'network', 'unresolved', 'forbidden-address', 'status', 'redirect'];
type FailureKind = (typeof CODES)[number];

/** Translates `webhooks.failure.<key>` with `args` in the reader's language. */
export type Translate = (key: string, args?: Record<string, unknown>) => string;

/** A delivery's failure code. */
export function failureCode(kind: FailureKind, detail?: string): string {
  return detail === undefined ? kind : `${kind}:${detail}`;
}

/**
 * The sentence for a delivery's failure code; null for none. A text stored before codes were
 * (free text, not a known code) is answered as it is.
 */
export function failureText(code: string | null, translate: Translate): string | null {
  if (code === null) return null;
  const colon = code.indexOf(':');
  const kind = colon < 0 ? code : code.slice(0, colon);
  if (!CODES.includes(kind)) return code;
  const detail = colon < 0 ? '' : code.slice(colon + 1);
  return translate(`webhooks.failure.${kind.replace('-', '_')}`, { detail });
}

interface SubscriptionFailure {
  delivery: number;
  type: string;
  attempts: number;
  error: string | null;
}

/** What the subscription stores when a delivery to it failed for good. */
export function subscriptionFailure(failure: SubscriptionFailure): string {
  return JSON.stringify(failure);
}

/** The sentence for what `subscriptionFailure` stored; null for none; older free text as it is. */
export function subscriptionFailureText(stored: string | null, translate: Translate) {
  if (stored === null) return null;
  let failure: SubscriptionFailure;
  try {
    failure = JSON.parse(stored) as SubscriptionFailure;
  } catch {
    return stored;
  }
  if (typeof failure?.delivery !== 'number') return stored;
  return translate('webhooks.failure.subscription', {
    delivery: failure.delivery,
    type: failure.type,
    // The count picks the plural form: "after 1 attempt", "după 20 de încercări".
    count: failure.attempts,
    reason: failureText(failure.error, translate) ?? '',
  });
}
