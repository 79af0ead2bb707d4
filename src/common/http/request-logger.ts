import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { pino, stdTimeFunctions, type Logger, type LoggerOptions } from 'pino';

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
 * The logger of the whole server: pino, one JSON object per line with `level` as a word
 * (`info`, `error`) and `time` as an ISO date, no host name or process id. Lines go to standard
 * output, or to `sink` (tests capture them there).
 */
export function createLogger(sink?: LogSink): Logger {
  const options: LoggerOptions = {
    base: null,
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (!sink) return pino(options);
  return pino(options, { write: (line: string) => sink(line.replace(/\n$/, '')) });
}

/**
 * What the request being served logs through: its `reqId`, and a child logger carrying it, made
 * on first use (most requests log nothing but their request line). The Nest logger (AppLogger)
 * writes through it, so that an error logged while serving a request, by the error filter or
 * anywhere else, names the request.
 */
export class RequestLog {
  private child: Logger | undefined;

  constructor(
    private readonly root: Logger,
    readonly reqId: string,
  ) {}

  get logger(): Logger {
    return (this.child ??= this.root.child({ reqId: this.reqId }));
  }
}

export const requestLogs = new AsyncLocalStorage<RequestLog>();

type LoggedRequest = IncomingMessage & {
  originalUrl?: string;
  actor?: { user: { login: string } | null };
};

/**
 * One JSON line per request (`reqId`, method, URL, status, duration, user when known) once its
 * answer is sent or its connection closes, at `error` for a 5xx and `info` otherwise. Headers
 * and bodies are never logged, so neither `Authorization` nor a password can leak; the request
 * id comes from `X-Request-Id` when the client sends a sane one and is echoed back. With
 * `logRequests` false the request lines are left out, but the request id and the request's
 * logger are still set up for the errors logged while serving it.
 *
 * Written here rather than with pino-http, which built two child loggers for every request
 * whether anything was logged or not: about a sixth of a computed list request's CPU.
 */
export function requestLogger(logger: Logger, logRequests: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const reqId =
      typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', reqId);
    const log = new RequestLog(logger, reqId);
    if (logRequests) {
      const done = () => {
        res.off('finish', done);
        res.off('close', done);
        logger[res.statusCode >= 500 ? 'error' : 'info'](requestLine(req, res, reqId, started));
      };
      res.on('finish', done);
      res.on('close', done);
    }
    requestLogs.run(log, next);
  };
}

function requestLine(req: LoggedRequest, res: ServerResponse, reqId: string, started: bigint) {
  return {
    reqId,
    method: req.method,
    url: redactUrl(req.originalUrl ?? req.url ?? ''),
    status: res.statusCode,
    ms: Number(process.hrtime.bigint() - started) / 1e6,
    user: req.actor?.user?.login ?? null,
  };
}
