import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/config.js';

/** The embeds' paths, after the language prefix is taken off (`/embed/events/…`). */
const EMBED_PATH = /^\/embed\/events(\/|$)/;

/**
 * Express middleware, after helmet: the embeds under `/embed/` may be framed by the origins of
 * EMBED_ORIGINS (CSP `frame-ancestors`, CONTRACT §7), which X-Frame-Options cannot name, so it
 * goes on them. Without EMBED_ORIGINS they keep every page's policy: the site's own pages only.
 */
export function embedFraming(config: Pick<AppConfig, 'embedOrigins'>) {
  const origins = config.embedOrigins;
  const ancestors = origins === '*' ? '*' : ["'self'", ...origins].join(' ');
  const open = origins === '*' || origins.length > 0;
  return (req: Request, res: Response, next: NextFunction) => {
    if (open && EMBED_PATH.test(req.path)) {
      const policy = res.getHeader('Content-Security-Policy');
      if (typeof policy === 'string') {
        res.setHeader(
          'Content-Security-Policy',
          policy.replace(/frame-ancestors [^;]*/, `frame-ancestors ${ancestors}`),
        );
      }
      res.removeHeader('X-Frame-Options');
    }
    next();
  };
}
