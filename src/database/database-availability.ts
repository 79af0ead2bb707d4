import {
  CallHandler,
  CanActivate,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DatabaseMonitor, databaseUnavailable } from './database-monitor.js';
import { ReplicaRouter } from './replica-router.js';
import { SharedGeneration } from './shared-generation.js';

const WITHOUT_DATABASE = 'cal:without-database';

/** For handlers that never need the database (docs from memory) or report on it (/health). */
export const WithoutDatabase = () => SetMetadata(WITHOUT_DATABASE, true);

const exempt = (reflector: Reflector, context: ExecutionContext) =>
  reflector.getAllAndOverride<boolean>(WITHOUT_DATABASE, [
    context.getHandler(),
    context.getClass(),
  ]);

/**
 * First global guard: while the database is down, answer 503 before touching it; otherwise catch
 * up with the writes of other processes (SharedGeneration) before any cache is consulted.
 */
@Injectable()
export class DatabaseAvailableGuard implements CanActivate {
  constructor(
    private readonly monitor: DatabaseMonitor,
    private readonly reflector: Reflector,
    private readonly generation: SharedGeneration,
    private readonly replicas: ReplicaRouter,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (exempt(this.reflector, context)) return true;
    if (this.monitor.isDown) throw databaseUnavailable();
    const method = context.switchToHttp().getRequest<Request>().method;
    // A read goes to a replica that has applied every write this process knows of (once caught up).
    const route = () => {
      // The database may have gone away while this request caught up: answer 503 now.
      if (this.monitor.isDown) throw databaseUnavailable();
      if (method === 'GET' || method === 'HEAD') this.replicas.routeRead();
      return true;
    };
    const caughtUp = this.generation.sync();
    return caughtUp ? caughtUp.then(route) : route();
  }
}

/**
 * Releases a request whose handler waits on a database that has just gone away (503). A write
 * request answers only once its write is known to the other processes (SharedGeneration).
 */
@Injectable()
export class DatabaseAvailabilityInterceptor implements NestInterceptor {
  constructor(
    private readonly monitor: DatabaseMonitor,
    private readonly reflector: Reflector,
    private readonly generation: SharedGeneration,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (exempt(this.reflector, context)) return next.handle();
    const handled = this.monitor.guard(lastValueFrom(next.handle(), { defaultValue: undefined }));
    const method = context.switchToHttp().getRequest<Request>().method;
    if (method === 'GET' || method === 'HEAD' || !this.generation.enabled) return from(handled);
    return from(
      handled.then(async (body) => {
        await this.generation.flushed();
        return body;
      }),
    );
  }
}
