import {
  Global,
  Module,
  RequestMethod,
  type MiddlewareConsumer,
  type NestModule,
} from '@nestjs/common';
import { DatabaseMonitor } from './database-monitor.js';
import { ReplicaRouter, RequestRouteMiddleware } from './replica-router.js';
import { ScheduledPublications } from './scheduled-publications.js';
import { SharedGeneration } from '../cache/shared-generation.js';

const PROVIDERS = [DatabaseMonitor, ScheduledPublications, SharedGeneration, ReplicaRouter];

@Global()
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class DatabaseModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Every request gets its routing context (DATABASE_REPLICA_URLS), after the body is read.
    consumer.apply(RequestRouteMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
