import { Injectable, PipeTransform } from '@nestjs/common';
import { noRoute } from '../errors/api-error.js';

/**
 * `{id}` is `\d+` in WordPress routes (leading zeros allowed). Express 5 has no regex params, so a
 * non-digit segment reaches the handler and is answered as the route it is not: 404 rest_no_route.
 */
@Injectable()
export class RouteIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d+$/.test(value) || value.length > 15) throw noRoute();
    return Number(value);
  }
}
