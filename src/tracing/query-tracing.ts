import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AfterQueryEvent,
  BeforeQueryEvent,
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
} from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { statementKind } from '../database/database-metrics.js';
import { STATEMENT_SEPARATOR } from '../database/statement-batch.js';
import { SpanKind, SpanStatusCode, startChildSpan, tracingEnabled, type Span } from './spans.js';

/** The longest statement text recorded on a span (a long IN list is cut, not dropped). */
const LONGEST_STATEMENT = 4096;

/**
 * A client span for every database statement TypeORM runs inside a traced operation (a request,
 * a command of the CLI), as a child of it: named by the kind of statement (`SELECT`, `INSERT`,
 * `TRANSACTION`...), with its text as sent, placeholders and all (never the values bound to
 * them), the database and the replica or primary it went to. Statements of background work
 * outside any traced operation make no spans. Installed only when tracing is on.
 */
@Injectable()
export class QueryTracing implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (tracingEnabled()) this.ds.subscribers.push(queryTracer(this.config.database));
  }
}

function queryTracer(database: AppConfig['database']): EntitySubscriberInterface {
  const common =
    database.type === 'sqlite'
      ? { 'db.system.name': 'sqlite', 'db.namespace': database.path }
      : {
          'db.system.name': database.type === 'mariadb' ? 'mariadb' : 'mysql',
          'db.namespace': database.database,
          'server.address': database.host,
          'server.port': database.port,
        };
  // Statements of one query runner run one after the other (SQLite's one connection is shared
  // by concurrent requests): their spans end in the order they started.
  const open = new WeakMap<QueryRunner, Array<Span | null>>();
  return {
    beforeQuery(event: BeforeQueryEvent) {
      const kind = statementKind(event.query);
      const span = startChildSpan(kind.toUpperCase(), SpanKind.CLIENT, () => ({
        ...common,
        'db.operation.name': kind.toUpperCase(),
        'db.query.text': event.query.slice(0, LONGEST_STATEMENT),
        'cal.db.pool': event.queryRunner.getReplicationMode() === 'slave' ? 'replica' : 'primary',
        ...(kind === 'batch' && {
          'db.operation.batch.size': event.query.split(STATEMENT_SEPARATOR).length,
        }),
      }));
      let queue = open.get(event.queryRunner);
      if (!queue) open.set(event.queryRunner, (queue = []));
      queue.push(span);
    },
    afterQuery(event: AfterQueryEvent) {
      const span = open.get(event.queryRunner)?.shift();
      if (!span) return;
      if (!event.success) {
        const error = event.error as { code?: unknown; message?: unknown } | undefined;
        const code = typeof error?.code === 'string' ? error.code : 'error';
        span.setAttribute('error.type', code);
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: typeof error?.message === 'string' ? error.message.slice(0, 200) : code,
        });
      }
      span.end();
    },
  };
}
