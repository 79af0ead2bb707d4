import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { ApiError } from '../common/errors/api-error.js';

const WINDOW_MS = 60_000;
const MAX_FAILURES = 10;
const BLOCK_MS = 5 * 60_000;

/**
 * Slows down password guessing: a client (by IP) that fails HTTP Basic authentication
 * MAX_FAILURES times within WINDOW_MS is answered 429 for BLOCK_MS, whatever it sends. Counting
 * uses @nestjs/throttler's storage (in memory, one process), only for failures, so clients
 * with valid credentials are never limited.
 */
@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly storage = new ThrottlerStorageService();
  private readonly blockedUntil = new Map<string, number>();

  /** Throws 429 while `client` is blocked. */
  check(client: string, now = Date.now()): void {
    const until = this.blockedUntil.get(client);
    if (until === undefined) return;
    if (until > now) throw tooManyRequests(until - now);
    this.blockedUntil.delete(client);
  }

  /** Counts a failed login; throws 429 when it crosses the limit. */
  async fail(client: string, now = Date.now()): Promise<void> {
    const record = await this.storage.increment(
      client,
      WINDOW_MS,
      MAX_FAILURES,
      BLOCK_MS,
      'failed-login',
    );
    if (record.isBlocked) {
      const ms = record.timeToBlockExpire * 1000 || BLOCK_MS;
      this.blockedUntil.set(client, now + ms);
      throw tooManyRequests(ms);
    }
  }

  onApplicationShutdown(): void {
    this.storage.onApplicationShutdown();
  }
}

function tooManyRequests(ms: number): ApiError {
  const error = new ApiError('rest_too_many_requests', 429);
  error.headers['Retry-After'] = String(Math.max(1, Math.ceil(ms / 1000)));
  return error;
}
