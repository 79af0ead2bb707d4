import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['venues', 'organizers'] as const;

/**
 * The duplicate check of venue and organizer creates (BEHAVIOR §7.4.2: same name in the same
 * language, ignoring case) read every row of the table: at 5,000 venues it was the costliest
 * statement of an event create with an inline venue. `IDX_<table>_title` finds the name at once.
 * MySQL/MariaDB compare `title` case-insensitively by its collation (utf8mb4_unicode_ci), so the
 * index holds the column itself, its first 191 characters (a TEXT column needs a prefix); SQLite
 * compares bytes, so its index holds LOWER(title), the expression its query compares.
 */
export class LinkedTitleIndex1764800000000 implements MigrationInterface {
  name = 'LinkedTitleIndex1764800000000';

  async up(q: QueryRunner): Promise<void> {
    const sqlite = q.connection.options.type === 'better-sqlite3';
    for (const table of TABLES) {
      await q.query(
        `CREATE INDEX IDX_${table}_title ON ${table} (language, ${sqlite ? 'LOWER(title)' : 'title(191)'})`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const sqlite = q.connection.options.type === 'better-sqlite3';
    for (const table of TABLES) {
      await q.query(`DROP INDEX IDX_${table}_title${sqlite ? '' : ` ON ${table}`}`);
    }
  }
}
