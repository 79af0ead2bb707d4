import { Module } from '@nestjs/common';

/** Venues: filled in by its issue (see docs/spec/INTERFACE.md). */
@Module({})
export class VenuesModule {}
