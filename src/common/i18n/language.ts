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

/** `/hu`, `/ro/...`, `/en?x`: a whole language segment at the start of what follows. */
const LANGUAGE_SEGMENT = /^\/(en|hu|ro)(?=\/|\?|$)/i;

/**
 * Express middleware, installed before Nest routes anything: strips a whole-segment language
 * prefix, before or just after BASE_PATH or `/wp-json` (`/hu/wp-json/cal/...` or `/wp-json/hu/cal/...`), so
 * one set of controllers serves every language. Generated links put it after BASE_PATH.
 * BASE_PATH is compared as text (case-insensitively, as URLs are routed here), never built into
 * a pattern, so that every pattern stays a constant the ReDoS audit can check.
 */
export function languagePrefix(defaultLanguage: Language, basePath: string) {
  // WordPress's REST root too (`/wp-json/hu/tribe/events/v1`, src/common/http/rest-root.ts).
  const starts = [...new Set(['', basePath, '/wp-json'])];
  return (req: Request, _res: Response, next: NextFunction) => {
    const r = req as LangRequest;
    r.defaultLanguage = defaultLanguage;
    for (const start of starts) {
      if (start && req.url.slice(0, start.length).toLowerCase() !== start.toLowerCase()) continue;
      const match = LANGUAGE_SEGMENT.exec(req.url.slice(start.length));
      if (!match) continue;
      r.pathLanguage = match[1].toLowerCase() as Language;
      r.pathPrefix = `/${r.pathLanguage}`;
      req.url =
        req.url.slice(0, start.length) + req.url.slice(start.length + match[0].length) || '/';
      break;
    }
    next();
  };
}
