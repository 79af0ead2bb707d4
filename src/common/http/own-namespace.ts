import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { noRoute } from '../errors/api-error.js';
import { namespaceOf, PLUGIN_NAMESPACE } from './links.js';

/**
 * For this service's own routes, not the plugin's (webhooks, the recurrence preview): under the
 * plugin's namespace (`tribe/events/v1`) they do not exist (404 rest_no_route), before anything
 * else is checked.
 */
@Injectable()
export class OwnNamespaceOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (namespaceOf(context.switchToHttp().getRequest<Request>()) === PLUGIN_NAMESPACE) {
      throw noRoute();
    }
    return true;
  }
}
