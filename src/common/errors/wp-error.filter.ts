import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { ApiError, ApiErrorData, Text } from './api-error.js';
import { languageOf } from '../i18n/language.js';
import { QueryFailedError } from 'typeorm';

/** Maps what Nest, Express and body-parser throw to the WordPress error codes. */
function toApiError(error: unknown, logger: Logger): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const body = error.getResponse();
    const message = typeof body === 'object' && 'message' in body ? String(body.message) : '';
    // Nest's router answers unknown paths and wrong methods with a NotFoundException.
    if (status === 404) return new ApiError('rest_no_route', 404);
    if (status === 413) return new ApiError('rest_payload_too_large', 413);
    if (status === 429) return new ApiError('rest_too_many_requests', 429);
    if (status === 400 && /JSON/i.test(message)) return invalidJson(message);
    if (status < 500) return new ApiError('rest_bad_request', status);
  }
  // body-parser errors (malformed JSON, too large, bad charset) carry `type` and `status`.
  const e = error as { type?: string; status?: number; message?: string } | null;
  if (e && typeof e.type === 'string' && typeof e.status === 'number' && e.status < 500) {
    if (e.type === 'entity.parse.failed') return invalidJson(e.message ?? '');
    if (e.type === 'entity.too.large') return new ApiError('rest_payload_too_large', 413);
    return new ApiError('rest_bad_request', e.status);
  }
  if (isDatabaseUnavailable(error)) {
    logger.error(`database unavailable: ${(error as Error).message}`);
    return new ApiError('rest_db_unavailable', 503);
  }
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return new ApiError('rest_internal_error', 500);
}

/** The parser's message up to its ` in JSON at position N` tail (cut as text: no pattern). */
function invalidJson(detail: string): ApiError {
  const tail = detail.indexOf(' in JSON at position');
  return new ApiError('rest_invalid_json', 400, {
    json_error_code: 4,
    json_error_message: (tail < 0 ? detail : detail.slice(0, tail)) || 'Syntax error',
  });
}

const UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|PROTOCOL_CONNECTION_LOST|EPIPE|connection is in closed state|Can't add new command when connection is in closed state|Pool is closed|ER_CON_COUNT_ERROR|SQLITE_BUSY/i;

function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? '';
  if (error instanceof QueryFailedError || code)
    return UNAVAILABLE.test(`${code} ${error.message}`);
  return UNAVAILABLE.test(error.message);
}

@Catch()
export class WpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('WpErrorFilter');

  constructor(private readonly i18n: I18nService) {}

  catch(error: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const e = toApiError(error, this.logger);
    const lang = languageOf(req);
    const translate = (text: Text): string =>
      this.i18n.translate(text.key, { lang, args: text.args, defaultValue: text.key });
    const data: Record<string, unknown> = { status: e.status };
    for (const [key, value] of Object.entries(e.data)) {
      if (key === 'params' && value) {
        data.params = mapValues(value as Record<string, Text>, translate);
      } else if (key === 'details' && value) {
        const details = mapValues(value as NonNullable<ApiErrorData['details']>, (d) => ({
          ...d,
          message: translate(d.message),
        }));
        data.details = Object.keys(details).length ? details : [];
      } else {
        data[key] = value;
      }
    }
    // The plugin's code and message, and what a newcomer's curl -d without a header needs to hear.
    const message =
      MISSING_OR_INVALID.has(e.code) && jsonSentAsForm(req)
        ? `${withStop(translate(e.text))} ${translate({ key: 'errors.json_sent_as_form' })}`
        : translate(e.text);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
    res
      .status(e.status)
      .type('application/json; charset=UTF-8')
      .send(JSON.stringify({ code: e.code, message, data }));
  }
}

/** A sentence followed by another: the plugin's messages end without a full stop. */
const withStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

const MISSING_OR_INVALID = new Set(['rest_missing_callback_param', 'rest_invalid_param']);

/**
 * A JSON body sent as a form: `curl -d '{"title":…}'` without `Content-Type: application/json`
 * sends `application/x-www-form-urlencoded`, which parses into one odd parameter named like the
 * JSON text (`{"title":"Jazz night", …`), so the real parameters are "missing" (the plugin
 * answers the same). The body is bounded by the body parser (1 MB, 1,000 parameters).
 */
function jsonSentAsForm(req: Request): boolean {
  if (!req.is('application/x-www-form-urlencoded')) return false;
  const body: unknown = req.body;
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.keys(body).some((name) => /^\s*[[{]/.test(name))
  );
}

function mapValues<A, B>(o: Record<string, A>, f: (a: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}
