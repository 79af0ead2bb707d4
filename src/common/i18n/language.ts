import type { NextFunction, Request, Response } from 'express';
import { isLanguage, Language } from '../../config/config.js';

export interface LangRequest extends Request {
  /** Language named by the `/en|/hu|/ro` path prefix, if the request came through one. */
  pathLanguage?: Language;
  /** The prefix as it appeared in the URL (`/hu`), kept for generated links. */
  pathPrefix?: string;
  defaultLanguage?: Language;
}

/** The single decision: `i18n_language` wins over the path prefix, which wins over the default. */
export function pickLanguage(
  source: { param?: unknown; pathLanguage?: Language },
  fallback: Language,
): Language {
  if (isLanguage(source.param)) return source.param;
  return source.pathLanguage ?? fallback;
}

/** `i18n_language` as the request gives it: query string first, then a parsed body. */
export function languageParam(req: Request): unknown {
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.i18n_language;
  if (fromQuery !== undefined) return fromQuery;
  const body = req.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' ? body.i18n_language : undefined;
}

export function languageOf(req: Request): Language {
  const r = req as LangRequest;
  return pickLanguage(
    { param: languageParam(req), pathLanguage: r.pathLanguage },
    r.defaultLanguage ?? 'en',
  );
}

const LANGUAGE_SEGMENT = '(en|hu|ro)(?=/|\\?|$)';

/**
 * Express middleware, installed before Nest routes anything: strips a whole-segment language
 * prefix, before or just after BASE_PATH (`/hu/wp-json/cal/...` or `/wp-json/hu/cal/...`), so
 * one set of controllers serves every language. Generated links put it after BASE_PATH.
 */
export function languagePrefix(defaultLanguage: Language, basePath: string) {
  const patterns = [new RegExp(`^()/${LANGUAGE_SEGMENT}`, 'i')];
  if (basePath) {
    const escaped = basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    patterns.push(new RegExp(`^(${escaped})/${LANGUAGE_SEGMENT}`, 'i'));
  }
  return (req: Request, _res: Response, next: NextFunction) => {
    const r = req as LangRequest;
    r.defaultLanguage = defaultLanguage;
    for (const pattern of patterns) {
      const match = pattern.exec(req.url);
      if (!match) continue;
      r.pathLanguage = match[2].toLowerCase() as Language;
      r.pathPrefix = `/${r.pathLanguage}`;
      req.url = match[1] + req.url.slice(match[0].length) || '/';
      break;
    }
    next();
  };
}
