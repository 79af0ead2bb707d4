import { diag, DiagLogLevel, trace, type DiagLogFunction } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { PROJECT_ROOT } from '../config/paths.js';
import { outboundUrl, useTracer } from './spans.js';

/** The service name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one. */
const SERVICE_NAME = 'cal-events-api';

export interface Tracing {
  /** Sends the spans still buffered and stops (at the end of a SIGTERM'd stop or a command). */
  shutdown(): Promise<void>;
}

function version(): string {
  try {
    const raw = readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8');
    return (JSON.parse(raw) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}

/**
 * Starts the OpenTelemetry SDK (called only when OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, OperationsConfig.tracing; this module and the SDK
 * are not even loaded otherwise). The standard variables configure it as the SDK reads them:
 * the endpoint and OTEL_EXPORTER_OTLP_(TRACES_)HEADERS/TIMEOUT for the OTLP/HTTP exporter,
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES for the resource, OTEL_TRACES_SAMPLER(_ARG)
 * for sampling (default: parent-based, always on), OTEL_BSP_* for the batching. It registers
 * W3C trace context propagation and the undici instrumentation (Node's fetch: the importer's
 * requests get spans and pass `traceparent` on); requests, statements and webhook deliveries
 * are traced by this project's own hooks (spans.ts). Problems of the exporter (a collector that
 * does not answer) are logged as warnings, never thrown into a request.
 */
export function startTracing(logger: Logger): Tracing {
  const log =
    (level: 'warn' | 'error'): DiagLogFunction =>
    (message, ...args) =>
      logger[level]({ context: 'OpenTelemetry' }, [message, ...args.map(String)].join(' '));
  diag.setLogger(
    {
      error: log('error'),
      warn: log('warn'),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  const serviceVersion = version();
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: SERVICE_NAME,
        [ATTR_SERVICE_VERSION]: serviceVersion,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  const disableInstrumentations = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new UndiciInstrumentation({
        // The importer's fetches: their URLs redacted as the deliveries' are (outboundUrl).
        startSpanHook: (request) => ({
          ...outboundUrl(new URL(request.path, request.origin)),
          'url.query': '',
        }),
      }),
    ],
  });
  useTracer(trace.getTracer(SERVICE_NAME, serviceVersion));
  return {
    async shutdown() {
      useTracer(null);
      disableInstrumentations();
      await provider.shutdown();
    },
  };
}
