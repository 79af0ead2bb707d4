import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import { isClusterWorker } from '../common/cluster-worker.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { closeServer, portOf, serveMetrics } from './metrics-endpoint.js';
import { Metrics } from './metrics.js';

/**
 * Serves the metrics of this process on METRICS_PORT, or, in a worker of WORKERS > 1, hands
 * them to the primary, which serves the sum of its workers' (cluster-metrics.ts).
 */
@Injectable()
export class MetricsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;
  /** Made in a worker: it answers the primary's requests for this worker's figures. */
  private aggregator: AggregatorRegistry<'text/plain; version=0.0.4; charset=utf-8'> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const options = this.config.metrics;
    if (!options) return;
    if (isClusterWorker()) {
      // Answers the primary's requests for this worker's figures (prom-client's IPC messages).
      this.aggregator = new AggregatorRegistry();
      AggregatorRegistry.setRegistries([this.metrics.registry]);
      return;
    }
    this.server = await serveMetrics(options, () => this.metrics.render());
  }

  async onApplicationShutdown(): Promise<void> {
    await closeServer(this.server);
  }

  /** The port it listens on (METRICS_PORT=0 picks one), or null. */
  get port(): number | null {
    return this.server ? portOf(this.server) : null;
  }
}
