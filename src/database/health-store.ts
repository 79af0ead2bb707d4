import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * What `GET /health` and `/health/ready` ask of the database: whether it answers a query through
 * the pool (as requests would), and whether migrations are pending. Queries run in stores.
 */
@Injectable()
export class HealthStore {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async ping(): Promise<void> {
    await this.ds.query('SELECT 1');
  }

  migrationsPending(): Promise<boolean> {
    return this.ds.showMigrations();
  }
}
