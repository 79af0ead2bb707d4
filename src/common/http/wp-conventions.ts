import type { NextFunction, Request, Response } from 'express';
import { noRoute } from '../errors/api-error.js';
import { rawHeaderNames } from './body-bytes.adapter.js';

/**
 * WordPress's REST server conventions that hold on every route (CONTRACT §6, "WordPress REST
 * conventions"), as Express middleware, so that every controller, guard and interceptor after
 * them sees the request WordPress's `WP_REST_Request` would be: the method a client meant, the
 * write parameters wherever they were sent, and the answer wrapped when asked. `_fields` is
 * applied to the payload (fields.ts); OPTIONS answers the route's description
 * (docs/route-options.ts).
 */

/** Parameters that steer WordPress's REST server itself, never a route's own parameter. */
const SERVER_PARAMS = new Set([
  '_method',
  '_envelope',
  '_fields',
  '_embed',
  '_locale',
  '_wpnonce',
  '_jsonp',
  '_pretty',
]);

/** The methods a POST may be turned into; any other asked method is no route (404). */
const OVERRIDABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * HTTP method override for clients and hosts that cannot send PUT, PATCH or DELETE
 * (`@wordpress/api-fetch` sends them so by default): a POST carrying `?_method=` or, without it,
 * `X-HTTP-Method-Override` is routed, checked (guards, permissions), logged and counted as the
 * method it names, as WordPress's `serve_request` does. Only on POST: a GET (a link, an image
 * tag, a crawler) never becomes a write. A name that is not a method this API serves matches
 * no route, as in WordPress.
 */
export function methodOverride(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next();
  const query = (req.query as Record<string, unknown>)._method;
  const asked = query !== undefined ? query : req.headers['x-http-method-override'];
  if (asked === undefined) return next();
  const method = typeof asked === 'string' ? asked.toUpperCase() : '';
  if (!OVERRIDABLE.has(method)) return next(noRoute());
  req.method = method;
  next();
}

/**
 * Write parameters sent in the query string count as WordPress's `get_param` counts them: under
 * the body (JSON body, or form body, wins; then the query string), so `POST /events?title=…`
 * creates and `POST /events/{occurrence}?_tec_update_type=single` detaches one occurrence. Path
 * parameters are the route's and stay its own (controllers take them from the path). The
 * server's own parameters (`_method`, `_fields`, `_locale`, ...) are not a write's. After the
 * body parsers and the method override.
 */
export function queryUnderBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  const body = req.body as unknown;
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    return next();
  }
  const query = Object.entries(req.query as Record<string, unknown>).filter(
    ([name]) => !SERVER_PARAMS.has(name),
  );
  if (!query.length) return next();
  // Spread, not Object.assign: a `__proto__` key of a JSON body stays a plain key.
  req.body = { ...Object.fromEntries(query), ...body };
  next();
}

/**
 * Headers of a REST answer, as WordPress's response object holds them, that `_envelope` moves
 * into the body; the others (security, CORS, caching, transport) describe the HTTP message that
 * carries the envelope.
 */
const ENVELOPED_HEADERS = new Set([
  'x-tec-total',
  'x-tec-totalpages',
  'location',
  'allow',
  'last-modified',
  'retry-after',
  'www-authenticate',
]);

/**
 * `?_envelope` (any value, as WordPress's `isset`): for clients that cannot read statuses or
 * headers, the answer, errors included, is sent as `200 {body, status, headers}`. Wraps the
 * response's writes, so that whatever answers the request (a route, a validation or permission
 * error, a refused body, no route at all) is enveloped; installed before the body parsers.
 * A HEAD request, and an answer that is not JSON (a feed or a page), are sent as they are.
 */
export function envelope(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'HEAD' || !mentionsEnvelope(req.url)) return next();
  if ((req.query as Record<string, unknown>)._envelope === undefined) return next();
  // The envelope is a new body: a conditional request must not turn it into a 304.
  delete req.headers['if-none-match'];
  delete req.headers['if-modified-since'];
  const writeHead = res.writeHead.bind(res);
  const write = res.write.bind(res) as (chunk: Buffer) => boolean;
  const end = res.end.bind(res) as (chunk?: Buffer) => Response;
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(
            chunk as string,
            typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
          ),
    );
  };
  // Headers wait for the end: until then the status and headers may still change.
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    res.statusCode = status;
    const headers = rest.find((arg) => arg !== null && typeof arg === 'object');
    if (headers)
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value as string);
    return res;
  }) as Response['writeHead'];
  res.write = ((chunk: unknown, encoding?: unknown) => {
    keep(chunk, encoding);
    return true;
  }) as Response['write'];
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    keep(chunk, encoding);
    res.writeHead = writeHead;
    res.write = write as Response['write'];
    res.end = end as Response['end'];
    const raw = Buffer.concat(chunks);
    const body = raw.length ? jsonOf(raw, res) : null;
    if (body === undefined) return end(raw);
    const status = res.statusCode;
    const headers: Record<string, unknown> = {};
    for (const name of rawHeaderNames(res)) {
      if (!ENVELOPED_HEADERS.has(name.toLowerCase())) continue;
      headers[name] = res.getHeader(name);
      res.removeHeader(name);
    }
    const json = Buffer.from(JSON.stringify({ body, status, headers }));
    res.statusCode = 200;
    res.removeHeader('ETag');
    res.removeHeader('Transfer-Encoding');
    res.setHeader('Content-Type', 'application/json; charset=UTF-8');
    res.setHeader('Content-Length', json.length);
    return end(json);
  }) as Response['end'];
  next();
}

/**
 * Whether the URL may carry `_envelope` (also as `%5F`): every request passes here, and most
 * need no query string parsed for it.
 */
function mentionsEnvelope(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const query = url.slice(q).toLowerCase();
  return query.includes('_envelope') || query.includes('%5fenvelope');
}

/** The JSON answer `raw` as a value, or undefined when the answer is not JSON. */
function jsonOf(raw: Buffer, res: Response): unknown {
  if (!/^application\/json\b/i.test(String(res.getHeader('Content-Type') ?? ''))) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
