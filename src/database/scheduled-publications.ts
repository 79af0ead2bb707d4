import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { nowUtcSql } from './columns.js';
import { WriteVersion } from './write-version.js';

/** setTimeout's limit is about 24.8 days; a later date is waited for in steps of a day. */
const MAX_WAIT_MS = 24 * 3600 * 1000;
/** After a failed look-up (database down), the next try. */
const RETRY_MS = 30_000;

/**
 * A `future` record counts as published once its date has passed, checked when read (CONTRACT
 * §6): nothing is written at that moment. The read caches, which trust the WriteVersion, would go
 * on answering without it until they expire; so this keeps a timer on the earliest publication
 * date still ahead (events, venues, organizers) and bumps the version when it is reached,
 * making the record appear in cached lists, totals and term counts at once. The date is looked
 * up again after every write (a write may schedule an earlier one) and after every bump.
 */
@Injectable()
export class ScheduledPublications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ScheduledPublications');
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** The look-up running, if any; `again` asks for one more after it (a write came meanwhile). */
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly versions: WriteVersion,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.versions.onBump(() => void this.refresh());
    void this.refresh();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
  }

  /** The earliest `date_utc` of a scheduled record still in the future, or null. */
  async next(): Promise<string | null> {
    const now = nowUtcSql();
    // Dates are stored as `YYYY-MM-DD HH:MM:SS` text (DateTimeColumn): they compare as strings.
    const rows: Array<{ next: string | null }> = await this.ds.query(
      `SELECT MIN(d) AS next FROM (
         SELECT MIN(date_utc) AS d FROM events WHERE status = 'future' AND date_utc > ?
         UNION ALL SELECT MIN(date_utc) FROM venues WHERE status = 'future' AND date_utc > ?
         UNION ALL SELECT MIN(date_utc) FROM organizers WHERE status = 'future' AND date_utc > ?
       ) upcoming`,
      [now, now, now],
    );
    return rows[0]?.next ?? null;
  }

  /** Resolves once no look-up is running (tests count the queries of requests alone). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.lookUp().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async lookUp(): Promise<void> {
    try {
      do {
        this.again = false;
        const next = await this.next();
        this.schedule(next === null ? null : Date.parse(`${next.replace(' ', 'T')}Z`));
      } while (this.again && !this.stopped);
    } catch (error) {
      this.logger.warn(`could not look up the next scheduled publication: ${String(error)}`);
      this.schedule(Date.now() + RETRY_MS, false);
    }
  }

  /** At `at` (ms since the epoch): bump the write version (when `publish`), then look up the next. */
  private schedule(at: number | null, publish = true): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (at === null || this.stopped) return;
    // `date_utc <= now` holds from that second on: wake just after it.
    const wait = Math.max(0, at - Date.now() + 1);
    this.timer = setTimeout(
      () => {
        if (wait > MAX_WAIT_MS) return void this.refresh();
        // Every process keeps this timer: nobody else needs to hear of it (refreshes through the listener).
        if (publish) this.versions.bump('local');
        else void this.refresh();
      },
      Math.min(wait, MAX_WAIT_MS),
    );
    this.timer.unref();
  }
}
