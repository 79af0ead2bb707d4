import { Module } from '@nestjs/common';
import { PostsModule } from '../common/posts/posts.module.js';
import { VenuesController } from './venues.controller.js';
import { VenuesRepository } from './venues.repository.js';
import { VenuesService } from './venues.service.js';

/** Venues (INTERFACE §2.2, §4.3). VenuesService is exported for the events module. */
@Module({
  imports: [PostsModule],
  controllers: [VenuesController],
  providers: [VenuesService, VenuesRepository],
  exports: [VenuesService],
})
export class VenuesModule {}
