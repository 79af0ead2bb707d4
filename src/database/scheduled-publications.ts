import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../metrics/metrics.js';
import { nowUtcSql } from './columns.js';
import { WriteVersion } from '../cache/write-version.js';
import { Writes } from './writes.js';

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
 * up at start-up, after every bump but this process's writes (a timer that fired, the database
 * coming back, another process's write), and after a write of this process that did not say what
 * it wrote; a write that says it left a post scheduled earlier than the timer moves the timer
 * without a query (Writes.onScheduled).
 */
@Injectable()
export class ScheduledPublications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ScheduledPublications');
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires, if it is set for a publication (not for a retry or a long wait). */
  private nextAt: number | null = null;
  private unsubscribe: Array<() => void> = [];
  /** The look-up running, if any; `again` asks for one more after it (a write came meanwhile). */
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** The tables' look-ups (scheduledIn); venues and organizers are posts this floor knows. */
  private readonly sources = [
    "SELECT MIN(date_utc) AS d FROM venues WHERE status = 'future' AND date_utc > ?",
    "SELECT MIN(date_utc) AS d FROM organizers WHERE status = 'future' AND date_utc > ?",
  ];

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly versions: WriteVersion,
    private readonly writes: Writes,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = [
      this.versions.onBump((origin) => {
        if (origin !== 'write') void this.refresh();
      }),
      this.writes.onScheduled((earliest) => this.scheduled(earliest)),
    ];
    void this.refresh();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    clearTimeout(this.timer);
  }

  /**
   * Adds a table's scheduled posts to the look-up: its owner's SQL selecting `MIN(date_utc) AS d`
   * of its `future` rows dated after the one parameter (now). Owners add theirs as the modules
   * start (events/scheduled-events.ts), before the first look-up.
   */
  scheduledIn(sql: string): void {
    this.sources.push(sql);
  }

  /** The earliest `date_utc` of a scheduled record still in the future, or null. */
  async next(): Promise<string | null> {
    const now = nowUtcSql();
    // Dates are stored as `YYYY-MM-DD HH:MM:SS` text (DateTimeColumn): they compare as strings.
    const rows: Array<{ next: string | null }> = await this.ds.query(
      `SELECT MIN(d) AS next FROM (
         ${this.sources.join('\n         UNION ALL ')}
       ) upcoming`,
      this.sources.map(() => now),
    );
    return rows[0]?.next ?? null;
  }

  /** Resolves once no look-up is running (tests count the queries of requests alone). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** A committed write of this process left a post scheduled at `earliest` (UTC), or may have (null). */
  private scheduled(earliest: string | null): void {
    // A look-up running may have read before the commit: one more after it sees the write.
    if (earliest === null || this.running) return void this.refresh();
    const at = Date.parse(`${earliest.replace(' ', 'T')}Z`);
    if (Number.isNaN(at) || at <= Date.now()) return;
    // Without a known next publication (a retry after a failed look-up), look up instead.
    if (this.nextAt === null && this.timer) return void this.refresh();
    if (this.nextAt === null || at < this.nextAt) this.schedule(at);
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
    this.nextAt = null;
    if (at === null || this.stopped) return;
    if (publish) this.nextAt = at;
    // `date_utc <= now` holds from that second on: wake just after it.
    const wait = Math.max(0, at - Date.now() + 1);
    this.timer = setTimeout(
      () => {
        // Every process keeps this timer: nobody else needs to hear of it (refreshes through the listener).
        if (publish && wait <= MAX_WAIT_MS) {
          this.metrics?.scheduledPublications.inc();
          this.versions.bump('local');
        } else void this.refresh();
      },
      Math.min(wait, MAX_WAIT_MS),
    );
    this.timer.unref();
  }
}
