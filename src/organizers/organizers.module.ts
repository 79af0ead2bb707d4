import { Module } from '@nestjs/common';
import { PostsModule } from '../common/posts/posts.module.js';
import { OrganizersController } from './organizers.controller.js';
import { OrganizersRepository } from './organizers.repository.js';
import { OrganizersService } from './organizers.service.js';

/** Organizers (INTERFACE §2.3, §4.4). OrganizersService is exported for the events module. */
@Module({
  imports: [PostsModule],
  controllers: [OrganizersController],
  providers: [OrganizersService, OrganizersRepository],
  exports: [OrganizersService],
})
export class OrganizersModule {}
