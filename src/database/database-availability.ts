import {
  CallHandler,
  CanActivate,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DatabaseMonitor, databaseUnavailable } from './database-monitor.js';

const WITHOUT_DATABASE = 'cal:without-database';

/** For handlers that never need the database (docs from memory) or report on it (/health). */
export const WithoutDatabase = () => SetMetadata(WITHOUT_DATABASE, true);

const exempt = (reflector: Reflector, context: ExecutionContext) =>
  reflector.getAllAndOverride<boolean>(WITHOUT_DATABASE, [
    context.getHandler(),
    context.getClass(),
  ]) === true;

/** First global guard: while the database is down, answer 503 before touching it. */
@Injectable()
export class DatabaseAvailableGuard implements CanActivate {
  constructor(
    private readonly monitor: DatabaseMonitor,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.monitor.isDown && !exempt(this.reflector, context)) throw databaseUnavailable();
    return true;
  }
}

/** Releases a request whose handler waits on a database that has just gone away (503). */
@Injectable()
export class DatabaseAvailabilityInterceptor implements NestInterceptor {
  constructor(
    private readonly monitor: DatabaseMonitor,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (exempt(this.reflector, context)) return next.handle();
    return from(this.monitor.guard(lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
