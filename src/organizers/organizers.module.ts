import { Module } from '@nestjs/common';
import { OrganizersController } from './organizers.controller.js';
import { OrganizersRepository } from './organizers.repository.js';
import { OrganizersService } from './organizers.service.js';

/** Organizers (INTERFACE §2.3, §4.4). OrganizersService is exported for the events module. */
@Module({
  controllers: [OrganizersController],
  providers: [OrganizersService, OrganizersRepository],
  exports: [OrganizersService],
})
export class OrganizersModule {}
