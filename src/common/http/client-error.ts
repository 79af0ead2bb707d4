import type { IncomingMessage, Server } from 'node:http';
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
 * (408), a body that breaks its framing (a bad chunk size, a connection closed before
 * Content-Length bytes came). By default Node answers those with an empty body; this answers
 * them like every other error, `{code, message, data: {status}}` as JSON (CONTRACT §4), with the
 * statuses Node would use (found by test/fuzz.e2e-spec.ts), in the request's language (prefix,
 * `i18n_language`, with the same rules as for any request), read from what is known of it:
 *
 * - when its head was read and the body broke, the request itself (its method and URL);
 * - otherwise the request line in the bytes the parser gave up in: the last one before the
 *   point of failure, since those bytes may begin with the end of the previous request's body
 *   on a kept-alive connection. When the request line came in an earlier read than the failure
 *   (a head of many kilobytes that arrived in pieces), Node keeps no trace of it: then the
 *   answer is in the default language.
 */
export function answerClientErrors(
  server: Server,
  i18n: I18nService,
  config: AppConfig,
  queryParser: () => QueryParser | undefined,
): void {
  const pickLanguage = languagePrefix(config.defaultLanguage, config.basePath);
  server.on('clientError', (error: ParserError, socket) => {
    // The response of the request being read, when its head was read (Node's own field, as its
    // default handler reads it).
    const s = socket as Socket & {
      _httpMessage?: { headersSent?: boolean; req?: IncomingMessage & { originalUrl?: string } };
    };
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
    // A request whose head was read and whose body is not complete: the error is in its body.
    // (A complete one is answered or being answered; the error is then in the next one's head.)
    const current = s._httpMessage?.req;
    const line =
      current && !current.complete
        ? { target: current.originalUrl ?? current.url ?? '/', complete: true }
        : requestLine(error);
    const lang = requestLanguage(line, pickLanguage, queryParser());
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

type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number };

/** The methods whose request line is looked for after the end of another request's body. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'];

/**
 * The request line of the request the parser failed in, from the bytes of the read it failed
 * in: the one the read begins with, or else (the read begins with the end of the previous
 * request's body) the last `METHOD target` of a known method before the point of failure. `complete` says whether the target ended with the line's ` HTTP/` (a cut target may
 * have lost its last query parameter). Searched with indexOf, one pass per method: linear.
 */
function requestLine(error: ParserError): { target: string; complete: boolean } | undefined {
  const raw = error.rawPacket;
  if (!raw?.length) return undefined;
  const end = Math.min(raw.length, 32 * 1024, Math.max(error.bytesParsed ?? raw.length, 0) + 1);
  const text = raw.subarray(0, end).toString('latin1');
  // Mostly the read begins with the request line (whatever its method, which may be the error).
  let start = /^[A-Z]+ /.test(text) ? 0 : -1;
  for (const method of start < 0 ? METHODS : []) {
    let at = text.lastIndexOf(`${method} `);
    // A method begins a word: "XGET /" is no request line.
    while (at > 0 && /[A-Z]/.test(text[at - 1])) at = text.lastIndexOf(`${method} `, at - 1);
    if (at > start) start = at;
  }
  if (start < 0) return undefined;
  const rest = raw.subarray(start, start + 32 * 1024).toString('latin1');
  const line = /^[A-Z]+ (\S+)( HTTP\/)?/.exec(rest);
  return line ? { target: line[1], complete: !!line[2] } : undefined;
}

/** The language of a request of which only the request line (maybe cut) is known. */
function requestLanguage(
  line: { target: string; complete: boolean } | undefined,
  pickLanguage: ReturnType<typeof languagePrefix>,
  parseQuery: QueryParser | undefined,
): string {
  const probe = { url: line?.target ?? '/', query: {} } as LangRequest;
  pickLanguage(probe, {} as Response, () => undefined);
  let query = probe.url.includes('?') ? probe.url.slice(probe.url.indexOf('?') + 1) : '';
  // A cut request line may have cut the last parameter: only complete ones count.
  if (!line?.complete) query = query.slice(0, Math.max(0, query.lastIndexOf('&')));
  try {
    // The app's own query parser, so that `i18n_language[]=hu` is a list here too.
    probe.query = (parseQuery?.(query) ?? {}) as Request['query'];
  } catch {
    probe.query = {};
  }
  return languageOf(probe as Request);
}
