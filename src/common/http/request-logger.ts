import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export type LogSink = (line: string) => void;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Query parameters whose values never reach the log. */
const SECRET_PARAMS = /^(password|pass|pwd|token|secret|authorization)$/i;

/** The URL as logged: secret query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of Array.from(params.keys()))
    if (SECRET_PARAMS.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
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
