import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { DatabaseMonitor } from './database-monitor.js';
import { HealthStore } from './health-store.js';
import { ReplicaRouter, RequestRouteMiddleware } from './replica-router.js';
import { ScheduledPublications } from './scheduled-publications.js';
import { SharedGeneration } from './shared-generation.js';
import { CacheModule } from '../cache/cache.module.js';
import { WritesModule } from './writes.module.js';

const PROVIDERS = [
  DatabaseMonitor,
  HealthStore,
  ScheduledPublications,
  SharedGeneration,
  ReplicaRouter,
];

@Module({
  imports: [WritesModule, CacheModule],
  providers: PROVIDERS,
  exports: PROVIDERS,
})
export class DatabaseModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Every request gets its routing context (DATABASE_REPLICA_URLS), after the body is read.
    consumer.apply(RequestRouteMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
