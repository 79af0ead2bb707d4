import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module.js';
import { OrganizersController } from './organizers.controller.js';
import { linkedProviders } from '../linked/linked-providers.js';
import { OrganizersRepository } from './organizers.repository.js';
import {
  ORGANIZER_DEFINITION,
  OrganizerEventLinks,
  OrganizerQueries,
  OrganizerWrites,
} from './organizers.service.js';
import { WritesModule } from '../database/writes.module.js';
import { CacheModule } from '../cache/cache.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ExtensionsModule } from '../extensions/extensions.module.js';

/** Organizers (INTERFACE §2.3, §4.4). Exports OrganizerEventLinks for the events
 * module, OrganizerQueries for the public pages and OrganizerWrites for the importer. */
@Module({
  imports: [AuthModule, CacheModule, WritesModule, PostsModule, ExtensionsModule],
  controllers: [OrganizersController],
  providers: linkedProviders(ORGANIZER_DEFINITION, {
    repository: OrganizersRepository,
    queries: OrganizerQueries,
    writes: OrganizerWrites,
    links: OrganizerEventLinks,
  }),
  exports: [OrganizerQueries, OrganizerWrites, OrganizerEventLinks],
})
export class OrganizersModule {}
