import { Module } from '@nestjs/common';
import { PostsModule } from '../common/posts/posts.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesController } from './categories.controller.js';
import { TagsController } from './tags.controller.js';
import { TermEntity } from './term.entity.js';
import { TermsRepository } from './terms.repository.js';
import { TermsService } from './terms.service.js';

/**
 * Event categories and tags (INTERFACE §2.4, §2.5, §4.5, §4.6). Exports TermsService for the
 * events module: embedded terms, write-time resolution and the list filters. The links of events
 * to terms (`event_terms`) belong to the events module; this module only reads them (counts).
 */
@Module({
  imports: [PostsModule, TypeOrmModule.forFeature([TermEntity])],
  controllers: [CategoriesController, TagsController],
  providers: [TermsRepository, TermsService],
  exports: [TermsService],
})
export class TermsModule {}

export type { Taxonomy } from './taxonomy.js';
export type { TecEmbeddedTerm, TecTerm } from './term.mapper.js';
export type { EventTerms } from './terms.service.js';
export { TermsService } from './terms.service.js';
