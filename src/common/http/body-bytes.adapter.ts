import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, except that an answer given as bytes is sent as they are
 * (`res.send`, with its ETag and Content-Length): JsonBody writes JSON answers as UTF-8 bytes,
 * and Nest's own reply() would serialize a Buffer as a JSON object of its own.
 */
export class BodyBytesAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    return response.send(body);
  }
}
