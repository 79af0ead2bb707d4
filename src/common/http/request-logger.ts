import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export type LogSink = (line: string) => void;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Query parameter names (or parts of nested names) whose values never reach the log. */
const SECRET_NAMES = new Set([
  'password',
  'pass',
  'passwd',
  'pwd',
  'post_password',
  'token',
  'secret',
  'authorization',
]);

/**
 * Whether a query parameter carries a secret, judged by its decoded name and every part of it:
 * the query parser reads `password[]`, `password[0]` and `a[password]` (and `a.password`) as
 * the same `password`, so any bracketed or dotted part that is a secret name counts, in any case.
 */
export function isSecretParam(decodedName: string): boolean {
  return decodedName
    .toLowerCase()
    .split(/[[\].]/)
    .some((part) => SECRET_NAMES.has(part.trim()));
}

/** The URL as logged: values of secret query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  // URLSearchParams decodes names (`pass%77ord%5B%5D` is `password[]`) as the query parser does.
  const params = new URLSearchParams(url.slice(q + 1));
  let redacted = false;
  const kept = new URLSearchParams();
  for (const [name, value] of params) {
    const secret = isSecretParam(name);
    redacted ||= secret;
    kept.append(name, secret ? '[redacted]' : value);
  }
  return redacted ? `${url.slice(0, q)}?${kept.toString()}` : url;
}

/**
 * One JSON line per request (method, URL, status, duration, request id, user when known).
 * Headers and bodies are never logged, so neither `Authorization` nor a password can leak; the
 * request id comes from `X-Request-Id` when the client sends a sane one and is echoed back.
 */
export function requestLogger(sink: LogSink) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => {
      const actor = (req as Request & { actor?: { user: { login: string } | null } }).actor;
      sink(
        JSON.stringify({
          level: res.statusCode >= 500 ? 'error' : 'info',
          time: new Date().toISOString(),
          reqId: id,
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          user: actor?.user?.login ?? null,
        }),
      );
    });
    next();
  };
}
