import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import { message } from './messages.js';

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
    throw new ConfigError('METRICS_PORT', message('config.port', { value: rawPort }));
  }
  const host = env.METRICS_HOST?.trim() || '127.0.0.1';
  const unbracketed = host.replace(/^\[(.*)\]$/, '$1');
  if (!isIP(unbracketed) && !/^[A-Za-z0-9.-]{1,253}$/.test(host)) {
    throw new ConfigError('METRICS_HOST', message('config.metrics_host', { value: host }));
  }
  const token = env.METRICS_TOKEN ?? '';
  if (token !== '' && (token.length > LONGEST_TOKEN || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError(
      'METRICS_TOKEN',
      message('config.metrics_token', { count: LONGEST_TOKEN }),
    );
  }
  return {
    port: Number(rawPort),
    host: isIP(unbracketed) ? unbracketed : host,
    token: token || null,
  };
}

/** The samplers of the OpenTelemetry SDK (OTEL_TRACES_SAMPLER), those that need no other service. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/**
 * Whether the standard OpenTelemetry variables ask for traces to be exported: an OTLP/HTTP
 * endpoint is set and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none turns it off. The
 * values the SDK would only warn about and ignore (a sampler it does not know, a ratio out of
 * range, a protocol it does not speak) stop the start instead, in one line.
 */
function tracingRequested(env: Env): boolean {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = env[variable]?.trim();
  if (!endpoint) return false;
  if (/^true$/i.test(env.OTEL_SDK_DISABLED?.trim() ?? '')) return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() ?? '';
  if (exporter === 'none') return false;
  if (exporter !== '' && exporter !== 'otlp') {
    throw new ConfigError(
      'OTEL_TRACES_EXPORTER',
      message('config.otel_exporter', { value: exporter }),
    );
  }
  let url: URL | null = null;
  try {
    url = new URL(endpoint);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(variable, message('config.otel_endpoint', { value: endpoint }));
  }
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = env[name]?.trim();
    if (protocol && protocol !== 'http/json' && protocol !== 'http/protobuf') {
      throw new ConfigError(name, message('config.otel_protocol', { value: protocol }));
    }
  }
  const sampler = env.OTEL_TRACES_SAMPLER?.trim();
  if (sampler && !SAMPLERS.includes(sampler)) {
    throw new ConfigError(
      'OTEL_TRACES_SAMPLER',
      message('config.one_of', { values: SAMPLERS.join(', '), value: sampler }),
    );
  }
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (sampler?.endsWith('traceidratio') && ratio && !(Number(ratio) >= 0 && Number(ratio) <= 1)) {
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', message('config.ratio', { value: ratio }));
  }
  return true;
}

function parseShutdownDelay(raw: string | undefined): number {
  const value = raw?.trim() ?? '';
  if (value === '') return 0;
  if (!/^\d{1,6}$/.test(value) || Number(value) > LONGEST_DELAY_MS) {
    throw new ConfigError(
      'SHUTDOWN_DELAY_MS',
      message('config.milliseconds', { max: LONGEST_DELAY_MS, value: String(raw) }),
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
