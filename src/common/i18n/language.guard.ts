import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { isLanguage } from '../../config/config.js';
import { invalidParam, t } from '../errors/api-error.js';
import { languageParam } from './language.js';

/** Every route declares `i18n_language`; an unsupported value is a 400 on every route. */
@Injectable()
export class LanguageGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const value = languageParam(req);
    if (value !== undefined && !isLanguage(value)) {
      throw invalidParam('i18n_language', t('validation.language'));
    }
    return true;
  }
}
