import { Module } from '@nestjs/common';
import { CacheModule } from '../cache/cache.module.js';
import { EventsModule } from '../events/events.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { RecordPayloads } from './record-payloads.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { OwnNamespaceOnly } from '../common/http/own-namespace.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';
import { WebhookOutboxModule } from './webhook-outbox.js';
import { DatabaseModule } from '../database/database.module.js';
import { WritesModule } from '../database/writes.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';

/**
 * Webhooks (CONTRACT "Webhooks"): the subscription routes and the dispatcher. The outbox that
 * every write feeds is WebhookOutboxModule, which the CLI loads too.
 */
@Module({
  imports: [
    CacheModule,
    MetricsModule,
    DatabaseModule,
    WritesModule,
    WebhookOutboxModule,
    EventsModule,
    VenuesModule,
    OrganizersModule,
    TermsModule,
  ],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookDispatcher,
    RecordPayloads,
    OwnNamespaceOnly,
    SubscriptionsRepository,
    DeliveriesRepository,
  ],
  exports: [WebhookDispatcher],
})
export class WebhooksModule {}
