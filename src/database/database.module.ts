import { Global, Module } from '@nestjs/common';
import { DatabaseMonitor } from './database-monitor.js';
import { ScheduledPublications } from './scheduled-publications.js';

@Global()
@Module({
  providers: [DatabaseMonitor, ScheduledPublications],
  exports: [DatabaseMonitor, ScheduledPublications],
})
export class DatabaseModule {}
