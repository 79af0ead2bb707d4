import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { createRedis, describeRedisError } from '../database/redis.js';
import { SideConnection } from '../database/side-connection.js';
import { WriteVersion, type BumpOrigin } from './write-version.js';

/** A request uses the generation checked at most this long before it started. */
export const GENERATION_CHECK_MS = 50;
/** The Redis channel of "a write was committed" messages: `<process id> <generation>`. */
export const GENERATION_CHANNEL = 'cal:write-generation';
const QUERY_TIMEOUT_MS = 2000;

/**
 * One truth for several server processes on one MySQL/MariaDB database. Every committed write
 * of this process (the WriteVersion bumped with origin `write`) increments the one row of
 * `write_generation`; every request first makes sure the generation was read at most
 * GENERATION_CHECK_MS before it started (one primary-key read, shared by the requests of that
 * moment), and a generation that moved bumps the WriteVersion here, which drops every cached answer,
 * total and term count. Write requests answer only once their increment is stored, so a request
 * that starts GENERATION_CHECK_MS after a write was answered, in any process, sees that write.
 *
 * With REDIS_URL the increment is also published, and the other processes bump at once (a few
 * milliseconds); the database row stays the guarantee when a message is lost.
 *
 * SQLite serves from one process (WORKERS=1), but the CLI writes to the same file (imports,
 * records:purge-trash): there every request reads `PRAGMA data_version`, which moves when another
 * connection has committed to the file, on the server's own connection and without a query of
 * the pool (better-sqlite3 answers it synchronously, in microseconds), so a read that starts
 * after another process's commit always sees it. An in-memory database has no other writer.
 *
 * The row is read and written on a connection of its own, outside the pool: a busy pool must
 * not delay the check, and requests' query counts stay those of their own work.
 */
@Injectable()
export class SharedGeneration implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SharedGeneration');
  private readonly id = randomBytes(6).toString('hex');
  readonly enabled: boolean;
  /** The generation this process has caught up with (null: not read yet). */
  private seen: number | null = null;
  /** When the last completed check started (ms since the epoch). */
  private checkedAt = -Infinity;
  private checking: { startedAt: number; done: Promise<void> } | undefined;
  /** Increments not stored yet: write requests wait for them. */
  private readonly publishing = new Set<Promise<void>>();
  /** A write committed since the increment being stored started. */
  private incrementAgain = false;
  private readonly side: SideConnection | undefined;
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  /** The last check failed (logged once per outage). */
  private failing = false;
  /** A SQLite file that other processes may write to: checked through its data_version. */
  private readonly sqliteFile: boolean;
  /** Whether requests check for other processes' writes at all (not on in-memory SQLite). */
  private readonly checks: boolean;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly versions: WriteVersion,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    const db = config.database;
    this.enabled = db.type !== 'sqlite';
    this.sqliteFile = db.type === 'sqlite' && db.path !== ':memory:';
    this.checks = this.enabled || this.sqliteFile;
    this.side = db.type === 'sqlite' ? undefined : new SideConnection(db, QUERY_TIMEOUT_MS);
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.unsubscribe = this.versions.onBump((origin) => this.onBump(origin));
    if (this.config.redisUrl) this.listen(this.config.redisUrl);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await Promise.allSettled(this.publishing);
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
    await this.dropConnection();
  }

  /**
   * Resolves once this process has caught up with every write stored GENERATION_CHECK_MS or
   * more before now (on a SQLite file: every write committed before now). Synchronous
   * (undefined) while the last check is recent enough, and always on SQLite.
   */
  sync(now = Date.now()): Promise<void> | undefined {
    if (!this.checks || this.stopped) return undefined;
    // On SQLite the check is a synchronous pragma on the server's own connection (microseconds):
    // made for every request, so no read ever follows another process's commit unseen.
    if (this.sqliteFile) {
      this.readSqlite();
      return undefined;
    }
    if (now - this.checkedAt <= GENERATION_CHECK_MS) {
      return undefined;
    }
    if (this.checking && now - this.checking.startedAt <= GENERATION_CHECK_MS) {
      return this.checking.done;
    }
    return this.check(now);
  }

  /** The generation this process has caught up with (null before the first check). */
  get current(): number | null {
    return this.seen;
  }

  /** Resolves once the increments of the writes committed so far are stored (and published). */
  async flushed(): Promise<void> {
    while (this.publishing.size) await Promise.allSettled(this.publishing);
  }

  private check(startedAt: number): Promise<void> {
    const done = this.read(startedAt).finally(() => {
      if (this.checking?.done === done) this.checking = undefined;
    });
    this.checking = { startedAt, done };
    return done;
  }

  private async read(startedAt: number): Promise<void> {
    try {
      const rows = await this.query<RowDataPacket[]>(
        'SELECT value FROM write_generation WHERE id = 1',
      );
      this.observe(Number(rows[0]?.value ?? 0));
      this.recovered();
    } catch (error) {
      await this.dropConnection();
      this.failed(error);
    }
    // After a failure too: at most one try per GENERATION_CHECK_MS while the database is away.
    this.checkedAt = Math.max(this.checkedAt, startedAt);
  }

  private readSqlite(): void {
    try {
      this.observe(this.sqliteDataVersion());
      this.recovered();
    } catch (error) {
      this.failed(error);
    }
  }

  private recovered(): void {
    if (this.failing) this.logger.log('the write generation can be read again');
    this.failing = false;
  }

  /** Unknown: trust no cached answer (the database is probably down; requests answer 503). */
  private failed(error: unknown): void {
    this.versions.bump('remote');
    if (!this.failing) this.logger.warn(`could not read the write generation: ${describe(error)}`);
    this.failing = true;
  }

  /** A generation read or heard of: a move means another process wrote. */
  private observe(generation: number): void {
    if (this.seen === generation) return;
    const first = this.seen === null;
    this.seen = generation;
    if (!first) this.versions.bump('remote');
  }

  /**
   * One increment after each write committed here; writes committed while one is being stored
   * share the next one (it starts after they committed, which is all the others need to know).
   */
  private onBump(origin: BumpOrigin): void {
    if (origin !== 'write' || this.stopped) return;
    this.incrementAgain = true;
    if (this.publishing.size) return;
    const stored = (async () => {
      while (this.incrementAgain) {
        this.incrementAgain = false;
        await this.increment();
      }
    })().finally(() => this.publishing.delete(stored));
    this.publishing.add(stored);
  }

  /**
   * Stores one increment (LAST_INSERT_ID(expr) hands back the new value on this connection),
   * trying twice: a dropped connection must not leave the other processes unaware of a write.
   */
  private async increment(): Promise<void> {
    try {
      const sql = 'UPDATE write_generation SET value = LAST_INSERT_ID(value + 1) WHERE id = 1';
      const result = await this.query<ResultSetHeader>(sql).catch(async () => {
        await this.dropConnection();
        return this.query<ResultSetHeader>(sql);
      });
      const generation = result.insertId;
      // One more than what this process had seen: only our own write, nothing to invalidate.
      if (this.seen !== null && generation === this.seen + 1) this.seen = generation;
      else this.observe(generation);
      if (this.publisher) {
        await this.publisher
          .publish(GENERATION_CHANNEL, `${this.id} ${generation}`)
          .catch(() => undefined);
      }
    } catch (error) {
      await this.dropConnection();
      this.logger.warn(`could not store the write generation: ${describe(error)}`);
    }
  }

  private listen(url: string): void {
    this.publisher = createRedis(url, 'cal-generation-pub');
    // The subscription is queued until connected, and renewed by ioredis after a reconnect.
    this.subscriber = createRedis(url, 'cal-generation-sub', { enableOfflineQueue: true });
    this.subscriber.on('message', (_channel: string, message: string) => {
      const [sender, generation] = message.split(' ');
      if (sender === this.id) return;
      const value = Number(generation);
      // Only forward: an old message must not undo what a check has read since.
      if (Number.isFinite(value) && (this.seen === null || value > this.seen)) this.observe(value);
    });
    this.subscriber.subscribe(GENERATION_CHANNEL).catch((error: unknown) => {
      this.logger.warn(
        `could not subscribe to ${GENERATION_CHANNEL}: ${describeRedisError(this.subscriber!, error)}`,
      );
    });
  }

  /** SQLite's count of commits by other connections to the file, as this connection sees it. */
  private sqliteDataVersion(): number {
    const driver = this.dataSource.driver as unknown as {
      databaseConnection: { pragma(sql: string, options: { simple: true }): unknown };
    };
    return Number(driver.databaseConnection.pragma('data_version', { simple: true }));
  }

  private async query<T>(sql: string): Promise<T> {
    if (!this.side) throw new Error('no shared generation on SQLite');
    const conn = await this.side.get();
    const [result] = await conn.query({ sql, timeout: QUERY_TIMEOUT_MS });
    return result as T;
  }

  private async dropConnection(): Promise<void> {
    await this.side?.drop();
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
