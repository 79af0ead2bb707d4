import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig, type LoginThrottleConfig } from '../config/config.js';
import { Metrics } from '../metrics/metrics.js';
import { addressKey, loginKey } from './throttle-keys.js';
import {
  MAX_FAILURE_KEYS,
  MAX_TRUSTED_KEYS,
  MemoryThrottleStore,
  type Counter,
  type ThrottleStore,
} from './throttle-store.js';

/** Where counters and trust marks live; the in-memory stores unless a module provides others. */
export const THROTTLE_STORES = Symbol('THROTTLE_STORES');
export interface ThrottleStores {
  /** Failure counters. */
  failures: ThrottleStore;
  /** "This address authenticated as this login" marks (kept apart so failures cannot evict them). */
  trusted: ThrottleStore;
}
/** The throttle's clock (milliseconds since the epoch); tests provide a fake one. */
const THROTTLE_CLOCK = Symbol('THROTTLE_CLOCK');

/** A trust mark is renewed by a success at most this often, not on every request. */
const TRUST_REFRESH_MS = 86_400_000;

/**
 * The outcome of one login, reported by the guard after it has checked the password. Whatever
 * happens in between, exactly one of these is called (`abandon` when checking failed, e.g. the
 * database was unavailable).
 */
export interface LoginAttempt {
  failed(): Promise<void>;
  succeeded(): Promise<void>;
  abandon(): void;
}

/**
 * Slows down password guessing without letting a guesser lock others out (OWASP, "Blocking
 * brute force attacks"). Failed HTTP Basic logins are counted three ways, each in a fixed window:
 *
 * - per login and address: always applies, so one client guessing one account gets a few tries;
 * - per address, any login (password spraying): looser, and not for a login that has recently
 *   authenticated from that address;
 * - per login, any address (distributed guessing): not for an address that has recently
 *   authenticated as that login. This is OWASP's "device cookie", keyed on the address since
 *   HTTP Basic clients keep no cookies: the owner keeps working while strangers are slowed down.
 *
 * A login over a limit is answered 429 with `Retry-After` before its password is looked at, so
 * a blocked guesser costs no scrypt time. Successful logins are never counted. Addresses are
 * IPv4 addresses or IPv6 /64 networks; logins are normalized as WordPress compares them.
 * Counters live in a ThrottleStore (in memory, per process; a shared one can be provided under
 * THROTTLE_STORES). Distinct passwords still being verified in this process count as failures
 * for the per-address and per-login limits, so that a burst of parallel guesses is not all let
 * through before the first one has failed; parallel requests with one same password (a client
 * starting up) count once.
 */
@Injectable()
export class LoginThrottle {
  private readonly limits: LoginThrottleConfig;
  private readonly stores: ThrottleStores;
  private readonly now: () => number;
  /** Counter key → fingerprints of the credentials being verified → number of such requests. */
  private readonly pending = new Map<string, Map<string, number>>();
  /** A key object, made once: createHmac given the key as bytes prepares it on every call. */
  private readonly secret = createSecretKey(randomBytes(32));

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(THROTTLE_STORES) stores?: ThrottleStores,
    @Optional() @Inject(THROTTLE_CLOCK) clock?: () => number,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.limits = config.loginThrottle;
    this.stores = stores ?? {
      failures: new MemoryThrottleStore(MAX_FAILURE_KEYS),
      trusted: new MemoryThrottleStore(MAX_TRUSTED_KEYS),
    };
    this.now = clock ?? Date.now;
  }

  /**
   * Call before checking `password` of `login` sent from `ip`: throws 429 (with Retry-After)
   * while a limit that applies is reached, otherwise returns the attempt to settle.
   */
  async begin(ip: string | undefined, login: string, password: string): Promise<LoginAttempt> {
    const address = addressKey(ip);
    const user = loginKey(login);
    const keys = {
      pair: `p:${address}:${user}`,
      address: `a:${address}`,
      login: `l:${user}`,
      trusted: `t:${address}:${user}`,
    };
    const now = this.now();
    const [[pair, perAddress, perLogin], [trust]] = await Promise.all([
      this.stores.failures.get([keys.pair, keys.address, keys.login], now),
      this.stores.trusted.get([keys.trusted], now),
    ]);
    const { perLoginAndAddress, perAddress: addressLimit, perLogin: loginLimit } = this.limits;
    const waits: number[] = [];
    let reached = '';
    const over = (limit: string, counter: Counter | null, key: string | null, max: number) => {
      const count = (counter?.count ?? 0) + (key ? (this.pending.get(key)?.size ?? 0) : 0);
      if (count < max) return;
      reached ||= limit;
      // Blocked only by verifications still running: they finish within a second.
      waits.push(counter && counter.count >= max ? counter.expiresAt - now : 1000);
    };
    over('login_and_address', pair, null, perLoginAndAddress.max);
    if (!trust) {
      over('address', perAddress, keys.address, addressLimit.max);
      over('login', perLogin, keys.login, loginLimit.max);
    }
    if (waits.length) {
      this.metrics?.loginRefusals.inc({ limit: reached });
      throw tooManyRequests(Math.max(...waits));
    }

    // An HMAC with a per-process secret: tells credentials apart without holding a password.
    const fingerprint = createHmac('sha256', this.secret)
      .update(login)
      .update('\0')
      .update(password)
      .digest('base64');
    const release = this.holdPending([keys.address, keys.login], fingerprint);
    return {
      failed: async () => {
        if (!release()) return;
        await this.stores.failures.increment(
          [
            { key: keys.pair, ttlMs: perLoginAndAddress.windowMs },
            { key: keys.address, ttlMs: addressLimit.windowMs },
            { key: keys.login, ttlMs: loginLimit.windowMs },
          ],
          this.now(),
        );
      },
      succeeded: async () => {
        if (!release()) return;
        const at = this.now();
        const writes: Promise<void>[] = [];
        // The owner's own earlier typos no longer count against them.
        if (pair) writes.push(this.stores.failures.delete(keys.pair));
        const { trustedForMs } = this.limits;
        const refreshAfter = Math.min(TRUST_REFRESH_MS, trustedForMs / 2);
        if (!trust || trust.expiresAt - at < trustedForMs - refreshAfter) {
          writes.push(this.stores.trusted.set(keys.trusted, trustedForMs, at));
        }
        await Promise.all(writes);
      },
      abandon: () => {
        release();
      },
    };
  }
  /**
   * Counts a verification of `fingerprint` as running under each of `keys` until the returned
   * release is called (once: it says whether this call released it).
   */
  private holdPending(keys: string[], fingerprint: string): () => boolean {
    for (const key of keys) {
      const credentials = this.pending.get(key) ?? new Map<string, number>();
      credentials.set(fingerprint, (credentials.get(fingerprint) ?? 0) + 1);
      this.pending.set(key, credentials);
    }
    let settled = false;
    return () => {
      if (settled) return false;
      settled = true;
      for (const key of keys) {
        const credentials = this.pending.get(key);
        if (!credentials) continue;
        const left = (credentials.get(fingerprint) ?? 1) - 1;
        if (left > 0) credentials.set(fingerprint, left);
        else credentials.delete(fingerprint);
        if (!credentials.size) this.pending.delete(key);
      }
      return true;
    };
  }
}

function tooManyRequests(ms: number): ApiError {
  const error = new ApiError('rest_too_many_requests', 429);
  error.headers['Retry-After'] = String(Math.max(1, Math.ceil(ms / 1000)));
  return error;
}
