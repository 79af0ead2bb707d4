import type { Request, Response } from 'express';
import { gzipSync } from 'node:zlib';
import { unshared } from './json-body.js';

/**
 * Pages (CONTRACT §7) are sent gzip-compressed to a client whose Accept-Encoding takes gzip: a
 * month view's 47 KB travel as about 6 KB. Below this many bytes compression is not worth its
 * CPU (a few headers' worth).
 */
const MIN_BYTES = 1024;

/**
 * zlib's default for a page the response cache keeps (compressed once, sent many times): most of
 * level 9's ratio on HTML at a fraction of its time.
 */
const KEPT_LEVEL = 6;

/**
 * For a page compressed for one answer (not kept: computed for its reader, or the cache off):
 * level 1 takes a third of level 6's time (0.08 against 0.26 ms for a 65 KB month view) for
 * about 20 % more bytes.
 */
const ONCE_LEVEL = 1;

/**
 * Whether an answer is one that is sent compressed to whoever asks: HTML (the pages, whose
 * Content-Type their handler set), of at least MIN_BYTES, not already encoded.
 */
export function compressible(res: Response, bytes: Buffer): boolean {
  const type = res.getHeader('Content-Type');
  return (
    bytes.length >= MIN_BYTES &&
    typeof type === 'string' &&
    type.startsWith('text/html') &&
    !res.hasHeader('Content-Encoding')
  );
}

/**
 * The gzip copy of a compressible answer: made once for a kept page (ResponseCache), in memory
 * of its own: zlib answers a slice of a 64 KB block, and a kept slice holds the whole block (a
 * 5 KB page's copy held 64 KB: 6.9 MB for 105 pages after issue 53's memory scenario).
 */
export const gzipped = (bytes: Buffer): Buffer => unshared(gzipSync(bytes, { level: KEPT_LEVEL }));

/** The gzip copy of an answer sent once (no kept copy): the quick level. */
export const gzippedOnce = (bytes: Buffer): Buffer => gzipSync(bytes, { level: ONCE_LEVEL });

/**
 * Whether the request's Accept-Encoding prefers gzip to no encoding (`gzip`, `*`; not `gzip;q=0`,
 * nor `identity` alone, nor a higher q for identity). A HEAD request gets the plain answer's
 * headers: it has no body to compress.
 */
export const wantsGzip = (req: Request): boolean =>
  req.method !== 'HEAD' && req.acceptsEncodings('gzip', 'identity') === 'gzip';

/**
 * The ETag of an answer's gzip variant: its plain ETag with `-gzip` before the closing quote
 * (`"1f4-abc…"` → `"1f4-abc…-gzip"`). A strong validator names one representation's bytes
 * (RFC 9110 §8.8.3), so the two variants of a page have two; each answers 304 to its own.
 */
export const gzipEtag = (etag: string): string =>
  etag.endsWith('"') ? `${etag.slice(0, -1)}-gzip"` : etag;
