import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module.js';
import { VenuesController } from './venues.controller.js';
import { linkedProviders } from '../linked/linked-providers.js';
import { VenuesRepository } from './venues.repository.js';
import { VENUE_DEFINITION, VenueEventLinks, VenueQueries, VenueWrites } from './venues.service.js';
import { WritesModule } from '../database/writes.module.js';
import { CacheModule } from '../cache/cache.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ExtensionsModule } from '../extensions/extensions.module.js';

/** Venues (INTERFACE §2.2, §4.3). Exports VenueEventLinks for the events
 * module, VenueQueries for the public pages and VenueWrites for the importer. */
@Module({
  imports: [AuthModule, CacheModule, WritesModule, PostsModule, ExtensionsModule],
  controllers: [VenuesController],
  providers: linkedProviders(VENUE_DEFINITION, {
    repository: VenuesRepository,
    queries: VenueQueries,
    writes: VenueWrites,
    links: VenueEventLinks,
  }),
  exports: [VenueQueries, VenueWrites, VenueEventLinks],
})
export class VenuesModule {}
