import { AggregatorRegistry } from 'prom-client';
import type { MetricsConfig } from '../config/operations.js';
import { serveMetrics } from './metrics-endpoint.js';

/**
 * The primary of WORKERS > 1: `GET /metrics` asks every worker for its figures and answers
 * their sum (counters and histograms add up; prom-client's own rules for its process metrics).
 */
export async function serveClusterMetrics(config: MetricsConfig): Promise<void> {
  const aggregator = new AggregatorRegistry();
  await serveMetrics(config, async () => ({
    contentType: aggregator.contentType,
    body: await aggregator.clusterMetrics(),
  }));
}
