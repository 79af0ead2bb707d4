import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { ExtensionsModule } from '../extensions/extensions.module.js';
import { EventSource } from './event-source.js';
import { FeedsController } from './feeds.controller.js';

/** iCalendar feeds of the events (CONTRACT §7). */
@Module({
  imports: [EventsModule, ExtensionsModule],
  controllers: [FeedsController],
  providers: [EventSource],
  exports: [EventSource],
})
export class FeedsModule {}
