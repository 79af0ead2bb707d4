import { applicationMigrations } from '../extension-modules.js';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import type { AppConfig } from '../config/config.js';
import { ConfigModule } from '../config/config.module.js';
import { PostsModule } from '../posts/posts.module.js';
import { dataSourceOptions } from '../database/data-source.js';
import { entities } from '../entities.js';
import { WritesModule } from '../database/writes.module.js';
import { CacheModule } from '../cache/cache.module.js';
import { SharedGeneration } from '../database/shared-generation.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { QueryTracing } from '../tracing/query-tracing.js';

import { WebhookOutboxModule } from '../webhooks/webhook-outbox.js';
import { EventPurgeModule } from '../events/event-purge.js';

const COMMON = [
  MetricsModule,
  AuthModule,
  WritesModule,
  WebhookOutboxModule,
  CacheModule,
  PostsModule,
  // The purge's rows in the events' tables (posts knows nothing of events).
  EventPurgeModule,
];

/**
 * What the CLI needs, on the configuration it loaded: the database, users and the trash purge,
 * no HTTP; plus `features`, the modules of the import commands when one runs (loaded only then).
 */
@Module({})
export class CliModule {
  static forConfig(config: AppConfig, features: Array<Type | DynamicModule> = []): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.withValue(config),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(config),
          // The extension modules' tables after the core's, as the application runs them.
          migrations: applicationMigrations(),
          entities,
          retryAttempts: 0,
        }),
        ...COMMON,
        ...features,
      ],
      // Writes made here (records:purge-trash, imports) count in the write generation, so
      // running servers on the same MySQL/MariaDB database drop their cached answers.
      // With OTEL_* set (cli/main.ts), a command's statements are spans of its trace.
      providers: [SharedGeneration, QueryTracing],
    };
  }
}
