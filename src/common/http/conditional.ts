import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { carriesCredentials } from './credentials.js';
import type { NextFunction, Request, Response } from 'express';
import { map, type Observable } from 'rxjs';

/**
 * Conditional requests (CONTRACT §7). Express computes the ETag of every body it sends
 * (`app.set('etag', 'strong')`, configure-app.ts) and answers 304 itself when If-None-Match, or
 * If-Modified-Since against a Last-Modified, says the client's copy is fresh (`req.fresh`).
 * This file adds what Express does not know: who may store the answer, and when a single
 * record last changed.
 */

/** Anyone may store it, and must ask again (a conditional request) before reusing it. */
export const PUBLIC_REVALIDATE = 'public, no-cache';
/** Only the requesting client may store it (the answer depends on its credentials). */
const PRIVATE_REVALIDATE = 'private, no-cache';
/** Nobody stores it: the answer depends on a password the reader typed. */
export const NOT_STORED = 'private, no-store';

/** Whether the request carries a password for a protected post (query string or form body). */
function carriesPassword(req: Request): boolean {
  const query = req.query as Record<string, unknown> | undefined;
  const body = req.body as Record<string, unknown> | undefined;
  return (
    query?.password !== undefined ||
    query?.post_password !== undefined ||
    (body !== null && typeof body === 'object' && body.post_password !== undefined)
  );
}

/**
 * Express middleware: the default Cache-Control of every GET/HEAD answer, set before any
 * handler runs (a handler may narrow it). Authenticated answers are private, password
 * answers are never stored, the health check is never stored; anonymous answers are public
 * but revalidated each time, so a cache never serves a record after a write.
 */
export function cachePolicy(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  let policy = PUBLIC_REVALIDATE;
  if (req.path === '/health' || req.path.endsWith('/health')) policy = 'no-store';
  else if (carriesPassword(req)) policy = NOT_STORED;
  else if (carriesCredentials(req)) policy = PRIVATE_REVALIDATE;
  res.setHeader('Cache-Control', policy);
  res.setHeader('Vary', 'Authorization, X-WP-Nonce, Accept, Accept-Encoding');
  next();
}

/** `2025-01-02 03:04:05` (UTC, as the records store it) → an HTTP date, or undefined. */
export function httpDate(utcSql: unknown): string | undefined {
  if (typeof utcSql !== 'string' || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(utcSql)) {
    return undefined;
  }
  const time = Date.parse(`${utcSql.replace(' ', 'T')}Z`);
  if (!Number.isFinite(time) || time <= 0) return undefined;
  return new Date(time).toUTCString();
}

/**
 * Last-Modified of a single record's answer: its `modified_utc`. Lists have none (they change
 * with the clock, not only with their records); their ETag alone serves revalidation. Runs
 * inside ResponseCacheInterceptor, which stores the header with the body it caches.
 */
@Injectable()
export class LastModifiedInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
          const date = httpDate((body as Record<string, unknown>).modified_utc);
          if (date && res.statusCode === 200 && !res.headersSent) {
            res.setHeader('Last-Modified', date);
          }
        }
        return body;
      }),
    );
  }
}
