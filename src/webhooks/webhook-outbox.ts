import { Injectable, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { nowUtcSql } from '../database/columns.js';
import { Writes } from '../database/writes.js';
import { activeTraceparent } from '../tracing/spans.js';
import { OutboxRepository } from './outbox.repository.js';
import { ScheduleRepository } from './schedule.repository.js';
import { WritesModule } from '../database/writes.module.js';

/**
 * The outbox side of webhooks: every write's changes are added to `webhook_outbox` inside the
 * write's own transaction (Writes.journal), so a change is announced exactly when it commits,
 * also when the process dies right after. The dispatcher (webhook-dispatcher.ts) reads it later.
 * The posts a write leaves scheduled are kept in `webhook_schedule` by the same transaction, so
 * that their going live by the clock (nothing is written then) is announced too.
 * Loaded by the server and by the CLI, whose imports and trash purge are writes too.
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit, OnModuleDestroy {
  /** Set by `--quiet-webhooks`: this process's writes are not announced (a first bulk import). */
  quiet = false;
  private stop: (() => void) | undefined;

  constructor(
    private readonly writes: Writes,
    private readonly outbox: OutboxRepository,
    private readonly schedule: ScheduleRepository,
  ) {}

  onModuleInit(): void {
    this.stop = this.writes.journal(async (manager, entries) => {
      // Scheduled posts are kept track of also when quiet: their going live is announced later.
      await this.schedule.schedule(manager, entries, nowUtcSql());
      // The write's trace goes with its changes: their deliveries' spans link to it.
      if (!this.quiet) {
        await this.outbox.appendOutbox(manager, entries, Date.now(), activeTraceparent());
      }
    });
  }

  onModuleDestroy(): void {
    this.stop?.();
  }
}

@Module({
  imports: [WritesModule],
  providers: [OutboxRepository, ScheduleRepository, WebhookOutbox],
  exports: [OutboxRepository, ScheduleRepository, WebhookOutbox],
})
export class WebhookOutboxModule {}
