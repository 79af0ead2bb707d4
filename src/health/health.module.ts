import { Module } from '@nestjs/common';
import { Drain } from './drain.js';
import { HealthController } from './health.controller.js';
import { DatabaseModule } from '../database/database.module.js';
import { AuthModule } from '../auth/auth.module.js';

@Module({
  imports: [AuthModule, DatabaseModule],
  controllers: [HealthController],
  providers: [Drain],
  exports: [Drain],
})
export class HealthModule {}
