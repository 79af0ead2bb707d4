import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import type { I18nService } from 'nestjs-i18n';
import type { AppConfig } from '../../config/config.js';
import { languageOf, languagePrefix, type LangRequest } from '../i18n/language.js';

export type QueryParser = (query: string) => Record<string, unknown>;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * Node's HTTP parser refuses some requests before Express sees them: a request line plus headers
 * over 16 KB (431), characters HTTP forbids in the URL or a header (400), a request that stalls
 * (408). By default Node answers those with an empty body; this answers them like every other
 * error, `{code, message, data: {status}}` as JSON (CONTRACT §4), with the statuses Node would
 * use (found by test/fuzz.e2e-spec.ts). The language is read from what arrived of the request
 * line (prefix, `i18n_language`), with the same rules as for any request; when the parser gave
 * up in a later packet than the request line's (a URL of many kilobytes), it is the default.
 */
export function answerClientErrors(
  server: Server,
  i18n: I18nService,
  config: AppConfig,
  queryParser: () => QueryParser | undefined,
): void {
  const pickLanguage = languagePrefix(config.defaultLanguage, config.basePath);
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    const s = socket as Socket & { _httpMessage?: { headersSent?: boolean } };
    // As Node's default handler: answer only when no response has started on this connection.
    if (error.code === 'ECONNRESET' || !s.writable || s._httpMessage?.headersSent) {
      s.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? 413
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? 408
            : 400;
    const code = status === 413 ? 'rest_payload_too_large' : 'rest_bad_request';
    const lang = requestLanguage(error.rawPacket, pickLanguage, queryParser());
    const message = i18n.translate(`errors.${code}`, { lang });
    const body = JSON.stringify({ code, message, data: { status } });
    s.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
        'Content-Type: application/json; charset=UTF-8\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/** The language of a request of which only the raw bytes (maybe truncated) are known. */
function requestLanguage(
  raw: Buffer | undefined,
  pickLanguage: ReturnType<typeof languagePrefix>,
  parseQuery: QueryParser | undefined,
): string {
  const line = /^[A-Z]+ (\S+)( HTTP\/)?/.exec(raw?.subarray(0, 32 * 1024).toString('latin1') ?? '');
  const probe = { url: line?.[1] ?? '/', query: {} } as LangRequest;
  pickLanguage(probe, {} as Response, () => undefined);
  let query = probe.url.includes('?') ? probe.url.slice(probe.url.indexOf('?') + 1) : '';
  // A truncated request line may have cut the last parameter: only complete ones count.
  if (!line?.[2]) query = query.slice(0, Math.max(0, query.lastIndexOf('&')));
  try {
    // The app's own query parser, so that `i18n_language[]=hu` is a list here too.
    probe.query = (parseQuery?.(query) ?? {}) as Request['query'];
  } catch {
    probe.query = {};
  }
  return languageOf(probe as Request);
}
