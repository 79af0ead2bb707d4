import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
};

/** A span as an OTLP/HTTP JSON export carries it, its attributes made a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  status: { code?: number; message?: string };
  resource: Record<string, string | number | boolean | undefined>;
  /** The spans it links to (span links, not its parent). */
  links: Array<{ traceId: string; spanId: string }>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

function plain(attributes: Array<{ key: string; value: AnyValue }> = []) {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
        value.boolValue ??
        value.doubleValue,
    ]),
  );
}

interface Export {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
    scopeSpans?: Array<{
      spans?: Array<
        Omit<ReceivedSpan, 'attributes' | 'resource' | 'kind' | 'links'> & {
          kind?: number;
          attributes?: Array<{ key: string; value: AnyValue }>;
          links?: Array<{ traceId: string; spanId: string }>;
        }
      >;
    }>;
  }>;
}

/**
 * An OpenTelemetry collector for tests: a local OTLP/HTTP receiver (`POST /v1/traces`, JSON, as
 * the service's exporter sends) that keeps every span it is sent. Point OTEL_EXPORTER_OTLP_ENDPOINT
 * at `endpoint`.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not OTLP/JSON trace exports (the test asserts there are none). */
  readonly rejected: string[] = [];
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const type = req.headers['content-type'] ?? '';
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.includes('json')) {
          this.rejected.push(`${req.method} ${req.url} ${type}`);
          res.writeHead(415).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Export;
        for (const rs of body.resourceSpans ?? []) {
          const resource = plain(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              this.spans.push({
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
                kind: s.kind ?? 0,
                attributes: plain(s.attributes),
                status: s.status ?? {},
                resource,
                links: (s.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  inTrace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
