import { Module } from '@nestjs/common';
import { Drain } from './drain.js';
import { HealthController } from './health.controller.js';

@Module({ controllers: [HealthController], providers: [Drain], exports: [Drain] })
export class HealthModule {}
