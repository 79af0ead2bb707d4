import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LRUCache } from 'lru-cache';
import { NAMESPACE } from '../common/http/links.js';
import { WithoutDatabase } from '../database/database-availability.js';

/**
 * The framework ceiling for `npm run bench`: a route of the same app, through the same
 * middleware, guards, interceptors and serializer, that returns a fixed JSON body of a given
 * size without touching the database. Registered only when BENCH_ROUTES=true (AppConfig
 * benchRoutes), which `npm run bench` sets for the server it starts; its memory is bounded.
 */
@ApiExcludeController()
@WithoutDatabase()
@Controller(`${NAMESPACE}/_bench`)
export class BenchController {
  /** Built bodies by size: at most 16 of them and 8 MB of JSON (a body is at most 1 MB). */
  private readonly bodies = new LRUCache<number, object>({
    max: 16,
    maxSize: 8 * 1024 * 1024,
    sizeCalculation: (_, size) => size,
  });

  @Get('fixed')
  fixed(@Query('bytes') bytes?: string) {
    const size = Math.min(Math.max(Number(bytes) || 2048, 64), 1_000_000);
    let body = this.bodies.get(size);
    if (!body) {
      // Items shaped like list entries, so serialization work resembles a real answer.
      const item = { id: 1, title: 'Fixed', slug: 'fixed', status: 'publish', filler: '' };
      const itemSize = JSON.stringify(item).length + 1;
      const count = Math.max(1, Math.floor(size / (itemSize + 40)));
      const filler = 'x'.repeat(Math.max(0, Math.floor(size / count) - itemSize));
      body = {
        events: Array.from({ length: count }, (_, i) => ({ ...item, id: i + 1, filler })),
        total: count,
      };
      this.bodies.set(size, body);
    }
    return body;
  }
}
