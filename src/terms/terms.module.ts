import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesController } from './categories.controller.js';
import { TagsController } from './tags.controller.js';
import { TermEntity } from './term.entity.js';
import { EventTermsRepository } from './event-terms.repository.js';
import { TermRefsRepository } from './term-refs.repository.js';
import { TermsRepository } from './terms.repository.js';
import { EventTermLinks } from './event-term-links.js';
import { TermQueries } from './term-queries.js';
import { TermWrites } from './term-writes.js';
import { TermLinks } from './term-links.js';
import { WritesModule } from '../database/writes.module.js';
import { CacheModule } from '../cache/cache.module.js';

/**
 * Event categories and tags (INTERFACE §2.4, §2.5, §4.5, §4.6). Exports EventTermLinks for the
 * events module (embedded terms, write-time resolution, the list filters), TermQueries for the
 * public pages and TermWrites for the importer. The links of events to terms (`event_terms`)
 * belong to the events module, which gives the SQL over them (counts, a list's event filter)
 * through TermLinks.
 */
@Module({
  imports: [CacheModule, WritesModule, PostsModule, TypeOrmModule.forFeature([TermEntity])],
  controllers: [CategoriesController, TagsController],
  providers: [
    TermLinks,
    TermsRepository,
    TermRefsRepository,
    EventTermsRepository,
    TermQueries,
    TermWrites,
    EventTermLinks,
  ],
  exports: [TermQueries, TermWrites, EventTermLinks, TermLinks],
})
export class TermsModule {}
export { TermQueries };
