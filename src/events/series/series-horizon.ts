import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { RECURRENCE_LIMITS } from '../../common/recurrence/rules.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { nowUtcSql } from '../../database/columns.js';
import { Writes } from '../../database/writes.js';
import { EventsRepository } from '../events.repository.js';
import { OccurrencesRepository } from './occurrences.repository.js';
import { expandEvent, horizonFor, SERIES_COMPLETE } from './series-rules.js';
import { SeriesRepository } from './series.repository.js';

/** How often a process offers to extend the horizons (and the lease it takes when it does). */
const EVERY_MS = 3_600_000;
/** The first pass after start-up, once the process has settled (writes extend what they write). */
const FIRST_MS = 600_000;
/** A series is extended once its horizon is less than this many days short of a full one. */
const SLACK_DAYS = 7;
/** Series read per statement, and at most this many statements per pass. */
const BATCH = 100;
const MAX_BATCHES = 1_000;

/**
 * CONTRACT §9: an unbounded series is materialized to a rolling horizon
 * (RECURRENCE_LIMITS.horizonDays ahead of now); as time passes, this extends it. Once an hour,
 * one process of those sharing the database (the `series-horizon` lease, database/leases.ts) looks for the series whose horizon is more than SLACK_DAYS short and
 * writes each one's new occurrences in a transaction of its own; the series' row is moved by a
 * conditional UPDATE first, so that a series is extended once even when two processes reach it
 * (the second finds its horizon moved and leaves it). Existing occurrences keep their ids. The
 * clock is injectable (`clock`), and `run(now)` is what the timer calls.
 */
@Injectable()
export class SeriesHorizon implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SeriesHorizon');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  /** Now, for the timer's passes (tests give their own). */
  clock: () => Date = () => new Date();

  constructor(
    private readonly events: EventsRepository,
    private readonly series: SeriesRepository,
    private readonly occurrences: OccurrencesRepository,
    private readonly writes: Writes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const pass = () => {
      this.running ??= this.run(this.clock())
        .catch((error: unknown) => {
          this.logger.warn(`could not extend the recurring events: ${String(error)}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    };
    this.timer = setTimeout(() => {
      pass();
      this.timer = setInterval(pass, EVERY_MS);
      this.timer.unref();
    }, FIRST_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
  }

  /** Resolves once no pass is running. */
  async settled(): Promise<void> {
    await this.running;
  }

  /**
   * One pass at `now`, if this process gets the lease (one pass per hour for all the processes
   * on the database); answers how many series it extended.
   */
  async run(now: Date): Promise<number> {
    return (await this.lease(now)) ? this.extendDue(now) : 0;
  }

  /** Takes the lease until an hour after `now` if nobody holds it; true when this call did. */
  private lease(now: Date): Promise<boolean> {
    return this.series.takeHorizonLease(new Date(now.getTime() + EVERY_MS - 60_000), now);
  }

  /**
   * Extends every series whose horizon is due at `now` (in id order, each visited once);
   * answers how many it extended. Safe to run in several processes at once.
   */
  async extendDue(now: Date): Promise<number> {
    // Horizons are wall clocks of each event's zone: the slack of days covers any offset.
    const days = RECURRENCE_LIMITS.horizonDays - SLACK_DAYS;
    const due = nowUtcSql(new Date(now.getTime() + days * 86_400_000));
    let extended = 0;
    let after = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const ids = await this.series.dueIds(due, after, BATCH);
      for (const id of ids) {
        after = id;
        if (await this.extend(after, now)) extended++;
        // The requests go first: a pass is many short turns of the event loop, one series each
        // (its expansion bounded by the series' size, RECURRENCE_LIMITS), never one long one.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (ids.length < BATCH) break;
    }
    return extended;
  }

  /** Extends one series to its horizon at `now`; false when there was nothing to do. */
  private async extend(id: number, now: Date): Promise<boolean> {
    const zone = this.config.siteTimezone;
    try {
      // Read first: a series with nothing to add costs no transaction (nor a cache flush).
      const event = await this.events.findById(id);
      const until = event?.occurrencesUntil;
      if (!event?.recurrence || !until || until === SERIES_COMPLETE) return false;
      const horizon = horizonFor(event, zone, now);
      if (horizon <= until) return false;
      return await this.writes.run(async ({ manager }) => {
        // Whoever moves the horizon first extends the series; the others change nothing (an
        // edit meanwhile has moved it too, having written the occurrences itself).
        if (!(await this.series.moveHorizon(manager, id, until, horizon))) return false;
        const current = (await this.events.findById(id, manager))!;
        const { occurrences } = expandEvent(current, zone, now, { extending: true });
        await this.occurrences.replaceOccurrences(manager, current, occurrences);
        return true;
      });
    } catch (error) {
      // A series that no longer expands (a bound) keeps what it has; the others go on.
      this.logger.warn(`could not extend recurring event ${id}: ${String(error)}`);
      return false;
    }
  }
}
