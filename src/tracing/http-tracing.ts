import type { NextFunction, Request, Response } from 'express';
import { redactUrl } from '../common/http/request-logger.js';
import { routeTemplates } from '../common/http/route-template.js';
import { SpanStatusCode, startServerSpan, type Span } from './spans.js';

/** The longest URL path or query recorded on a span (a long query is cut, not dropped). */
const LONGEST_URL_PART = 2048;

/**
 * A server span per request (installed only when tracing is on): a child of the caller's W3C
 * `traceparent`, named `GET /cal/events/v1/events/:id` by the route template once a route
 * answered (only the method when none did), with the status code, the request id (so that a
 * trace leads to the log lines of its request, which carry the trace id) and the URL with its
 * secrets redacted as in the request log. Everything the request does runs inside it: its
 * database statements become its children (query-tracing.ts).
 */
export function httpTracing(basePath: string) {
  const routeOf = routeTemplates(basePath);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = startServerSpan(req.method, req.headers, (span) => {
      // A request the sampler left out still carries its context on (to its statements, to
      // the traceparent of what it sends), but is not described: that costs nothing to record.
      if (span.isRecording()) describe(req, res, span, routeOf);
      next();
      return true;
    });
    if (started === null) next();
  };
}

function describe(
  req: Request,
  res: Response,
  span: Span,
  routeOf: (req: Request) => string | null,
): void {
  const url = redactUrl(req.originalUrl ?? req.url);
  const q = url.indexOf('?');
  span.setAttributes({
    'http.request.method': req.method,
    'url.path': (q < 0 ? url : url.slice(0, q)).slice(0, LONGEST_URL_PART),
    ...(q < 0 ? {} : { 'url.query': url.slice(q + 1).slice(0, LONGEST_URL_PART) }),
    'url.scheme': req.protocol,
    'network.protocol.version': req.httpVersion,
    'client.address': req.socket.remoteAddress,
    'server.port': req.socket.localPort,
    ...(req.headers['user-agent']
      ? { 'user_agent.original': req.headers['user-agent'].slice(0, 256) }
      : {}),
  });
  const done = () => {
    res.off('finish', done);
    res.off('close', done);
    const route = routeOf(req);
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    const requestId = res.getHeader('x-request-id');
    if (typeof requestId === 'string') span.setAttribute('http.request.id', requestId);
    if (!res.writableFinished && !res.headersSent) {
      // The client went away before an answer: no status to report.
      span.setAttribute('error.type', 'connection_closed');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed' });
    } else {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) {
        span.setAttribute('error.type', String(res.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  };
  res.on('finish', done);
  res.on('close', done);
}
