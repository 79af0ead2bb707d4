import { Column, ColumnOptions } from 'typeorm';

/**
 * Date-times are stored as `YYYY-MM-DD HH:MM:SS` text, never as driver dates: event times are
 * floating wall clocks (filters compare them as such, BEHAVIOR §1.7), and strings keep MySQL,
 * MariaDB and SQLite identical (no driver time-zone conversion) while sorting and indexing
 * correctly.
 */
const DATETIME_LENGTH = 19;

export function DateTimeColumn(name: string, options: Partial<ColumnOptions> = {}) {
  return Column({ name, type: 'varchar', length: DATETIME_LENGTH, ...options });
}

/** Booleans as small integers (0/1), the portable form on both engines. */
export function FlagColumn(name: string, options: Partial<ColumnOptions> = {}) {
  return Column({
    name,
    type: 'smallint',
    default: 0,
    transformer: {
      to: (v?: boolean) => (v === undefined ? v : v ? 1 : 0),
      from: (v: number) => !!v,
    },
    ...options,
  });
}

// Re-exported for the modules that import it from here; defined without TypeORM (see utc-sql.ts).
export { nowUtcSql } from './utc-sql.js';
