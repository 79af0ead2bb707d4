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
import type { PostKind } from '../common/records/record-kinds.js';

/** A table's posts gone live in a window: `future`, dated after the first bound, up to the second. */
const dueSql = (table: string) =>
  `SELECT id, date_utc FROM ${table} WHERE status = 'future' AND date_utc > ? AND date_utc <= ?`;

/** setTimeout's limit is about 24.8 days; a later date is waited for in steps of a day. */
const MAX_WAIT_MS = 24 * 3600 * 1000;
/** After a failed look-up (database down), the next try. */
const RETRY_MS = 30_000;

/**
 * Why the clock speaks: a publication date was reached, or a look-up worked again after failing
 * (dates may have passed meanwhile, unseen).
 */
export type WentLiveReason = 'date' | 'recovered';
/** The dates (UTC, `YYYY-MM-DD HH:MM:SS`) the clock spoke for: after `from`, up to `to`. */
export interface WentLiveWindow {
  from: string;
  to: string;
}
export type WentLiveListener = (reason: WentLiveReason, window: WentLiveWindow) => void;

/** The posts of a window that one process's listener is told of, at most (the rest: logged). */
const WENT_LIVE_LIMIT = 1000;

/**
 * The one clock of "a scheduled post went live". A `future` record counts as published once its
 * date has passed, checked when read (CONTRACT §6): nothing is written at that moment, so whoever
 * must act then subscribes here (onWentLive): the read caches, which trust the WriteVersion and
 * would go on answering without it until they expire (the version is bumped, making the record
 * appear in cached lists, totals and term counts at once), and the webhooks, which announce the
 * posts gone live (webhooks/webhook-dispatcher.ts). It keeps a timer on the earliest publication
 * date still ahead (events, venues, organizers). The date is looked
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
  private readonly listeners = new Set<WentLiveListener>();
  /** The last look-up failed: the next that works tells the listeners (`recovered`). */
  private failed = false;
  /** The look-up running, if any; `again` asks for one more after it (a write came meanwhile). */
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** The tables' look-ups (scheduledIn); venues and organizers are posts this floor knows. */
  private readonly sources = [
    "SELECT MIN(date_utc) AS d FROM venues WHERE status = 'future' AND date_utc > ?",
    "SELECT MIN(date_utc) AS d FROM organizers WHERE status = 'future' AND date_utc > ?",
  ];
  /** Which posts went live in a window (wentLiveIn): each table's owner's SQL, by kind. */
  private readonly dueSources: Array<{ kind: PostKind; sql: string }> = [
    { kind: 'venue', sql: dueSql('venues') },
    { kind: 'organizer', sql: dueSql('organizers') },
  ];
  /** The clock has told its listeners of the dates up to this one. */
  private toldUpTo = nowUtcSql();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly versions: WriteVersion,
    private readonly writes: Writes,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = [
      // The caches' subscription: a date reached bumps the version (the database coming back
      // bumps it of its own, DatabaseAvailability).
      this.onWentLive((reason) => {
        if (reason !== 'date') return;
        this.metrics?.scheduledPublications.inc();
        this.versions.bump('local');
      }),
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
   * Calls `listener` whenever a scheduled post goes live in this process's clock (every process
   * keeps one), and when a failed look-up works again; answers the unsubscribe.
   */
  onWentLive(listener: WentLiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Adds a table's scheduled posts to the look-up: its owner's SQL selecting `MIN(date_utc) AS d`
   * of its `future` rows dated after the one parameter (now). Owners add theirs as the modules
   * start (events/scheduled-events.ts), before the first look-up.
   */
  scheduledIn(sql: string, due?: { kind: PostKind; sql: string }): void {
    this.sources.push(sql);
    if (due) this.dueSources.push(due);
  }

  /**
   * The posts whose publication date lies in `window` and are still `future` (gone live by the
   * clock, nothing written), by kind, in date order: at most WENT_LIVE_LIMIT of each kind.
   */
  async wentLiveIn(window: WentLiveWindow): Promise<Array<{ kind: PostKind; id: number }>> {
    const out: Array<{ kind: PostKind; id: number }> = [];
    for (const { kind, sql } of this.dueSources) {
      const rows: Array<{ id: number | string }> = await this.ds.query(
        `${sql} ORDER BY date_utc, id LIMIT ${WENT_LIVE_LIMIT}`,
        [window.from, window.to],
      );
      for (const row of rows) out.push({ kind, id: Number(row.id) });
    }
    return out;
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
        if (this.failed) this.tell('recovered');
        this.failed = false;
      } while (this.again && !this.stopped);
    } catch (error) {
      this.logger.warn(`could not look up the next scheduled publication: ${String(error)}`);
      this.failed = true;
      this.schedule(Date.now() + RETRY_MS, false);
    }
  }

  private tell(reason: WentLiveReason): void {
    const window = { from: this.toldUpTo, to: nowUtcSql() };
    this.toldUpTo = window.to;
    for (const listener of this.listeners) listener(reason, window);
  }

  /** At `at` (ms since the epoch): tell the listeners (when `publish`), then look up the next. */
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
        // The caches' bump looks up the next date (WriteVersion.onBump).
        if (publish && wait <= MAX_WAIT_MS) this.tell('date');
        else void this.refresh();
      },
      Math.min(wait, MAX_WAIT_MS),
    );
    this.timer.unref();
  }
}
