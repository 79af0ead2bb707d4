import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsConfig } from '../config/operations.js';

export type RenderMetrics = () => Promise<{ contentType: string; body: string }>;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
function hasToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer ([\x21-\x7e]{1,1024})$/i.exec(header);
  return !!match && timingSafeEqual(digest(match[1]), digest(token));
}

function answer(res: ServerResponse, status: number, text: string, headers = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

/**
 * `GET /metrics` on its own listener (METRICS_HOST:METRICS_PORT), never on the public port:
 * only whoever can reach that address, and holds METRICS_TOKEN when one is set, reads it.
 */
export function serveMetrics(config: MetricsConfig, render: RenderMetrics): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'Not found: the metrics are at /metrics');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return answer(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    }
    if (config.token !== null && !hasToken(req, config.token)) {
      return answer(res, 401, 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>', {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    render().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) =>
        answer(
          res,
          503,
          `Metrics unavailable: ${error instanceof Error ? error.message : String(error)}`,
        ),
    );
  });
  // A scraper keeps its connection open between scrapes; a stop must not wait for it.
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

export function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
