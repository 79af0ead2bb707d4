import { Global, Module } from '@nestjs/common';
import { DatabaseMonitor } from './database-monitor.js';

@Global()
@Module({ providers: [DatabaseMonitor], exports: [DatabaseMonitor] })
export class DatabaseModule {}
