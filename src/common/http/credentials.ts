import type { Request } from 'express';

/** The header that makes the console's session cookie count (WordPress's cookie authentication). */
export const NONCE_HEADER = 'x-wp-nonce';

/**
 * Whether a request may be answered as someone (CONTRACT §2): it has an `Authorization` header,
 * or the `X-WP-Nonce` without which the session cookie counts for nothing. Such answers are
 * neither kept nor served by the response cache, and are private to HTTP caches.
 */
export const carriesCredentials = (req: Request): boolean =>
  req.headers.authorization !== undefined || req.headers[NONCE_HEADER] !== undefined;
