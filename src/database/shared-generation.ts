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
import { createRedis, describeRedisError } from './redis.js';
import { SideConnection } from './side-connection.js';
import { ANYTHING } from '../cache/dependencies.js';
import type { Tags } from '../cache/dependencies.js';
import { WriteVersion, type BumpOrigin } from '../cache/write-version.js';

/** A request uses the generation checked at most this long before it started. */
export const GENERATION_CHECK_MS = 50;
/**
 * The Redis channel of "a write was committed" messages: `<process id> <generation> <tags>`, the
 * tags comma-separated (none, or `*`: anything may have changed).
 */
export const GENERATION_CHANNEL = 'cal:write-generation';
const QUERY_TIMEOUT_MS = 2000;
/** Beyond this many generations behind, a process drops everything instead of reading the log. */
const MAX_CATCH_UP = 200;
/** How many generations of `write_changes` are kept (pruned every PRUNE_EVERY increments). */
const KEEP_CHANGES = 1_000;
const PRUNE_EVERY = 100;
/** Tags longer than this (a purge of thousands of records) are stored as "anything". */
const MAX_TAGS_LENGTH = 60_000;

/**
 * One truth for several server processes on one MySQL/MariaDB database. Every committed write
 * of this process (the WriteVersion bumped with origin `write`) increments the one row of
 * `write_generation` and stores, under the new generation, what it may have altered (its tags,
 * in `write_changes`, in the same transaction); every request first makes sure the generation
 * was read at most GENERATION_CHECK_MS before it started (one primary-key read, shared by the
 * requests of that moment), and a generation that moved bumps the WriteVersion here with the
 * tags the other processes stored since (one more read): only what depends on them is dropped.
 * A gap in the log (more than MAX_CATCH_UP generations, pruned rows, a writer that stores none)
 * drops everything. Write requests answer only once their increment is stored, so a request
 * that starts GENERATION_CHECK_MS after a write was answered, in any process, sees that write.
 * A process skips its own rows: its writes bumped its caches when they committed.
 *
 * With REDIS_URL the increment is also published with its tags, and the other processes bump at
 * once (a few milliseconds); the database row stays the guarantee when a message is lost.
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
  /** What the writes committed since the increment being stored started may have altered. */
  private unstored: Set<string> | undefined;
  /** Increments stored by this process, for pruning the log now and then. */
  private increments = 0;
  /** The last unit of statements on the side connection (`alone`): the next one waits for it. */
  private turn: Promise<unknown> = Promise.resolve();
  /** The catch-up running (one at a time: `seen` only moves forward, in order). */
  private catching: Promise<void> = Promise.resolve();
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
    this.side = db.type === 'sqlite' ? undefined : new SideConnection(db, QUERY_TIMEOUT_MS, true);
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.unsubscribe = this.versions.onBump((origin, tags) => this.onBump(origin, tags));
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
      await this.catchUp(Number(rows[0]?.value ?? 0));
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
      const version = this.sqliteDataVersion();
      // A commit of another connection: its changes are unknown, anything may have changed.
      if (this.seen !== null && this.seen !== version) this.versions.bump('remote');
      this.seen = version;
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

  /**
   * A generation read or heard of: the writes of the other processes since the one seen bump
   * the WriteVersion with their tags (read from `write_changes`), or with none (anything) when
   * the log cannot say. `known` is what the next generation altered when it is known already:
   * this process's own increment, or the tags a message carried. The first generation read only
   * sets where this process starts. One at a time, in order: only here does `seen` move.
   */
  private catchUp(generation: number, known?: 'own' | Tags): Promise<void> {
    const next = this.catching.then(async () => {
      const seen = this.seen;
      if (seen !== null && generation <= seen) return;
      if (seen === null) {
        this.seen = generation;
        return;
      }
      if (generation === seen + 1 && known) {
        this.seen = generation;
        if (known !== 'own') this.bumpWith(known);
        return;
      }
      if (generation - seen > MAX_CATCH_UP) {
        this.seen = generation;
        this.versions.bump('remote');
        return;
      }
      const rows = await this.query<RowDataPacket[]>(
        `SELECT generation, source, tags FROM write_changes WHERE generation > ${seen} AND generation <= ${generation}`,
      );
      this.seen = generation;
      const tags = new Set<string>();
      if (rows.length !== generation - seen) tags.add(ANYTHING);
      for (const row of rows) {
        if (row.source === this.id) continue;
        for (const tag of String(row.tags).split(',')) if (tag) tags.add(tag);
      }
      if (tags.size) this.bumpWith([...tags]);
    });
    this.catching = next.catch(() => undefined);
    return next;
  }

  /** Another process's writes altered `tags` (`*` among them: anything). */
  private bumpWith(tags: Tags): void {
    this.versions.bump('remote', tags.includes(ANYTHING) ? undefined : tags);
  }

  /**
   * One increment after each write committed here, with its tags; writes committed while one
   * is being stored share the next one (it starts after they committed, which is all the others
   * need to know).
   */
  private onBump(origin: BumpOrigin, tags: Tags | undefined): void {
    if (origin !== 'write' || this.stopped) return;
    this.unstored ??= new Set();
    if (tags) for (const tag of tags) this.unstored.add(tag);
    else this.unstored.add(ANYTHING);
    if (this.publishing.size) return;
    const stored = (async () => {
      while (this.unstored) {
        const pending = this.unstored;
        this.unstored = undefined;
        await this.increment(pending);
      }
    })().finally(() => this.publishing.delete(stored));
    this.publishing.add(stored);
  }

  /**
   * Stores one increment and its tags in one transaction (STORE_INCREMENT), trying twice: a
   * dropped connection must not leave the other processes unaware of a write.
   */
  private async increment(pending: Set<string>): Promise<void> {
    let tags = pending.has(ANYTHING) ? ANYTHING : [...pending].join(',');
    if (tags.length > MAX_TAGS_LENGTH) tags = ANYTHING;
    try {
      const generation = await this.store(tags).catch(async () => {
        await this.dropConnection();
        return this.store(tags);
      });
      // One more than what this process had seen: only our own write, nothing to invalidate;
      // otherwise the others' writes in between are read from the log.
      // A failed read of the log leaves the others' tags unknown: anything may have changed.
      await this.catchUp(generation, 'own').catch((error: unknown) => this.failed(error));
      if (++this.increments % PRUNE_EVERY === 0) {
        await this.query(
          `DELETE FROM write_changes WHERE generation <= ${generation - KEEP_CHANGES}`,
        );
      }
      if (this.publisher) {
        await this.publisher
          .publish(GENERATION_CHANNEL, `${this.id} ${generation} ${tags}`)
          .catch(() => undefined);
      }
    } catch (error) {
      await this.dropConnection();
      this.logger.warn(`could not store the write generation: ${describe(error)}`);
    }
  }

  /**
   * The increment and its log row, committed together; answers the new generation. One round
   * trip: the four statements go as one batch (the server stops at the first that fails, and the
   * ROLLBACK then ends the transaction), so a write waits for one exchange with the database,
   * not four (docs/benchmarks.md, "Issue 53, 2026-11-30"). Alone on the connection meanwhile:
   * a check in between would read the uncommitted generation.
   */
  private store(tags: string): Promise<number> {
    return this.alone(async (run) => {
      try {
        const results = await run<ResultSetHeader[]>(STORE_INCREMENT, [this.id, tags]);
        const generation = results[1]?.insertId;
        if (!generation) throw new Error('the write generation was not incremented');
        return generation;
      } catch (error) {
        await run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  private listen(url: string): void {
    this.publisher = createRedis(url, 'cal-generation-pub');
    // The subscription is queued until connected, and renewed by ioredis after a reconnect.
    this.subscriber = createRedis(url, 'cal-generation-sub', { enableOfflineQueue: true });
    this.subscriber.on('message', (_channel: string, message: string) => {
      const [sender, generation, tags] = message.split(' ');
      if (sender === this.id) return;
      const value = Number(generation);
      // Only forward: an old message must not undo what a check has read since.
      if (!Number.isSafeInteger(value) || this.seen === null || value <= this.seen) return;
      // The next generation is bumped with the tags it carries (none: anything); with
      // generations in between, these are read from the log.
      this.catchUp(value, tags ? tags.split(',') : [ANYTHING]).catch((error: unknown) =>
        this.failed(error),
      );
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

  /** One statement on the side connection, between the others' units (`alone`). */
  private query<T>(sql: string, values?: unknown[]): Promise<T> {
    return this.alone((run) => run<T>(sql, values));
  }

  /** Runs `work`'s statements on the side connection with no other statement in between. */
  private alone<T>(work: (run: Run) => Promise<T>): Promise<T> {
    const side = this.side;
    if (!side) return Promise.reject(new Error('no shared generation on SQLite'));
    const run: Run = async <R>(sql: string, values?: unknown[]) => {
      const conn = await side.get();
      const [result] = await conn.query({ sql, values, timeout: QUERY_TIMEOUT_MS });
      return result as R;
    };
    const done = this.turn.then(() => work(run));
    this.turn = done.catch(() => undefined);
    return done;
  }

  private async dropConnection(): Promise<void> {
    await this.side?.drop();
  }
}

/**
 * The increment and its log row in one batch: LAST_INSERT_ID(expr) hands the new value to the
 * INSERT on the same connection (and back to the driver as the UPDATE's insertId); the row lock
 * orders the generations as their commits.
 */
const STORE_INCREMENT = [
  'START TRANSACTION',
  'UPDATE write_generation SET value = LAST_INSERT_ID(value + 1) WHERE id = 1',
  'INSERT INTO write_changes (generation, source, tags) VALUES (LAST_INSERT_ID(), ?, ?)',
  'COMMIT',
].join('; ');

type Run = <R>(sql: string, values?: unknown[]) => Promise<R>;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
