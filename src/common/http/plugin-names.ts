import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { namespaceOf, PLUGIN_NAMESPACE } from './links.js';

/** CONTRACT §6 "Names": ours → the plugin's, for answers under the plugin's namespace. */
const PLUGIN_NAMES: Readonly<Record<string, string>> = {
  cal_events: 'tribe_events',
  cal_venue: 'tribe_venue',
  cal_organizer: 'tribe_organizer',
  cal_events_cat: 'tribe_events_cat',
};

/**
 * Under the plugin's namespace (`/wp-json/tribe/events/v1`, rest-root.ts) an answer carries the
 * plugin's names wherever CONTRACT §6 renamed them: a term's `taxonomy` (`tribe_events_cat`) and
 * the post type of the query-form page URLs (`{site}/?post_type=tribe_events&p=12`). Links to
 * the REST routes already name the namespace the client addressed (restBase). Installed inside
 * the response cache, which keys its entries by namespace, so a cached answer is the renamed one.
 */
@Injectable()
export class PluginNamesInterceptor implements NestInterceptor {
  private readonly postTypeUrl: string;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'siteUrl'>) {
    this.postTypeUrl = `${config.siteUrl}/?post_type=`;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (namespaceOf(req) !== PLUGIN_NAMESPACE) return next.handle();
    return next.handle().pipe(map((body: unknown) => this.rename(body, undefined)));
  }

  private rename(value: unknown, key: string | undefined): unknown {
    if (typeof value === 'string') return this.renameString(value, key);
    if (Array.isArray(value)) return value.map((item) => this.rename(item, undefined));
    if (value === null || typeof value !== 'object' || !isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = this.rename(v, k);
    return out;
  }

  private renameString(value: string, key: string | undefined): string {
    if (key === 'taxonomy') return PLUGIN_NAMES[value] ?? value;
    if (!value.startsWith(this.postTypeUrl)) return value;
    const rest = value.slice(this.postTypeUrl.length);
    const end = rest.indexOf('&');
    const type = end < 0 ? rest : rest.slice(0, end);
    const renamed = PLUGIN_NAMES[type];
    return renamed ? `${this.postTypeUrl}${renamed}${end < 0 ? '' : rest.slice(end)}` : value;
  }
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
