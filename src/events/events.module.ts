import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { EventsController } from './events.controller.js';
import { RecurrencePreviewController } from './recurrence-preview.controller.js';
import { LinkedRemoval } from './linked-removal.js';
import { EventPurgeModule } from './event-purge.js';
import { ScheduledEvents } from './scheduled-events.js';
import { TermLinksProvider } from './term-links-sql.js';
import { LinkedUsageProvider } from './linked-usage-sql.js';
import { DatabaseModule } from '../database/database.module.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';
import { EventQueryResolver } from './event-query.resolver.js';
import { EventPresenter } from './event.presenter.js';
import { EventReads } from './event-reads.js';
import { EventWritePlanner } from './event-write-plan.js';
import { EventUpdates } from './event-updates.js';
import { OccurrenceWrites } from './series/occurrence-writes.js';
import { OccurrencesRepository } from './series/occurrences.repository.js';
import { SeriesWrites } from './series/series-writes.js';
import { SeriesHorizon } from './series/series-horizon.js';
import { SeriesReads } from './series/series-reads.js';
import { SeriesRepository } from './series/series.repository.js';
import { GeolocationRegistration } from './geolocation-filter.js';
import { WritesModule } from '../database/writes.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { CacheModule } from '../cache/cache.module.js';
import { ExtensionsModule } from '../extensions/extensions.module.js';

@Module({
  imports: [
    CacheModule,
    ExtensionsModule,
    AuthModule,
    WritesModule,
    DatabaseModule,
    EventPurgeModule,
    PostsModule,
    VenuesModule,
    OrganizersModule,
    TermsModule,
  ],
  controllers: [EventsController, RecurrencePreviewController],
  providers: [
    EventsService,
    EventsRepository,
    LinkedRemoval,
    ScheduledEvents,
    TermLinksProvider,
    LinkedUsageProvider,
    EventQueryResolver,
    EventPresenter,
    EventReads,
    EventWritePlanner,
    EventUpdates,
    OccurrencesRepository,
    SeriesRepository,
    OccurrenceWrites,
    GeolocationRegistration,
    SeriesWrites,
    SeriesReads,
    SeriesHorizon,
  ],
  // The resolver, the presenter and the series reads are for other readers of events (feeds,
  // pages, importers).
  exports: [EventsService, EventQueryResolver, EventPresenter, SeriesReads],
})
export class EventsModule {}
