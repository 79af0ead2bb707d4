import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { WithoutDatabase } from '../database/database-availability.js';
import { HealthStore } from '../database/health-store.js';
import { ReplicaRouter } from '../database/replica-router.js';
import { SharedGeneration } from '../database/shared-generation.js';
import { SharedThrottleStores } from '../auth/redis-throttle-store.js';
import { Drain } from './drain.js';

/**
 * `GET /health`, outside the namespace: 200 when the database answers, 503 when not; and the
 * orchestrators' probes beside it: `/health/live` (the process answers) and `/health/ready`
 * (the database answers, its migrations are current, and the process is not stopping).
 */
@ApiExcludeController()
@WithoutDatabase()
@Controller('health')
export class HealthController {
  constructor(
    private readonly db: HealthStore,
    private readonly replicas: ReplicaRouter,
    private readonly generation: SharedGeneration,
    private readonly drain: Drain,
    private readonly throttle: SharedThrottleStores,
  ) {}

  /** Liveness: answering at all is the check (a restart would not fix the database). */
  @Get('live')
  live(@Res() res: Response) {
    res.status(200).json({ status: 'ok' });
  }

  /** Readiness: whether this process should be sent requests now. */
  @Get('ready')
  async ready(@Res() res: Response) {
    const draining = this.drain.draining;
    let database: 'up' | 'down' = 'down';
    let migrations: 'current' | 'pending' | 'unknown' = 'unknown';
    if (!draining) {
      try {
        await withTimeout(this.db.ping(), 1000);
        database = 'up';
        migrations = (await withTimeout(this.db.migrationsPending(), 1000)) ? 'pending' : 'current';
      } catch {
        // Reported as it stands: down, or migrations unknown.
      }
    }
    const ok = !draining && database === 'up' && migrations === 'current';
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? 'ok' : 'error', draining, database: { status: database }, migrations });
  }

  @Get()
  async check(@Res() res: Response) {
    const started = Date.now();
    // Replicas are reported against the primary's latest write generation.
    if (this.replicas.enabled) await this.generation.sync();
    try {
      await withTimeout(this.db.ping(), 1000);
      res.status(200).json({
        status: 'ok',
        database: { status: 'up', ms: Date.now() - started },
        ...this.replicaStatus(),
        redis: this.throttle.redisStatus(),
      });
    } catch {
      res.status(503).json({
        status: 'error',
        database: { status: 'down' },
        ...this.replicaStatus(),
        redis: this.throttle.redisStatus(),
      });
    }
  }

  /** With DATABASE_REPLICA_URLS: each replica (a replica down leaves the service healthy). */
  private replicaStatus() {
    return this.replicas.enabled ? { replicas: this.replicas.status() } : {};
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
