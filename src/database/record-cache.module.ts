import { Global, Module } from '@nestjs/common';
import { RecordCache } from './record-cache.js';

/** The payload cache of single records, for every reader (the app and the import CLI). */
@Global()
@Module({ providers: [RecordCache], exports: [RecordCache] })
export class RecordCacheModule {}
