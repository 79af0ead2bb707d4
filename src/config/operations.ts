import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

type Env = Record<string, string | undefined>;

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
}

const LONGEST_TOKEN = 512;
const LONGEST_DELAY_MS = 600_000;

function parseMetrics(env: Env): MetricsConfig | null {
  const rawPort = env.METRICS_PORT?.trim() ?? '';
  if (rawPort === '') return null;
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65535) {
    throw new ConfigError('METRICS_PORT', `must be a number from 0 to 65535, got "${rawPort}"`);
  }
  const host = env.METRICS_HOST?.trim() || '127.0.0.1';
  const unbracketed = host.replace(/^\[(.*)\]$/, '$1');
  if (!isIP(unbracketed) && !/^[A-Za-z0-9.-]{1,253}$/.test(host)) {
    throw new ConfigError('METRICS_HOST', `must be an IP address or a host name, got "${host}"`);
  }
  const token = env.METRICS_TOKEN ?? '';
  if (token !== '' && (token.length > LONGEST_TOKEN || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError(
      'METRICS_TOKEN',
      `must be up to ${LONGEST_TOKEN} printable ASCII characters without spaces`,
    );
  }
  return {
    port: Number(rawPort),
    host: isIP(unbracketed) ? unbracketed : host,
    token: token || null,
  };
}

/** Whether the standard OpenTelemetry variables ask for traces to be exported. */
function tracingRequested(env: Env): boolean {
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return false;
  if (/^true$/i.test(env.OTEL_SDK_DISABLED?.trim() ?? '')) return false;
  if (/^none$/i.test(env.OTEL_TRACES_EXPORTER?.trim() ?? '')) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
        ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
        : 'OTEL_EXPORTER_OTLP_ENDPOINT',
      `must be an http(s) URL such as http://collector:4318, got "${endpoint}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      `must be an http(s) URL (OTLP over HTTP), got "${endpoint}"`,
    );
  }
  return true;
}

function parseShutdownDelay(raw: string | undefined): number {
  const value = raw?.trim() ?? '';
  if (value === '') return 0;
  if (!/^\d{1,6}$/.test(value) || Number(value) > LONGEST_DELAY_MS) {
    throw new ConfigError(
      'SHUTDOWN_DELAY_MS',
      `must be a number of milliseconds from 0 to ${LONGEST_DELAY_MS}, got "${raw}"`,
    );
  }
  return Number(value);
}

export function parseOperations(env: Env): OperationsConfig {
  return {
    metrics: parseMetrics(env),
    tracing: tracingRequested(env),
    shutdownDelayMs: parseShutdownDelay(env.SHUTDOWN_DELAY_MS),
  };
}
