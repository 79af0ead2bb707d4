import { Injectable } from '@nestjs/common';

/**
 * Whether this process is stopping: from SIGTERM on, /health/ready answers 503 so that load
 * balancers and orchestrators stop sending new requests, while the server still accepts for
 * SHUTDOWN_DELAY_MS and then finishes the requests in flight (main.ts).
 */
@Injectable()
export class Drain {
  private since: number | null = null;

  get draining(): boolean {
    return this.since !== null;
  }

  start(now = Date.now()): void {
    this.since ??= now;
  }
}
