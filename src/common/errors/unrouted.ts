import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { I18nService } from 'nestjs-i18n';
import { WpErrorFilter } from './wp-error.filter.js';

export type Handle = (req: Request, res: Response, callback?: (error?: unknown) => void) => void;

/**
 * What no route answered, Express would answer with its own HTML page (finalhandler): Nest's
 * not-found and error handlers cover only BASE_PATH when one is set. Every such request is
 * answered like any other error instead, `rest_no_route` 404 (or the error's own code) in the
 * WordPress shape, localized (CONTRACT §4).
 */
export function answerUnrouted(express: { handle: Handle }, i18n: I18nService): void {
  const filter = new WpErrorFilter(i18n);
  const handle = express.handle.bind(express);
  express.handle = (req, res, callback) =>
    handle(
      req,
      res,
      callback ??
        ((error?: unknown) => {
          if (res.headersSent) {
            res.end();
            return;
          }
          filter.catch(error ?? new NotFoundException(), httpHost(req, res));
        }),
    );
}

function httpHost(req: Request, res: Response): ArgumentsHost {
  return {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ArgumentsHost;
}
