import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { selectKeyed, type KeyedRows, type KeyedTable } from '../database/plain-select.js';

/**
 * The reads of the modules' stored payload values (PayloadContributor.stored) that the records'
 * own reads did not bring along: one query per table and page.
 */
@Injectable()
export class StoredValuesStore {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  rowsOf(table: KeyedTable, ids: readonly number[]): Promise<KeyedRows> {
    return selectKeyed(this.ds.manager, table, ids);
  }
}
