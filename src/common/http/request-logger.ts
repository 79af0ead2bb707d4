import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { context, trace as otelTrace } from '@opentelemetry/api';
import { pino, stdTimeFunctions, type Logger, type LoggerOptions } from 'pino';

export type LogSink = (line: string) => void;

/** The trace and span of the active context, as log lines carry them (OpenTelemetry's names). */
export interface TraceIds {
  trace_id: string;
  span_id: string;
}

/**
 * The ids of the active span, or null. Without the SDK (tracing off) the API has no context
 * manager, so there is never an active span and this costs one lookup.
 */
function activeTraceIds(): TraceIds | null {
  const span = otelTrace.getSpan(context.active());
  if (!span) return null;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Query parameter names (or parts of nested names) whose values never reach the log. */
const SECRET_NAMES = new Set([
  'password',
  'pass',
  'passwd',
  'pwd',
  'passphrase',
  'post_password',
  'token',
  'secret',
  'authorization',
  'auth',
  'apikey',
  'key',
  'nonce',
  '_wpnonce',
  'credentials',
  'signature',
]);
/**
 * Last words of compound names that make them secret: `access_token`, `app_password`,
 * `api-key`, `http_authorization` (but not `password_hint`, whose last word is no secret).
 */
const SECRET_LAST_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'token',
  'secret',
  'authorization',
  'auth',
  'key',
  'nonce',
  'credentials',
  'signature',
]);
/** A value that is itself a credential, whatever its name: `Basic …`, `Bearer …`. */
const CREDENTIAL_VALUE = /^\s*(?:basic|bearer|digest|negotiate|token)\s+\S/i;
/** User and password inside a URL (`https://user:pass@host`). */
const URL_USERINFO = /\/\/[^/?#@\s]*@/g;
/**
 * How deep a URL inside a URL is looked into (`?rest_route=/events/4%3Fpassword%3D…`, a path
 * with an encoded `?`, a `?next=` link): enough for any real request, and a bound on the work.
 */
const MAX_NESTING = 3;
const REDACTED = '[redacted]';

/**
 * Whether a query parameter carries a secret, judged by its decoded name and every part of it:
 * the query parser reads `password[]`, `password[0]` and `a[password]` (and `a.password`) as
 * the same `password`, so any bracketed or dotted part that is a secret name counts, in any case,
 * and so does a part whose last `_`/`-` word is one (`access_token`, `app_password`).
 */
export function isSecretParam(decodedName: string): boolean {
  return decodedName
    .toLowerCase()
    .split(/[[\].]/)
    .some((raw) => {
      const part = raw.trim();
      if (SECRET_NAMES.has(part)) return true;
      const cut = Math.max(part.lastIndexOf('_'), part.lastIndexOf('-'));
      return cut > 0 && SECRET_LAST_WORDS.has(part.slice(cut + 1));
    });
}

/**
 * The URL as logged: values of secret query parameters, and values that are credentials, replaced
 * by `[redacted]`, also inside URLs carried by the URL (a parameter whose value is a URL or a
 * query, as `rest_route` is, or a path with an encoded `?`), and any `user:password@` of those.
 * A URL without secrets is logged exactly as it came.
 */
export function redactUrl(url: string): string {
  return redactAt(url, 0) ?? url;
}

/** `url` redacted, or null when it holds no secret. */
function redactAt(url: string, depth: number): string | null {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const safePath = redactPath(path, depth);
  const query = q < 0 ? null : redactQuery(url.slice(q + 1), depth);
  if (safePath === null && query === null) return null;
  const tail = q < 0 ? '' : `?${query ?? url.slice(q + 1)}`;
  return `${safePath ?? path}${tail}`;
}

/** A path whose decoded form holds a query of its own (an encoded `?`), redacted; else null. */
function redactPath(path: string, depth: number): string | null {
  const userinfo = path.includes('@') ? withoutUserinfo(path) : null;
  const text = userinfo ?? path;
  if (depth >= MAX_NESTING || !/%3f/i.test(text)) return userinfo;
  const decoded = decode(text);
  const q = decoded?.indexOf('?') ?? -1;
  if (decoded === undefined || q < 0) return userinfo;
  const inner = redactQuery(decoded.slice(q + 1), depth + 1);
  return inner === null ? userinfo : `${encodeURI(decoded.slice(0, q))}%3F${inner}`;
}

/**
 * The query string with its secrets redacted, or null when it holds none; the parameters without
 * secrets are kept as sent.
 */
function redactQuery(query: string, depth: number): string | null {
  let redacted = false;
  const parts = query.split('&').map((part) => {
    // URLSearchParams decodes names (`pass%77ord%5B%5D` is `password[]`) as the query parser does.
    const [param] = new URLSearchParams(part);
    if (!param) return part;
    const [name, value] = param;
    let logged = value;
    if (isSecretParam(name) || CREDENTIAL_VALUE.test(value)) logged = REDACTED;
    else if (depth < MAX_NESTING) logged = redactValue(value, depth + 1) ?? value;
    if (logged === value) return part;
    redacted = true;
    return new URLSearchParams([[name, logged]]).toString();
  });
  return redacted ? parts.join('&') : null;
}

/** A parameter's value that is a URL or a query string, redacted; else null. */
function redactValue(value: string, depth: number): string | null {
  if (value.includes('?') || value.includes('@')) return redactAt(value, depth);
  if (value.includes('=')) return redactQuery(value, depth);
  if (/%3f/i.test(value)) return redactPath(value, depth);
  return null;
}

function withoutUserinfo(text: string): string | null {
  const out = text.replace(URL_USERINFO, `//${REDACTED}@`);
  return out === text ? null : out;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A message as logged: every URL in it (a word holding a `?` or an `@`) with its secrets
 * redacted as redactUrl does. For error messages and stacks, which may quote a request's URL.
 */
export function redactText(text: string): string {
  if (!text.includes('?') && !text.includes('@') && !/%3f/i.test(text)) return text;
  return text.replace(/[^\s"'<>`]+/g, (word) => redactUrl(word));
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
    /** The request's trace and span when tracing is on: its log lines lead to its trace. */
    readonly trace: TraceIds | null = null,
  ) {}

  get logger(): Logger {
    return (this.child ??= this.root.child({ reqId: this.reqId, ...this.trace }));
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
 * id comes from `X-Request-Id` when the client sends a sane one and is echoed back; with tracing
 * on, every line of the request also carries `trace_id` and `span_id` of its span. With
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
    const log = new RequestLog(logger, reqId, activeTraceIds());
    if (logRequests) {
      const done = () => {
        res.off('finish', done);
        res.off('close', done);
        logger[res.statusCode >= 500 ? 'error' : 'info']({
          ...requestLine(req, res, reqId, started),
          ...log.trace,
        });
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
