import {
  METRICS_HOST,
  METRICS_PORT,
  METRICS_TOKEN,
  OPERATIONS,
  SHUTDOWN_DELAY_MS,
  SHUTDOWN_DRAIN_MS,
  tracing,
} from './schema.js';
import { Reader } from './variable.js';

/** METRICS_PORT / METRICS_HOST / METRICS_TOKEN: where and to whom `GET /metrics` answers. */
export interface MetricsConfig {
  /** 0 picks a free port (tests read it back). */
  port: number;
  host: string;
  /** Required as `Authorization: Bearer <token>` when set. */
  token: string | null;
}

/** The operator's side of the service: metrics, tracing, how a stop drains. */
export interface OperationsConfig {
  /** null: no metrics at all (METRICS_PORT unset). */
  metrics: MetricsConfig | null;
  /** Tracing is on: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT set and the SDK not disabled. */
  tracing: boolean;
  /**
   * SHUTDOWN_DELAY_MS: after SIGTERM, how long the server keeps accepting while /health/ready
   * answers 503, so that load balancers stop sending before it stops listening.
   */
  shutdownDelayMs: number;
  /**
   * SHUTDOWN_DRAIN_MS: after that delay, how long the requests in flight may take before the
   * process exits (a worker is killed) regardless.
   */
  shutdownDrainMs: number;
}

/** The operator's settings, from `env` or from the reader of the whole configuration. */
export function parseOperations(
  from: Reader | Record<string, string | undefined>,
): OperationsConfig {
  const read = from instanceof Reader ? from : new Reader(from);
  for (const variable of OPERATIONS) read.get(variable);
  const port = read.get(METRICS_PORT);
  return {
    metrics:
      port === undefined
        ? null
        : {
            port,
            host: read.get(METRICS_HOST) ?? '',
            token: read.get(METRICS_TOKEN) ?? null,
          },
    tracing: tracing(read),
    shutdownDelayMs: read.get(SHUTDOWN_DELAY_MS),
    shutdownDrainMs: read.get(SHUTDOWN_DRAIN_MS),
  };
}
