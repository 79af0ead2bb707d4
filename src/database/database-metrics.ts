import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEmitter } from 'node:events';
import type {
  AfterQueryEvent,
  BeforeQueryEvent,
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
} from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ReplicaRouter } from './replica-router.js';
import { Metrics } from '../metrics/metrics.js';
import { STATEMENT_SEPARATOR } from './statement-batch.js';

/**
 * The first word of a statement, as the `kind` label: a handful of values, never the SQL;
 * `batch` for statements sent in one exchange (statement-batch.ts).
 */
export function statementKind(sql: string): string {
  if (sql.includes(STATEMENT_SEPARATOR)) return 'batch';
  // Trimmed first: one run of blanks before the word keeps the pattern linear.
  const word = /^\(?\s*([A-Za-z]+)/.exec(sql.trimStart().slice(0, 64))?.[1]?.toLowerCase();
  switch (word) {
    case 'select':
    case 'insert':
    case 'update':
    case 'delete':
      return word;
    case 'with':
      return 'select';
    case 'replace':
      return 'insert';
    case 'start':
    case 'begin':
    case 'commit':
    case 'rollback':
    case 'savepoint':
    case 'release':
      return 'transaction';
    default:
      return 'other';
  }
}

/** mysql2's pool, as far as its figures go (its fields are not part of its typings). */
interface MysqlPool extends EventEmitter {
  config: { connectionLimit: number };
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
}

/** The pools of the TypeORM driver: one, or the primary's and each replica's (replication). */
function poolsOf(ds: DataSource): Array<{ name: string; pool: MysqlPool }> {
  const driver = ds.driver as unknown as {
    pool?: MysqlPool;
    poolCluster?: { _nodes: Record<string, { pool: MysqlPool }> };
  };
  if (driver.pool) return [{ name: 'primary', pool: driver.pool }];
  return Object.entries(driver.poolCluster?._nodes ?? {}).map(([id, node]) => ({
    name: id === 'MASTER' ? 'primary' : id.replace(/^SLAVE/, 'replica'),
    pool: node.pool,
  }));
}

/**
 * The database's metrics: statement durations by kind (a TypeORM subscriber, so every statement
 * the app runs through TypeORM counts, on both engines), the MySQL/MariaDB pools' use and waits,
 * and each replica's lag. Installed only with METRICS_PORT set.
 */
@Injectable()
export class DatabaseMetrics implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly metrics: Metrics,
    private readonly replicas: ReplicaRouter,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.metrics.enabled) return;
    this.ds.subscribers.push(queryTimer(this.metrics));
    if (this.config.database.type !== 'sqlite') this.poolMetrics();
    if (this.replicas.enabled) this.replicaMetrics();
  }

  private poolMetrics(): void {
    const pools = () => poolsOf(this.ds);
    const waits = this.metrics.counter(
      'cal_db_pool_waits_total',
      'Connection requests that had to queue for a free connection of the pool.',
      ['pool'],
    );
    for (const { name, pool } of pools()) {
      waits.inc({ pool: name }, 0);
      pool.on('enqueue', () => waits.inc({ pool: name }));
    }
    const gauge = (metric: string, help: string, read: (pool: MysqlPool) => number) =>
      this.metrics.gauge(metric, help, ['pool'], {
        collect() {
          for (const { name, pool } of pools()) this.set({ pool: name }, read(pool));
        },
      });
    gauge('cal_db_pool_connections_in_use', 'Connections lent out to a query.', (pool) =>
      Math.max(0, pool._allConnections.length - pool._freeConnections.length),
    );
    gauge(
      'cal_db_pool_connections_idle',
      'Open connections waiting for a query.',
      (pool) => pool._freeConnections.length,
    );
    gauge(
      'cal_db_pool_connections_max',
      'The most connections the pool opens.',
      (pool) => pool.config.connectionLimit,
    );
    gauge(
      'cal_db_pool_waiting',
      'Queries waiting now for a connection.',
      (pool) => pool._connectionQueue.length,
    );
  }

  private replicaMetrics(): void {
    const replicas = this.replicas;
    this.metrics.gauge(
      'cal_db_replica_up',
      'Whether a replica answers (1) or not (0).',
      ['replica'],
      {
        aggregator: 'min',
        collect() {
          for (const r of replicas.status())
            this.set({ replica: r.name }, r.status === 'up' ? 1 : 0);
        },
      },
    );
    this.metrics.gauge(
      'cal_db_replica_lag_seconds',
      'How long a replica has been missing writes of the primary (0: it has them all).',
      ['replica'],
      {
        aggregator: 'max',
        collect() {
          for (const r of replicas.lag()) this.set({ replica: r.name }, r.seconds);
        },
      },
    );
    this.metrics.gauge(
      'cal_db_replica_writes_behind',
      'Write generations of the primary a replica has not applied yet.',
      ['replica'],
      {
        aggregator: 'max',
        collect() {
          for (const r of replicas.status())
            if (r.behind !== null) this.set({ replica: r.name }, r.behind);
        },
      },
    );
  }
}

/** Times every statement TypeORM runs (BeforeQuery to AfterQuery of one query runner). */
function queryTimer(metrics: Metrics): EntitySubscriberInterface {
  const started = new WeakMap<QueryRunner, bigint>();
  return {
    beforeQuery(event: BeforeQueryEvent) {
      started.set(event.queryRunner, process.hrtime.bigint());
    },
    afterQuery(event: AfterQueryEvent) {
      const start = started.get(event.queryRunner);
      if (start === undefined) return;
      started.delete(event.queryRunner);
      metrics.queryDuration.observe(
        {
          kind: statementKind(event.query),
          pool: event.queryRunner.getReplicationMode() === 'slave' ? 'replica' : 'primary',
        },
        Number(process.hrtime.bigint() - start) / 1e9,
      );
    },
  };
}
