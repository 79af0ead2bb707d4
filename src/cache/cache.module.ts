import { Module } from '@nestjs/common';
import { KeptJson } from '../common/http/json-body.js';
import { Caches } from './caches.js';
import { RecordCache } from './record-cache.js';
import { ResponseCache } from './response-cache.js';
import { WriteVersion } from './write-version.js';

const PROVIDERS = [
  WriteVersion,
  Caches,
  RecordCache,
  ResponseCache,
  // The encoded payloads that answers splice in (JsonBody).
  { provide: KeptJson, useExisting: RecordCache },
];

/**
 * The read caches and the write version that drops them (docs/caches.md), for every module of
 * the app and the CLI: the payloads of single records (RecordCache) and the factory of the
 * repositories' list caches (Caches). Every resource module and the writes import it, and none
 * may hold a cache of its own. The answers to anonymous reads
 * (ResponseCache) are served by ResponseCacheInterceptor, which the app installs.
 */
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class CacheModule {}
