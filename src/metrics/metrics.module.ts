import { Module } from '@nestjs/common';
import { Metrics } from './metrics.js';

/** The metrics registry, for every feature to count in (the app, and the CLI's imports). */
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
