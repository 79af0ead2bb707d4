import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { failureCode } from './failure-reasons.js';
import { addressAllowed, hostAllowed, systemResolver, type Resolver } from './target-policy.js';
import type { AllowedTargets } from '../config/webhooks.js';
import { startClientSpan } from '../tracing/spans.js';

/** The most of a receiver's answer that is read (then the connection is dropped). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface Message {
  /** `webhook-id`: the same for every attempt and replay of one message. */
  id: string;
  body: string;
  /** The secrets that sign it: the current one, and a rotated one during its grace period. */
  secrets: string[];
}

/** What one attempt came to. */
export interface AttemptResult {
  ok: boolean;
  /** Worth trying again later: a timeout, a network error, 408, 429 or 5xx. */
  retry: boolean;
  responseStatus: number | null;
  /** Why it failed, as a failure code (failure-reasons.ts), rendered in a reader's language later. */
  error: string | null;
  durationMs: number;
}

/**
 * The Standard Webhooks headers of `message` sent at `at`: one `v1,` signature per secret, the
 * base64 of HMAC-SHA256 over `id.timestamp.body` (what the `standardwebhooks` libraries verify,
 * test/webhooks/webhooks.e2e-spec.ts), by Node's crypto rather than the reference library's JavaScript
 * SHA-256: each create with three subscriptions signs six messages of a few KB.
 */
export function signedHeaders(message: Message, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${message.id}.${timestamp}.${message.body}`;
  const signature = message.secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`)
    .join(' ');
  return {
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
}

/**
 * The signing key of each secret, made once: given a key object, createHmac takes it as it is,
 * where a key given as bytes costs more than the HMAC of a message of a few KB. As many are
 * kept as there can be secrets in use (two for each of at most 100 subscriptions); a secret
 * rotated away falls out as new ones come.
 */
const keys = new Map<string, KeyObject>();
const MAX_KEYS = 256;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
    // The key is the base64 after `whsec_`.
    key = createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
    keys.set(secret, key);
  }
  return key;
}

class Refused extends Error {}

/**
 * Connections kept open between deliveries to one receiver (host and port), as a browser does:
 * a new TCP (and TLS) connection per message would cost more than the message. A connection is
 * made only to an address the policy allowed when it was opened (the look-up below), so a
 * reused one goes where that check said; one that broke or answered too much is destroyed.
 * As many are kept between rounds of deliveries as a round opens (a round of 48 to one receiver
 * uses all 16): fewer, and each round would close and open again the difference.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 16, maxFreeSockets: 16, timeout: 30_000 };
const agents = { http: new HttpAgent(AGENT_OPTIONS), https: new HttpsAgent(AGENT_OPTIONS) };

/**
 * The socket's DNS look-up: resolves `hostname` and refuses it (not worth a retry) when an
 * address it resolves to is not allowed, unless the host itself is trusted.
 */
function guardedLookup(resolveHost: Resolver, trusted: boolean, allowed: AllowedTargets) {
  return (
    hostname: string,
    opts: { all?: boolean; family?: number },
    callback: (...args: unknown[]) => void,
  ) => {
    resolveHost(hostname).then(
      (addresses) => {
        const list = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family && (!opts.family || a.family === opts.family));
        const bad = trusted ? undefined : list.find((a) => !addressAllowed(a.address, allowed));
        if (bad) return callback(new Refused(failureCode('forbidden-address', bad.address)));
        if (!list.length) return callback(new Error(failureCode('unresolved', hostname)));
        if (opts.all) return callback(null, list);
        callback(null, list[0].address, list[0].family);
      },
      // A name that does not resolve now may later: worth a retry, unlike a refused address.
      () => callback(new Error(failureCode('unresolved', hostname))),
    );
  };
}

/** Reads an answer up to MAX_RESPONSE_BYTES (then drops the connection) and calls `done` once it ends. */
function readBounded(res: IncomingMessage, done: () => void): void {
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > MAX_RESPONSE_BYTES) res.destroy();
  });
  res.on('end', done);
  res.on('close', done);
  res.on('error', done);
}

/**
 * POSTs one message to `url`. The connection goes only to an address the target policy allows,
 * checked after DNS resolution in the socket's own look-up (so the address checked is the one
 * connected to); redirects are not followed (a 3xx is a failure); the whole attempt is bounded
 * by `timeoutMs` and the answer read is bounded by MAX_RESPONSE_BYTES. Errors carry no header
 * or secret.
 */
export function send(
  url: string,
  message: Message,
  options: {
    allowed: AllowedTargets;
    timeoutMs: number;
    userAgent: string;
    resolve?: Resolver;
    /** What the attempt's span links to and says of itself (tracing on). */
    trace?: { traceparent: string | null; attributes: Record<string, string | number> };
  },
): Promise<AttemptResult> {
  const resolveHost = options.resolve ?? systemResolver;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const trusted = hostAllowed(host, options.allowed);
  const result = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
    ...r,
    durationMs: elapsed(),
  });
  if (isIP(host) && !trusted && !addressAllowed(host, options.allowed)) {
    const error = failureCode('forbidden-address', host);
    return Promise.resolve(result({ ok: false, retry: false, responseStatus: null, error }));
  }
  const lookup = guardedLookup(resolveHost, trusted, options.allowed);

  // With tracing on, the attempt is a client span whose `traceparent` goes with it, linked to
  // the trace of the write the message announces.
  const span = startClientSpan('POST', target, options.trace);
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      span?.end(r.responseStatus, r.error);
      resolve(result(r));
    };
    const body = Buffer.from(message.body);
    const requestFn = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = requestFn(
      target,
      {
        method: 'POST',
        agent: target.protocol === 'https:' ? agents.https : agents.http,
        lookup: lookup as never,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': options.userAgent,
          ...span?.headers,
          ...signedHeaders(message, new Date()),
        },
      },
      (res: IncomingMessage) => readBounded(res, () => finish(outcomeOf(res.statusCode ?? 0))),
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ ok: false, retry: true, responseStatus: null, error: failureCode('timeout') });
    }, options.timeoutMs);
    req.on('error', (error: Error & { code?: string }) => {
      const refused = error instanceof Refused;
      const code = refused || error.message.startsWith('unresolved:') ? error.message : null;
      finish({
        ok: false,
        retry: !refused,
        responseStatus: null,
        error: code ?? failureCode('network', (error.code ?? 'error').slice(0, 60)),
      });
    });
    req.end(body);
  });
}

function outcomeOf(status: number): Omit<AttemptResult, 'durationMs'> {
  if (status >= 200 && status < 300) {
    return { ok: true, retry: false, responseStatus: status, error: null };
  }
  const retry = status === 408 || status === 429 || status >= 500;
  const error = failureCode(status >= 300 && status < 400 ? 'redirect' : 'status', String(status));
  return { ok: false, retry, responseStatus: status, error };
}
