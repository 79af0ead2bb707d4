import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { RecordPayloads } from './record-payloads.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { OwnNamespaceOnly, WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks (CONTRACT "Webhooks"): the subscription routes and the dispatcher. The outbox that
 * every write feeds is WebhookOutboxModule, which the CLI loads too.
 */
@Module({
  imports: [EventsModule, VenuesModule, OrganizersModule, TermsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDispatcher, RecordPayloads, OwnNamespaceOnly],
  exports: [WebhookDispatcher],
})
export class WebhooksModule {}
