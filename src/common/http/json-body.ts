import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

/**
 * How deep the envelope of an answer goes before its records: a list's object, its array, the
 * records. Below that, JSON.stringify writes everything at once.
 */
const ENVELOPE_DEPTH = 2;

/**
 * Where JsonBody finds the bytes of a payload kept already encoded (the record cache provides
 * it): JsonBody knows no cache, only this question.
 */
export abstract class KeptJson {
  /** The UTF-8 JSON of `payload` as it was kept, or undefined for a payload not kept. */
  abstract jsonOf(payload: object): Buffer | undefined;
}

/**
 * Serializes answers to the UTF-8 bytes of what JSON.stringify would write, but splices in the
 * bytes that the RecordCache encoded once for each record payload it keeps, instead of writing
 * and encoding them again on every request: a list of cached events costs its envelope. Bytes,
 * not a string: a joined string of a page (two bytes a character once one of them
 * is not Latin-1, as in Hungarian and Romanian text) had to be encoded again for the socket, which
 * took about 0.5 ms of a 200 KB answer, and it went straight to V8's large-object space.
 */
@Injectable()
export class JsonBody {
  constructor(private readonly records: KeptJson) {}

  /**
   * The UTF-8 bytes of `value`'s JSON as the pieces they are made of: the kept payloads' own
   * Buffers, and the text between them encoded a run at a time. Sent as they are (one writev),
   * a page costs no copy of its own; undefined when JSON has none.
   */
  chunks(value: unknown): JsonChunks | undefined {
    // An answer without a kept payload (a record just written, an error, a list of terms) is
    // JSON.stringify's at once: written key by key it cost an event create about 20 µs.
    if (!this.keepsAny(value, ENVELOPE_DEPTH)) {
      const json = JSON.stringify(value) as string | undefined;
      return json === undefined ? undefined : new JsonChunks([Buffer.from(json)]);
    }
    const parts: Array<string | Buffer> = [];
    if (!this.write(value, ENVELOPE_DEPTH, parts)) return undefined;
    const chunks: Buffer[] = [];
    let text = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        text += part;
        continue;
      }
      if (text) chunks.push(Buffer.from(text));
      text = '';
      chunks.push(part);
    }
    if (text) chunks.push(Buffer.from(text));
    return new JsonChunks(chunks);
  }

  /** Whether `write` would splice a kept payload's bytes into the JSON of `value`. */
  private keepsAny(value: unknown, depth: number): boolean {
    if (value === null || typeof value !== 'object') return false;
    if (this.records.jsonOf(value) !== undefined) return true;
    if (depth <= 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
    if (Array.isArray(value)) return value.some((item) => this.keepsAny(item, depth - 1));
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    for (const item of Object.values(value)) if (this.keepsAny(item, depth - 1)) return true;
    return false;
  }

  /** Appends the JSON of `value` to `parts`; false when JSON has none (undefined, a function). */
  private write(value: unknown, depth: number, parts: Array<string | Buffer>): boolean {
    if (value !== null && typeof value === 'object') {
      const json = this.records.jsonOf(value);
      if (json !== undefined) {
        parts.push(json);
        return true;
      }
      if (depth > 0 && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
        if (Array.isArray(value)) {
          parts.push('[');
          value.forEach((item, i) => {
            if (i) parts.push(',');
            if (!this.write(item, depth - 1, parts)) parts.push('null');
          });
          parts.push(']');
          return true;
        }
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto === Object.prototype || proto === null) {
          parts.push('{');
          let first = true;
          for (const [key, item] of Object.entries(value)) {
            const at = parts.length;
            parts.push(first ? '' : ',', JSON.stringify(key), ':');
            if (this.write(item, depth - 1, parts)) first = false;
            else parts.length = at;
          }
          parts.push('}');
          return true;
        }
      }
    }
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) return false;
    parts.push(json);
    return true;
  }
}

/**
 * Sends object answers as JsonBody writes them, as res.json() would have (its content type
 * unless the handler chose one; the bytes go out as they are, BodyBytesAdapter). Outside the
 * response cache, which then stores and returns the bytes; strings, streams and empty answers
 * pass as they are.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  constructor(private readonly json: JsonBody) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        if (body === null || typeof body !== 'object' || !isJsonValue(body)) return body;
        if (!res.get('Content-Type')) res.type('json');
        return this.json.chunks(body);
      }),
    );
  }
}

/** Plain objects and arrays: what res.json() would serialize (not files, buffers or streams). */
export function isJsonValue(body: object): boolean {
  if (Array.isArray(body)) return true;
  const proto = Object.getPrototypeOf(body) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The UTF-8 bytes of `text` in memory of their own, for bytes that a cache keeps. Buffer.from
 * cuts a string under 32 KB out of Node's shared pool (64 KB blocks on Node 24), and a kept slice
 * holds its whole block: the record cache's payloads of 2-3 KB each held 64 KB blocks that the
 * request's short-lived buffers had shared, about 20 MB of them after issue 53's memory scenario.
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** `bytes` in memory of their own (ownBytes): copied when they are a slice of a larger block. */
export function unshared(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.length === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** A JSON answer's UTF-8 bytes, in the pieces JsonBody wrote; nobody changes them afterwards. */
export class JsonChunks {
  readonly length: number;

  constructor(readonly chunks: readonly Buffer[]) {
    this.length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** The bytes in one Buffer (the response cache keeps them so). */
  join(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
  }
}
