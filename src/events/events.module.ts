import { Module } from '@nestjs/common';

/** Events: filled in by its issue (see docs/spec/INTERFACE.md). */
@Module({})
export class EventsModule {}
