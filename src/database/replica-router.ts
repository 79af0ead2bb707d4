import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Inject,
  Injectable,
  Logger,
  NestMiddleware,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RowDataPacket } from 'mysql2/promise';
import { SideConnection } from './side-connection.js';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SharedGeneration } from './shared-generation.js';

/** Each replica's generation is read this often. */
const POLL_MS = 50;
const TIMEOUT_MS = 1000;

interface Replica {
  name: string;
  config: AppConfig['replicas'][number];
  up: boolean;
  /** The write generation the replica has applied (null: unknown). */
  generation: number | null;
  connection: SideConnection;
  polling: boolean;
  /** When it was last seen with every write this process knows of (ms since the epoch). */
  caughtUpAt: number;
}

/** Per request: the replica its reads go to, if any (set by DatabaseAvailableGuard). */
interface RequestRoute {
  replica?: number;
}
const route = new AsyncLocalStorage<RequestRoute>();

/** Opens the request's routing context; ReplicaRouter.route() fills it in. */
@Injectable()
export class RequestRouteMiddleware implements NestMiddleware {
  use(_req: unknown, _res: unknown, next: () => void): void {
    route.run({}, next);
  }
}

/**
 * DATABASE_REPLICA_URLS: reads of GET requests go to a replica, writes and everything else to
 * the primary. A replica is used only once it has applied every write this process knows of:
 * each replica's copy of the `write_generation` row is read every POLL_MS, and a request reads
 * from a replica whose generation is at least SharedGeneration's (which every request has
 * brought up to date within its 50 ms). So a client reads its own write on its next request
 * (in the same process at once, in any process after the generation bound), and a lagging
 * replica is skipped until it has caught up. A replica that does not answer is skipped and used
 * again once it does; with none usable, everything goes to the primary.
 *
 * Routing hooks into TypeORM's driver: a query runner asked for the primary (`master`) during a
 * request routed to replica i is made a `slave` one, and a `slave` connection comes from pool
 * SLAVE<i> of the driver's pool cluster.
 */
@Injectable()
export class ReplicaRouter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReplicaRouter');
  private readonly replicas: Replica[];
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly generation: SharedGeneration,
  ) {
    this.replicas = config.replicas.map((replica) => ({
      name: `${replica.host}:${replica.port}`,
      config: replica,
      connection: new SideConnection(replica, TIMEOUT_MS),
      up: false,
      generation: null,
      polling: false,
      caughtUpAt: Date.now(),
    }));
  }

  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.hookDriver();
    this.timer = setInterval(() => {
      for (const replica of this.replicas) void this.poll(replica);
    }, POLL_MS);
    this.timer.unref();
    for (const replica of this.replicas) void this.poll(replica);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => this.drop(r)));
  }

  /** Sends the reads of the current request to a replica that has caught up, if any. */
  routeRead(): void {
    const store = route.getStore();
    if (!store || !this.enabled) return;
    const needed = this.generation.current;
    if (needed === null) return;
    const fresh = this.replicas
      .map((replica, index) => ({ replica, index }))
      .filter(
        ({ replica }) => replica.up && replica.generation !== null && replica.generation >= needed,
      );
    if (fresh.length === 0) return;
    store.replica = fresh[this.next++ % fresh.length].index;
  }

  /** For /health: each replica, whether it answers and how many writes it is behind. */
  status(): Array<{ name: string; status: 'up' | 'down'; behind: number | null }> {
    const primary = this.generation.current;
    return this.replicas.map((r) => ({
      name: r.name,
      status: r.up ? 'up' : 'down',
      behind:
        r.up && r.generation !== null && primary !== null
          ? Math.max(0, primary - r.generation)
          : null,
    }));
  }

  /** For the metrics: how long each replica that answers has been missing writes (0: none). */
  lag(now = Date.now()): Array<{ name: string; seconds: number }> {
    const primary = this.generation.current;
    return this.replicas
      .filter((r) => r.up && r.generation !== null)
      .map((r) => ({
        name: r.name,
        seconds: primary === null || r.generation! >= primary ? 0 : (now - r.caughtUpAt) / 1000,
      }));
  }

  private hookDriver(): void {
    const driver = this.ds.driver as unknown as {
      createQueryRunner(mode: 'master' | 'slave'): unknown;
      obtainSlaveConnection(): Promise<unknown>;
      obtainMasterConnection(): Promise<unknown>;
      prepareDbConnection(connection: unknown): unknown;
      poolCluster?: {
        getConnection(
          pattern: string,
          callback: (error: unknown, connection: unknown) => void,
        ): void;
      };
    };
    const createQueryRunner = driver.createQueryRunner.bind(driver);
    driver.createQueryRunner = (mode) =>
      createQueryRunner(route.getStore()?.replica !== undefined ? 'slave' : mode);
    driver.obtainSlaveConnection = () => {
      const index = route.getStore()?.replica;
      const cluster = driver.poolCluster;
      if (index === undefined || !cluster) return driver.obtainMasterConnection();
      return new Promise((resolve) => {
        cluster.getConnection(`SLAVE${index}`, (error, connection) => {
          if (!error) return resolve(driver.prepareDbConnection(connection));
          // The replica went away since its last poll: skip it, read from the primary.
          this.replicas[index].up = false;
          resolve(driver.obtainMasterConnection());
        });
      });
    };
  }

  private async poll(replica: Replica): Promise<void> {
    if (replica.polling || this.stopped) return;
    replica.polling = true;
    try {
      const conn = await replica.connection.get();
      const [rows] = await conn.query<RowDataPacket[]>({
        sql: 'SELECT value FROM write_generation WHERE id = 1',
        timeout: TIMEOUT_MS,
      });
      const wasDown = !replica.up && replica.generation !== null;
      replica.generation = Number(rows[0]?.value ?? 0);
      const primary = this.generation.current;
      if (primary === null || replica.generation >= primary) replica.caughtUpAt = Date.now();
      // Said when it comes back, not at start-up (the start-up line comes first).
      if (wasDown) {
        this.logger.log(`replica ${replica.name} available again`);
      }
      replica.up = true;
    } catch (error) {
      if (replica.up || replica.generation === null) {
        this.logger.warn(
          `replica ${replica.name} unavailable: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      replica.up = false;
      replica.generation = replica.generation ?? -1;
      await this.drop(replica);
    } finally {
      replica.polling = false;
    }
  }

  private async drop(replica: Replica): Promise<void> {
    await replica.connection.drop();
  }
}
