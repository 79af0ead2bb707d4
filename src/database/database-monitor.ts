import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SideConnection } from './side-connection.js';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { WriteVersion } from '../cache/write-version.js';

const PING_EVERY_MS = 250;
const PING_TIMEOUT_MS = 600;
/**
 * A ping that times out declares an outage only once the database has answered none for this
 * long: one slow answer on a loaded machine (a ping waits for the CPU like everything else) is
 * no outage, and declaring one would fail every request in flight with a 503. A ping that fails
 * (connection refused, reset, closed) declares it at once.
 */
const SILENT_FOR_MS = 1_500;

class PingTimeout extends Error {}

export const databaseUnavailable = () => new ApiError('rest_db_unavailable', 503);

/**
 * Watches the database with a cheap ping, so that an outage answers 503 `rest_db_unavailable`
 * within a second or two instead of letting requests hang on a dead connection: while the database is
 * down new requests fail at once, and requests in flight are released as soon as it goes down.
 * It recovers by itself: the next successful ping marks the database up again.
 */
@Injectable()
export class DatabaseMonitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DatabaseMonitor');
  private down = false;
  private pinging = false;
  /** Set on shutdown: a ping cut short by the closing connection is no outage to report. */
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** When a ping last succeeded (or the monitor started): how long the database has been silent. */
  private lastAnswer = Date.now();
  private readonly waiters = new Set<(error: ApiError) => void>();

  /** MySQL/MariaDB: the ping's own connection, outside the pool (see ping()). */
  private side: SideConnection | undefined;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly versions: WriteVersion,
  ) {}

  onApplicationBootstrap(): void {
    this.lastAnswer = Date.now();
    this.timer = setInterval(() => void this.ping(), PING_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
    void this.dropConnection();
  }

  get isDown(): boolean {
    return this.down;
  }

  /** `work`, unless the database is or becomes unavailable first (then a 503). */
  guard<T>(work: Promise<T>): Promise<T> {
    if (this.down) return Promise.reject(databaseUnavailable());
    let release: ((error: ApiError) => void) | undefined;
    const outage = new Promise<never>((_, reject) => {
      release = reject;
      this.waiters.add(reject);
    });
    return Promise.race([work, outage]).finally(() => this.waiters.delete(release!));
  }

  async ping(): Promise<void> {
    if (this.pinging || this.stopped) return;
    this.pinging = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.selectOne(),
        new Promise((_, reject) => {
          // The timeout waits one more turn of the event loop: after a long synchronous task,
          // timers run before pending I/O, and an answer already received would lose the race.
          timer = setTimeout(
            () => setImmediate(() => reject(new PingTimeout('ping timed out'))),
            PING_TIMEOUT_MS,
          );
        }),
      ]);
      this.lastAnswer = Date.now();
      this.setDown(false);
    } catch (error) {
      await this.dropConnection();
      // The ping's own bound, or the side connection's while it connects.
      const slow =
        error instanceof PingTimeout || (error as { code?: unknown }).code === 'ETIMEDOUT';
      const silent = Date.now() - this.lastAnswer >= SILENT_FOR_MS;
      if (!this.stopped && (!slow || silent)) this.setDown(true, error);
    } finally {
      clearTimeout(timer);
      this.pinging = false;
    }
  }

  /**
   * On MySQL/MariaDB the ping has a connection of its own: through the pool it would queue
   * behind a busy moment's queries and report a healthy database as down. SQLite has no pool.
   */
  private async selectOne(): Promise<void> {
    const db = this.config.database;
    if (db.type === 'sqlite') {
      // Straight on the driver: a ping is no request's query (query-count tests, logs).
      (
        this.ds.driver as unknown as {
          databaseConnection: { prepare(sql: string): { get(): unknown } };
        }
      ).databaseConnection
        .prepare('SELECT 1')
        .get();
      return;
    }
    this.side ??= new SideConnection(db, PING_TIMEOUT_MS);
    await (await this.side.get()).query('SELECT 1');
  }

  private async dropConnection(): Promise<void> {
    await this.side?.drop();
  }

  private setDown(down: boolean, error?: unknown): void {
    if (down === this.down) return;
    this.down = down;
    if (down) {
      this.logger.error(
        `database unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
      for (const reject of this.waiters) reject(databaseUnavailable());
      this.waiters.clear();
    } else {
      this.logger.log('database available again');
      // Whatever was read or being counted before the outage is not trusted after it: counts
      // left hanging on a dead connection must not be shared with new requests (TotalsCache),
      // and the database may have changed meanwhile.
      this.versions.bump('local');
    }
  }
}
