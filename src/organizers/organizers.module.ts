import { Module } from '@nestjs/common';

/** Organizers: filled in by its issue (see docs/spec/INTERFACE.md). */
@Module({})
export class OrganizersModule {}
