import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { carriesCredentials } from '../common/http/credentials.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable, of } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { VersionedCache } from './versioned-cache.js';
import type { Tags } from './dependencies.js';
import { WriteVersion } from './write-version.js';
import { rawHeaderNames, Rendered, setEtag } from '../common/http/body-bytes.adapter.js';
import { compressible, gzipped } from '../common/http/compression.js';
import { PUBLIC_REVALIDATE } from '../common/http/conditional.js';
import { JsonBody, JsonChunks, unshared } from '../common/http/json-body.js';
import { namespaceOf } from '../common/http/links.js';
import { CACHED_READS, type CachedReadsOptions } from './cached-reads.js';
import { ANYTHING, collectInto } from './dependencies.js';

interface Entry {
  /**
   * The bytes sent: serialized JSON, or a feed's, or a page's too small to compress. None for a
   * compressible page, kept as its gzip copy alone: most readers take gzip, and the few that do
   * not get the page decompressed (Rendered.compressed). Both copies of 500 event pages were 5 MB
   * of issue 53's memory scenario, where the gzip copies alone are about 0.6 MB.
   */
  body?: Buffer;
  /** A compressible page's gzip copy (compression.ts), made once when it is stored. */
  gzip?: Buffer;
  /**
   * Headers the handler and interceptors set (X-TEC-Total, X-TEC-TotalPages, ETag;
   * Content-Type and Last-Modified of a page or a feed).
   */
  headers: Array<[string, string | number | string[]]>;
}

/** The bytes an entry keeps: its body, and a page's gzip copy. */
const sizeOf = (entry: Entry) => (entry.body?.length ?? 0) + (entry.gzip?.length ?? 0);

/**
 * Serialized answers to anonymous GETs, by URL. An entry is used only while nothing it depends on
 * has changed since it was computed (its tags, collected while its handler ran, or any write for
 * controllers that do not track them: WriteVersion, so a read always reflects the writes before
 * it, BEHAVIOR §1.8; a scheduled record reaching its date bumps it too, ScheduledPublications)
 * and for at most RESPONSE_CACHE_TTL_MS, which bounds how late the other changes driven by the
 * clock alone (the default date window at midnight, `only_with_upcoming`) are seen. Least
 * recently used entries go first beyond the entry and byte budgets.
 */
@Injectable()
export class ResponseCache {
  readonly ttlMs: number;
  readonly maxEntries = 2_000;
  readonly maxBytes = 64 * 1024 * 1024;
  /** Bounded by entries and by the bytes of the stored bodies; least recently used go first. */
  private readonly entries: VersionedCache<Entry>;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'responseCacheTtlMs'>,
    versions: WriteVersion,
  ) {
    this.ttlMs = config.responseCacheTtlMs;
    this.entries = new VersionedCache<Entry>(versions, this.ttlMs, {
      name: 'responses',
      max: this.maxEntries,
      maxSize: this.maxBytes,
      // A body larger than maxEntrySize is not stored at all.
      maxEntrySize: this.maxBytes / 16,
      sizeOf,
    });
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /**
   * The entry to serve for `key`, if any. One that can no longer be served stays stored until
   * the answer computed again replaces it (`set`), which keeps its bytes when they are the same.
   */
  get(key: string, now = Date.now()): Entry | undefined {
    return this.entries.get(key, now, true);
  }

  /**
   * The bytes stored for `key` (or a page's gzip copy) if they are `bytes`, whose ETag is
   * `etag`, whether or not they can still be served: an answer computed again after it expired,
   * with nothing it shows changed, is then sent and kept as the same Buffers. Every kept answer
   * outlives a young-generation collection, so a new copy of it each second became
   * old-generation garbage (and malloc'd memory) until the next full collection: tens of MB in
   * issue 53's memory scenario; a page's gzip copy is not made again either. A page kept
   * compressed only is the same when its ETag is (the length and SHA-1 of its plain bytes).
   */
  same(key: string, bytes: Buffer, etag?: unknown): Pick<Entry, 'body' | 'gzip'> | undefined {
    const stored = this.entries.stored(key);
    if (!stored) return undefined;
    if (stored.body) return stored.body.equals(bytes) ? stored : undefined;
    const kept = stored.headers.find(([name]) => name.toLowerCase() === 'etag')?.[1];
    return etag !== undefined && kept === etag ? stored : undefined;
  }

  /**
   * Stores an answer computed from what was read at write version `version`, depending on
   * `tags` (on anything if undefined).
   */
  set(key: string, version: number, entry: Entry, tags?: Tags, now = Date.now()): void {
    if (sizeOf(entry) > this.maxBytes / 16) return;
    this.entries.set(key, version, entry, now, tags);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The version to store with an answer: taken before it is computed. */
  version(): number {
    return this.entries.version();
  }
}

/**
 * Serves repeated anonymous reads of the opted-in controllers from ResponseCache. Runs after
 * the guards (an outage still answers 503, a bad language 400), so a hit skips the pipes, the
 * handler, the database and JSON serialization. Authenticated requests (their answers depend
 * on the user) and requests with a body (`i18n_language` may come in one) are never cached;
 * only 200 answers are stored.
 */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(
    private readonly cache: ResponseCache,
    private readonly reflector: Reflector,
    private readonly json: JsonBody,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const options = this.options(req, context);
    if (!options) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    // By namespace too: the same URL never answers both, but a `?rest_route=` form and a path
    // form must not share an entry with the other namespace's names. By the routed path too:
    // `GET /events` with `Accept: text/calendar` is routed to the calendar (calendarNegotiation).
    const key = `${namespaceOf(req)} ${req.path} ${req.originalUrl}`;
    const hit = this.cache.get(key);
    if (hit) {
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      if (!res.hasHeader('Content-Type')) res.type('json');
      return of(hit.body ?? Rendered.compressed(200, hit.gzip!));
    }
    const version = this.cache.version();
    const before = new Set(rawHeaderNames(res));
    // The handler's reads say what the answer depends on where they run: in the collection,
    // both when the chain is built (handle()) and when it is subscribed to. An interceptor later
    // in the chain may call handle() only on subscription, from a promise's callback: its
    // context is then the subscriber's.
    const collected = options.tracked ? new Set<string>() : undefined;
    const handled = collected
      ? new Observable<unknown>((subscriber) =>
          collectInto(collected, () => next.handle().subscribe(subscriber)),
        )
      : next.handle();
    // Nothing collected would be a read that said nothing: it may depend on anything.
    const tags = () => (collected?.size && !collected.has(ANYTHING) ? [...collected] : undefined);
    return handled.pipe(
      map((body: unknown) => {
        // An answer narrowed to one reader (opened with a password) is never kept.
        if (res.getHeader('Cache-Control') !== PUBLIC_REVALIDATE) return body;
        if (body instanceof Rendered) {
          if (body.status !== 200) return body;
          setEtag(res, new JsonChunks([body.bytes]));
          const same = this.cache.same(key, body.bytes, res.getHeader('ETag'));
          const headers = added(res, before);
          if (compressible(res, body.bytes)) {
            // Compressed once here, whichever encoding this request takes: most will take gzip.
            const gzip = same?.gzip ?? gzipped(body.bytes);
            this.cache.set(key, version, { gzip, headers }, tags());
            return new Rendered(200, body.bytes, gzip);
          }
          const bytes = same?.body ?? unshared(body.bytes);
          this.cache.set(key, version, { body: bytes, headers }, tags());
          return new Rendered(200, bytes);
        }
        if (res.statusCode !== 200 || body === null || typeof body !== 'object') return body;
        const chunks = this.json.chunks(body)!;
        // Kept with the entry: Express then hashes the body neither now nor on a hit.
        setEtag(res, chunks);
        // A short answer joined or encoded in one piece is a slice of Node's shared pool.
        const joined = chunks.join();
        const json = this.cache.same(key, joined)?.body ?? unshared(joined);
        this.cache.set(key, version, { body: json, headers: added(res, before) }, tags());
        res.type('json');
        return json;
      }),
    );
  }

  /** How the answer is cached, or undefined when it is not. */
  private options(req: Request, context: ExecutionContext): CachedReadsOptions | undefined {
    if (!this.cache.enabled || req.method !== 'GET' || carriesCredentials(req) || hasBody(req))
      return undefined;
    return this.reflector.getAllAndOverride<CachedReadsOptions | undefined>(CACHED_READS, [
      context.getHandler(),
      context.getClass(),
    ]);
  }
}

/** The headers set since `before`, with their raw names (X-TEC-Total, not x-tec-total). */
const added = (res: Response, before: Set<string>): Entry['headers'] =>
  rawHeaderNames(res)
    .filter((name) => !before.has(name))
    .map((name) => [name, res.getHeader(name)!]);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}
