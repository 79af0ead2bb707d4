import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One message a receiver got, verified with the Standard Webhooks reference library. */
export interface Received {
  id: string;
  type: string;
  headers: IncomingHttpHeaders;
  body: {
    type: string;
    timestamp: string;
    data: { id: number; kind: string; language: string | null; record?: Record<string, unknown> };
  };
  /** Whether `standardwebhooks` accepted the signature with the receiver's secret. */
  verified: boolean;
}

/**
 * A webhook receiver for tests: a local HTTP server that records every request and answers with
 * `answer(n)` for the n-th request (200 by default; `hang` never answers). Verifies each request
 * with the subscription's secret once it is known.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly requests: number[] = [];
  secret = '';
  answer: (n: number) => number | 'hang' = () => 200;
  private server!: Server;
  private hung: Array<() => void> = [];

  async start(host = '127.0.0.1'): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const n = this.requests.push(Date.now());
        const status = this.answer(n);
        if (status === 'hang') {
          this.hung.push(() => res.destroy());
          return;
        }
        if (status >= 200 && status < 300) this.record(raw, req.headers);
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    return this;
  }

  get url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `http://${address}:${port}/hook`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private record(raw: string, headers: IncomingHttpHeaders): void {
    let verified = false;
    try {
      new Webhook(this.secret).verify(raw, headers as Record<string, string>);
      verified = true;
    } catch {
      verified = false;
    }
    const body = JSON.parse(raw) as Received['body'];
    this.received.push({
      id: String(headers['webhook-id']),
      type: body.type,
      headers,
      body,
      verified,
    });
  }

  of(kind: string, id: number): Received[] {
    return this.received.filter((r) => r.body.data.kind === kind && r.body.data.id === id);
  }

  async stop(): Promise<void> {
    for (const drop of this.hung) drop();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Receivers for one test file, started on demand and subscribed through the API by an
 * administrator (`authorization`), each given its subscription's secret; `stop` ends them all.
 */
export class Receivers {
  private readonly started: WebhookReceiver[] = [];

  constructor(
    private readonly app: () => NestExpressApplication,
    private readonly authorization: () => string,
  ) {}

  async start(): Promise<WebhookReceiver> {
    const r = await new WebhookReceiver().start();
    this.started.push(r);
    return r;
  }

  async subscribe(r: WebhookReceiver, body: Record<string, unknown>) {
    const res = await request(this.app().getHttpServer())
      .post('/cal/events/v1/webhooks')
      .set('Authorization', this.authorization())
      .send({ url: r.url, ...body })
      .expect(201);
    r.secret = res.body.secret;
    return res.body as { id: number; secret: string };
  }

  async stop(): Promise<void> {
    for (const r of this.started) await r.stop();
  }
}
