import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/**
 * The tracer of this process once tracing.ts has started the OpenTelemetry SDK (OTEL_* variables
 * set), else null. Every hook below checks it first and does nothing more when it is null: with
 * tracing off a request costs one comparison, and the middleware and the statement subscriber
 * are not even installed.
 */
let tracer: Tracer | null = null;

export function useTracer(next: Tracer | null): void {
  tracer = next;
}

export const tracingEnabled = (): boolean => tracer !== null;

/**
 * A child of the active span, or null: what is done outside any traced operation (the timers
 * of background work) makes no trace of its own, and what a request the sampler left out does
 * is not recorded either (its `attributes` are not even built).
 */
export function startChildSpan(
  name: string,
  kind: SpanKind,
  attributes: () => Attributes,
): Span | null {
  if (!tracer) return null;
  const parent = context.active();
  if (!trace.getSpan(parent)?.isRecording()) return null;
  return tracer.startSpan(name, { kind, attributes: attributes() }, parent);
}

/**
 * A server span for an incoming operation, child of the W3C `traceparent` (and `tracestate`)
 * the caller sent, if any; `run` is called inside it.
 */
export function startServerSpan<T>(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  run: (span: Span) => T,
): T | null {
  if (!tracer) return null;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
  return context.with(trace.setSpan(parent, span), run, undefined, span);
}

/** A root span around work that is not a request (a command of the CLI). */
export async function inRootSpan<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!tracer) return run();
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, root: true });
  try {
    return await context.with(trace.setSpan(ROOT_CONTEXT, span), run);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The W3C `traceparent` of the active span (the request or command being served), to be kept with
 * work that is done later on its behalf (a webhook message); null with tracing off or outside
 * any trace. Kept also for a request the sampler left out: its log lines carry that trace id.
 */
export function activeTraceparent(): string | null {
  if (!tracer) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/**
 * Runs `work` outside whatever operation is being traced: background work that an operation
 * only woke (the webhook dispatcher, woken by a commit) is not part of it, and its statements
 * and requests must not be counted as the operation's children.
 */
export function untraced<T>(work: () => T): T {
  return tracer ? context.with(ROOT_CONTEXT, work) : work();
}

/** An outgoing HTTP request being traced: the headers that pass its context on, and its end. */
/**
 * The URL of a request this process sends, as spans name it (`url.full`): scheme, host and port,
 * and `/REDACTED` for any path or query. Incoming-webhook URLs (Slack's `/services/T…/B…/secret`,
 * Discord's `/api/webhooks/{id}/{token}`, Teams') and private calendar feeds (Google's
 * `/private-{token}/basic.ics`) carry their credential in the path, and a collector is a third
 * party: what it is told of a destination is where it is, not how to write to it.
 */
export function outboundUrl(url: URL): { 'url.full': string; 'url.path': string } {
  const bare = url.pathname === '/' && !url.search;
  const path = bare ? '/' : '/REDACTED';
  return { 'url.full': `${url.protocol}//${url.host}${path}`, 'url.path': path };
}

export interface ClientSpan {
  /** `traceparent` (and `tracestate`) to send with the request. */
  headers: Record<string, string>;
  end(status: number | null, error?: string | null): void;
}

/**
 * A client span for an HTTP request this process sends by node:http (a webhook delivery; fetch,
 * the importer's, is traced by the undici instrumentation), under the active span or as a root
 * of its own (deliveries run on a timer, not in a request). `origin`, the `traceparent` of the
 * operation the request is sent for (kept since, maybe across a restart), becomes a span link:
 * a retry hours later is a trace of its own that leads back to the write that caused it.
 */
export function startClientSpan(
  method: string,
  url: URL,
  origin?: { traceparent: string | null; attributes?: Attributes },
): ClientSpan | null {
  if (!tracer) return null;
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const linked = origin?.traceparent
    ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: origin.traceparent }))
    : undefined;
  const span = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': method,
      ...outboundUrl(url),
      'server.address': url.hostname,
      'server.port': port,
      ...origin?.attributes,
    },
    links: linked && isSpanContextValid(linked) ? [{ context: linked }] : [],
  });
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return {
    headers,
    end(status, error) {
      if (status !== null) span.setAttribute('http.response.status_code', status);
      const failed = status === null || status >= 400;
      if (failed) {
        const type = status === null ? (error ?? 'error') : String(status);
        span.setAttribute('error.type', type.slice(0, 100));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error ?? `answered ${status}` });
      }
      span.end();
    },
  };
}

export { SpanKind, SpanStatusCode, type Span };
