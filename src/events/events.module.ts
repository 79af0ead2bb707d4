import { Module } from '@nestjs/common';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { EventsController } from './events.controller.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';

@Module({
  imports: [VenuesModule, OrganizersModule, TermsModule],
  controllers: [EventsController],
  providers: [EventsService, EventsRepository],
  exports: [EventsService],
})
export class EventsModule {}
