import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { WithoutDatabase } from '../database/database-availability.js';
import { ReplicaRouter } from '../database/replica-router.js';
import { SharedGeneration } from '../database/shared-generation.js';

/** `GET /health`, outside the namespace: 200 when the database answers, 503 when not. */
@ApiExcludeController()
@WithoutDatabase()
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly replicas: ReplicaRouter,
    private readonly generation: SharedGeneration,
  ) {}

  @Get()
  async check(@Res() res: Response) {
    const started = Date.now();
    // Replicas are reported against the primary's latest write generation.
    if (this.replicas.enabled) await this.generation.sync();
    try {
      await withTimeout(this.db.query('SELECT 1'), 1000);
      res.status(200).json({
        status: 'ok',
        database: { status: 'up', ms: Date.now() - started },
        ...this.replicaStatus(),
      });
    } catch {
      res
        .status(503)
        .json({ status: 'error', database: { status: 'down' }, ...this.replicaStatus() });
    }
  }

  /** With DATABASE_REPLICA_URLS: each replica (a replica down leaves the service healthy). */
  private replicaStatus() {
    return this.replicas.enabled ? { replicas: this.replicas.status() } : {};
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
