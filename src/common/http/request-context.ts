import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ANONYMOUS, type Actor } from '../../auth/actor.js';
import type { AuthRequest } from '../../auth/auth.decorator.js';
import type { AppConfig, Language } from '../../config/config.js';
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
}

export function buildRequestContext(req: Request, config: AppConfig): RequestContext {
  return {
    actor: (req as AuthRequest).actor ?? ANONYMOUS,
    language: languageOf(req),
    restBase: restBase(config, req),
    siteUrl: config.siteUrl,
    config,
    query: (req.query ?? {}) as Record<string, unknown>,
  };
}

/** `@Ctx() ctx: RequestContext` in a handler. */
export const Ctx = createParamDecorator((_: unknown, context: ExecutionContext): RequestContext => {
  const req = context.switchToHttp().getRequest<Request>();
  const config = (req.app as unknown as { locals: { calConfig?: AppConfig } }).locals.calConfig;
  if (!config) throw new Error('configureApp() must run before requests are served');
  return buildRequestContext(req, config);
});
