import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { PagesController } from './pages.controller.js';
import { PagesService } from './pages.service.js';
import { Views } from './views.js';

/** Public pages, the home page and the RSS feeds (issue 18 §1, §4, §5). */
@Module({
  imports: [EventsModule, VenuesModule, OrganizersModule, TermsModule],
  controllers: [PagesController],
  providers: [PagesService, Views],
})
export class PublicModule {}
