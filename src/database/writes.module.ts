import { Module } from '@nestjs/common';
import { Writes } from './writes.js';
import { CacheModule } from '../cache/cache.module.js';

/**
 * The one door for writes (Writes), for every module of the app and the CLI.
 */
@Module({
  imports: [CacheModule],
  providers: [Writes],
  exports: [Writes],
})
export class WritesModule {}
