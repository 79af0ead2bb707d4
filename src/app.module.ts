import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from './auth/auth.module.js';
import { BenchModule } from './bench/bench.module.js';
import { BasicAuthGuard } from './auth/basic-auth.guard.js';
import { WpErrorFilter } from './common/errors/wp-error.filter.js';
import { createValidationPipe } from './common/http/validation.js';
import { LanguageGuard } from './common/i18n/language.guard.js';
import { MessagesModule } from './common/i18n/messages.module.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { isPermanentDatabaseError } from './config/startup.js';
import { dataSourceOptions } from './database/data-source.js';
import { entities } from './entities.js';
import {
  applicationMigrations,
  EXTENSION_MODULES,
  type ExtensionModule,
} from './extension-modules.js';
import {
  DatabaseAvailabilityInterceptor,
  DatabaseAvailableGuard,
} from './database/database-availability.js';
import { DatabaseModule } from './database/database.module.js';
import { WritesModule } from './database/writes.module.js';
import { DocsModule } from './docs/docs.module.js';
import { defaultWindow } from './events/event-filters.js';
import { HealthModule } from './health/health.module.js';
import { JsonBody, JsonBodyInterceptor } from './common/http/json-body.js';
import { CacheModule } from './cache/cache.module.js';
import { ResponseCacheInterceptor } from './cache/response-cache.js';
import { ArchiveHeadersInterceptor } from './common/pagination/paginate.js';
import { PluginNamesInterceptor } from './common/http/plugin-names.js';
import { FieldsInterceptor } from './common/http/fields.js';
import { LastModifiedInterceptor } from './common/http/conditional.js';
import { EventsModule } from './events/events.module.js';
import { FeedsModule } from './feeds/feeds.module.js';
import { PublicModule } from './public/public.module.js';
import { ConsoleModule } from './console/console.module.js';
import { VenuesModule } from './venues/venues.module.js';
import { OrganizersModule } from './organizers/organizers.module.js';
import { TermsModule } from './terms/terms.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MetricsEndpoint } from './metrics/metrics-endpoint.service.js';
import { DatabaseMetrics } from './database/database-metrics.js';
import { QueryTracing } from './tracing/query-tracing.js';
import { WebhookOutboxModule } from './webhooks/webhook-outbox.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { UsersModule } from './users/users.module.js';

/** Everything but the configuration and the bench route, with the extension modules given. */
const features = (extensions: readonly ExtensionModule[]) => [
  TypeOrmModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => ({
      ...dataSourceOptions(config),
      // The modules' tables after the core's (docs/extending.md).
      migrations: applicationMigrations(extensions),
      entities,
      retryAttempts: config.databaseRetries,
      retryDelay: 2000,
      // A missing database or a refused login will not appear by waiting: say so at once.
      toRetry: (error: unknown) => !isPermanentDatabaseError(error),
    }),
  }),
  MessagesModule,
  MetricsModule,
  DatabaseModule,
  CacheModule,
  WritesModule,
  WebhookOutboxModule,
  AuthModule,
  // BEHAVIOR §2: the namespace index shows the date window the events list applies.
  DocsModule.register({ 'GET /events': (zone, now) => defaultWindow(zone, now) }),
  HealthModule,
  // Before EventsModule: `events/:id.ics` must be routed before `events/:id`.
  FeedsModule,
  EventsModule,
  VenuesModule,
  OrganizersModule,
  TermsModule,
  WebhooksModule,
  UsersModule,
  PublicModule,
  ConsoleModule,
  ...extensions,
];

const FEATURES = features(EXTENSION_MODULES);

const PROVIDERS = [
  MetricsEndpoint,
  DatabaseMetrics,
  QueryTracing,
  { provide: APP_FILTER, useClass: WpErrorFilter },
  { provide: APP_INTERCEPTOR, useClass: DatabaseAvailabilityInterceptor },
  // Outside the response cache: it writes every JSON answer, splicing in the records' JSON.
  JsonBody,
  { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
  // Outside ArchiveHeadersInterceptor, so that it stores the list headers with the body.
  { provide: APP_INTERCEPTOR, useClass: ResponseCacheInterceptor },
  // `_fields`: inside the cache (a variant is stored reduced), outside what builds and renames
  // the payload.
  { provide: APP_INTERCEPTOR, useClass: FieldsInterceptor },
  // Inside the cache (it stores the renamed answer), outside ArchiveHeadersInterceptor (it
  // sees the list body).
  { provide: APP_INTERCEPTOR, useClass: PluginNamesInterceptor },
  { provide: APP_INTERCEPTOR, useClass: ArchiveHeadersInterceptor },
  // Inside ResponseCacheInterceptor too: a cached single record keeps its Last-Modified.
  { provide: APP_INTERCEPTOR, useClass: LastModifiedInterceptor },
  { provide: APP_PIPE, useFactory: createValidationPipe },
  // Order matters: an outage answers first, then credentials are checked before parameters
  // (BEHAVIOR §1.1).
  { provide: APP_GUARD, useClass: DatabaseAvailableGuard },
  { provide: APP_GUARD, useClass: BasicAuthGuard },
  { provide: APP_GUARD, useClass: LanguageGuard },
];

/**
 * The application. Imported as is (tests), it loads its configuration from the environment;
 * main.ts builds it with `AppModule.withConfig(config)` from the configuration it loaded.
 */
@Module({ imports: [ConfigModule, ...FEATURES], providers: PROVIDERS })
export class AppModule {
  static withConfig(config: AppConfig): DynamicModule {
    return {
      module: ConfiguredAppModule,
      imports: [
        ConfigModule.withValue(config),
        // `npm run bench:extensions` compares the lists with and without the modules.
        ...(config.benchWithoutExtensions ? features([]) : FEATURES),
        // The framework-ceiling route of `npm run bench`; never part of a normal deployment.
        ...(config.benchRoutes ? [BenchModule] : []),
      ],
      providers: PROVIDERS,
    };
  }

  /** The application with only the extension modules given (tests build it without them). */
  static withExtensions(extensions: readonly ExtensionModule[]): DynamicModule {
    return {
      module: ConfiguredAppModule,
      imports: [ConfigModule, ...features(extensions)],
      providers: PROVIDERS,
    };
  }
}

@Module({})
class ConfiguredAppModule {}
