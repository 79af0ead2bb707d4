import type { TableOptions } from 'typeorm';
import { tablesMigration } from './schema-steps.js';

const IMPORT_MAP: TableOptions = {
  name: 'import_map',
  columns: [
    { name: 'source', type: 'varchar', length: '255', isPrimary: true },
    { name: 'kind', type: 'varchar', length: '20', isPrimary: true },
    { name: 'source_id', type: 'varchar', length: '255', isPrimary: true },
    { name: 'local_id', type: 'integer' },
    { name: 'digest', type: 'varchar', length: '64' },
  ],
};

/**
 * The importers' memory (README "Importing a calendar"): for each source (a REST root or an iCalendar address), which
 * local record each source record became, and a digest of what was last written from it, so that
 * a re-run updates what changed, creates what is new and never duplicates. A row is written in
 * the same transaction as its record, so an interrupted import resumes where it stopped.
 */
export class ImportMap1764500000000 extends tablesMigration(IMPORT_MAP) {
  name = 'ImportMap1764500000000';
}
