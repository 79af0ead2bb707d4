import {
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';
import type { Request } from 'express';
import { ANONYMOUS, type Actor, type AuthRequest } from '../actor.js';
import { APP_CONFIG, type AppConfig, type Language } from '../../config/config.js';
import { languageOf } from '../i18n/language.js';
import { restBase } from './links.js';

/** What services and mappers need to know about the request, built once per request. */
export interface RequestContext {
  actor: Actor;
  language: Language;
  /** `{SITE_URL}{BASE_PATH}{/lang}/cal/events/v1` */
  restBase: string;
  siteUrl: string;
  config: AppConfig;
  /** The raw query string parameters (some routes read undeclared ones, e.g. `password`). */
  query: Record<string, unknown>;
  /** The raw body of a write (the extension surface's write fragments read theirs from it). */
  body?: unknown;
}

export function buildRequestContext(req: Request, config: AppConfig): RequestContext {
  return {
    actor: (req as AuthRequest).actor ?? ANONYMOUS,
    language: languageOf(req),
    restBase: restBase(config, req),
    siteUrl: config.siteUrl,
    config,
    query: req.query ?? {},
    body: req.body as unknown,
  };
}

/**
 * Builds the RequestContext with the configuration loaded at start (APP_CONFIG), injected: a
 * parameter decorator has no injector, so @Ctx() hands the request to this pipe.
 */
@Injectable()
class RequestContextPipe implements PipeTransform<Request, RequestContext> {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  transform(req: Request): RequestContext {
    return buildRequestContext(req, this.config);
  }
}

const currentRequest = createParamDecorator((_: unknown, context: ExecutionContext): Request =>
  context.switchToHttp().getRequest<Request>(),
);

/** `@Ctx() ctx: RequestContext` in a handler. */
export const Ctx = (): ParameterDecorator => currentRequest(RequestContextPipe);
