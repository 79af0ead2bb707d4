import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { compressible, gzipEtag, gzippedOnce, wantsGzip } from './compression.js';
import { JsonChunks } from './json-body.js';

/**
 * A finished answer other than JSON (a page, a feed), returned by its handler: its status and
 * its bytes, its headers (Content-Type, Last-Modified, Location) already set on the response.
 * Returned rather than sent, so that the interceptors (the response cache) see it. `gzip` is
 * the compressed copy of a page when one was kept with it (ResponseCache): it is not made again.
 * A page the cache keeps compressed only is given by that copy alone (`Rendered.compressed`):
 * its plain bytes are made from it for the request that takes them (one without gzip).
 */
export class Rendered {
  private plain: Buffer | undefined;

  constructor(
    readonly status: number,
    bytes: Buffer,
    readonly gzip?: Buffer,
  ) {
    this.plain = bytes;
  }

  /** A compressible page known by its gzip copy alone (its plain bytes decompressed on demand). */
  static compressed(status: number, gzip: Buffer): Rendered {
    const page = new Rendered(status, EMPTY, gzip);
    page.plain = undefined;
    return page;
  }

  /** The plain bytes (decompressed from `gzip`, once, when only that copy was given). */
  get bytes(): Buffer {
    return (this.plain ??= gunzipSync(this.gzip!));
  }

  /** Whether this is a page compressed already, whose plain bytes may not be at hand. */
  get compressedOnly(): boolean {
    return this.plain === undefined;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Nest's Express adapter, except that an answer given as bytes is sent as they are: a Buffer
 * through `res.send` (with its ETag and Content-Length), a JSON answer in pieces (JsonChunks)
 * by `sendChunks`, a Rendered answer with its own status (`sendRendered`). Nest's own reply()
 * would serialize each as a JSON object of its own.
 */
export class BodyBytesAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof Rendered) return sendRendered(response, body);
    const bytes = Buffer.isBuffer(body) || body instanceof JsonChunks;
    if (!bytes) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    return Buffer.isBuffer(body) ? response.send(body) : sendChunks(response, body);
  }
}

/**
 * A Rendered answer with its status; a page (compression.ts) gzip-compressed when the request
 * takes gzip, under the ETag of that variant, and with `Vary: Accept-Encoding` either way.
 */
function sendRendered(res: Response, body: Rendered): Response {
  res.status(body.status);
  // A page kept compressed only was compressible when it was kept.
  if (!body.compressedOnly && !compressible(res, body.bytes)) return res.send(body.bytes);
  res.vary('Accept-Encoding');
  if (!wantsGzip(res.req)) return res.send(body.bytes);
  // The plain bytes' ETag (kept with a cached page), so that both variants derive from them.
  if (!res.get('ETag')) setEtag(res, new JsonChunks([body.bytes]));
  const etag = res.get('ETag');
  if (etag) res.setHeader('ETag', gzipEtag(etag));
  // A client whose copy is fresh gets a 304 (res.send makes it, as for the plain variant): no
  // body to compress, and no Content-Encoding (RFC 9110 §15.4.5).
  if (res.req.fresh) return res.send(Buffer.alloc(0));
  res.setHeader('Content-Encoding', 'gzip');
  return res.send(body.gzip ?? gzippedOnce(body.bytes));
}

/**
 * What `res.send(Buffer.concat(body.chunks))` does (Content-Length, the ETag when the app makes
 * them, 304 to a fresh conditional request, no body for HEAD), without joining the pieces into
 * a new Buffer: they go to the socket in one writev. The ETag is the one Express makes (the
 * `etag` package's strong form), hashed over the pieces.
 */
export function sendChunks(res: Response, body: JsonChunks): Response {
  if (!res.get('Transfer-Encoding')) res.setHeader('Content-Length', body.length);
  setEtag(res, body);
  if (res.req.fresh) res.status(304);
  if (res.statusCode === 204 || res.statusCode === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Transfer-Encoding');
    res.end();
    return res;
  }
  if (res.statusCode === 205) {
    res.setHeader('Content-Length', '0');
    res.removeHeader('Transfer-Encoding');
    res.end();
    return res;
  }
  if (res.req.method === 'HEAD') {
    res.end();
    return res;
  }
  // Corked: the headers and every piece leave together when end() uncorks.
  res.cork();
  for (const chunk of body.chunks) res.write(chunk);
  res.end();
  return res;
}

/**
 * Gives the answer the ETag Express would give these bytes, unless it has one or the app makes
 * none: `"<length in hex>-<27 characters of the SHA-1 in base64>"` (the `etag` package's strong
 * form), hashed over the pieces.
 */
export function setEtag(res: Response, body: JsonChunks): void {
  if (res.get('ETag') || typeof res.app.get('etag fn') !== 'function') return;
  res.setHeader('ETag', strongEtag(body));
}

function strongEtag(body: JsonChunks): string {
  if (body.length === 0) return '"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  const hash = createHash('sha1');
  for (const chunk of body.chunks) hash.update(chunk);
  return `"${body.length.toString(16)}-${hash.digest('base64').substring(0, 27)}"`;
}

/** Node has it on every outgoing message; @types/node declares it on ClientRequest only. */
export const rawHeaderNames = (res: Response): string[] =>
  (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
