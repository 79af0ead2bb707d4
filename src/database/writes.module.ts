import { Global, Module } from '@nestjs/common';
import { Writes } from './writes.js';

/**
 * The one door for writes (Writes), for every module of the app and the CLI.
 */
@Global()
@Module({ providers: [Writes], exports: [Writes] })
export class WritesModule {}
