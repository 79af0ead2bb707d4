import { ExecutionContext, Injectable } from '@nestjs/common';
import type { I18nResolver } from 'nestjs-i18n';
import type { Request } from 'express';
import { languageOf } from './language.js';

/** nestjs-i18n resolver: the same decision as everywhere else (query or body, then prefix). */
@Injectable()
export class CalLanguageResolver implements I18nResolver {
  resolve(context: ExecutionContext): string | undefined {
    const req = context.switchToHttp().getRequest<Request>();
    return req ? languageOf(req) : undefined;
  }
}
