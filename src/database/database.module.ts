import { Global, Module } from '@nestjs/common';
import { DatabaseMonitor } from './database-monitor.js';
import { ScheduledPublications } from './scheduled-publications.js';
import { SharedGeneration } from './shared-generation.js';

@Global()
@Module({
  providers: [DatabaseMonitor, ScheduledPublications, SharedGeneration],
  exports: [DatabaseMonitor, ScheduledPublications, SharedGeneration],
})
export class DatabaseModule {}
