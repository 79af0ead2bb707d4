import { Global, Module } from '@nestjs/common';
import { WriteVersion } from './write-version.js';
import { Writes } from './writes.js';

/**
 * The one door for writes (Writes) and the write version every read cache keys on, for every
 * module of the app and the CLI.
 */
@Global()
@Module({ providers: [WriteVersion, Writes], exports: [WriteVersion, Writes] })
export class WritesModule {}
