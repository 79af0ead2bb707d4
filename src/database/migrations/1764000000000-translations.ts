import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/** The tables whose records have a language and may be translations of each other. */
const TRANSLATABLE = ['events', 'venues', 'organizers', 'terms'] as const;

/**
 * Linked translations (CONTRACT §5): `translation_group` on every translatable table.
 *
 * Representation: translations of one record share a group id, which is the id of one of the
 * group's current members (its first record, until that one leaves the group). NULL means "no
 * translations": every record starts alone, so existing rows need no backfill. The unique index
 * on (translation_group, language) allows at most one member per language and serves the
 * look-up of a page's translations; NULLs never collide, on MySQL/MariaDB and SQLite alike.
 *
 * Term counts become per language (a term counts the events of its own language), so the term
 * links also copy the event's language, next to the status and date copied by
 * EventTermsState1763900000000, and the count index leads with it.
 *
 * Rows written before languages were checked could hold an empty or unknown language: they are
 * given DEFAULT_LANGUAGE (read from the environment, as the app reads it; `en` when unset),
 * with a slug made unique when the default language already uses it.
 */
export class Translations1764000000000 implements MigrationInterface {
  name = 'Translations1764000000000';

  async up(q: QueryRunner): Promise<void> {
    const fallback = defaultLanguage();
    for (const table of TRANSLATABLE) await normalizeLanguages(q, table, fallback);

    for (const table of TRANSLATABLE) {
      await q.addColumn(
        table,
        new TableColumn({ name: 'translation_group', type: 'integer', isNullable: true }),
      );
      await q.createIndex(
        table,
        new TableIndex({
          name: `IDX_${table}_translation`,
          columnNames: ['translation_group', 'language'],
          isUnique: true,
        }),
      );
    }

    await q.addColumn(
      'event_terms',
      new TableColumn({ name: 'event_language', type: 'varchar', length: '5', default: "''" }),
    );
    await q.query(
      `UPDATE event_terms SET
         event_language = (SELECT e.language FROM events e WHERE e.id = event_terms.event_id)
       WHERE EXISTS (SELECT 1 FROM events e WHERE e.id = event_terms.event_id)`,
    );
    await q.dropIndex('event_terms', 'IDX_event_terms_count');
    await q.createIndex(
      'event_terms',
      new TableIndex({
        name: 'IDX_event_terms_count',
        columnNames: ['term_id', 'event_language', 'event_status', 'event_date_utc'],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('event_terms', 'IDX_event_terms_count');
    await q.createIndex(
      'event_terms',
      new TableIndex({
        name: 'IDX_event_terms_count',
        columnNames: ['term_id', 'event_status', 'event_date_utc'],
      }),
    );
    await q.dropColumn('event_terms', 'event_language');
    for (const table of TRANSLATABLE.toReversed()) {
      await q.dropIndex(table, `IDX_${table}_translation`);
      await q.dropColumn(table, 'translation_group');
    }
  }
}

// Frozen copies of what this migration needs: a migration must keep doing what it did when it was
// written, whatever the live code later becomes, so it imports nothing from the application.
const LANGUAGES = ['en', 'hu', 'ro'] as const;
type Language = (typeof LANGUAGES)[number];
const isLanguage = (value: string): value is Language =>
  (LANGUAGES as readonly string[]).includes(value);

function defaultLanguage(): Language {
  const value = process.env.DEFAULT_LANGUAGE?.trim() || 'en';
  return isLanguage(value) ? value : 'en';
}

/**
 * Gives every row of `table` whose language is not a supported one the default language. A slug
 * that the default language already uses gets the row id appended (`slug-12`), so the unique
 * (language, slug) index — per taxonomy for terms — still holds. Such rows can only come from
 * outside the API, so this runs row by row.
 */
async function normalizeLanguages(q: QueryRunner, table: string, language: Language) {
  const marks = LANGUAGES.map(() => '?').join(', ');
  const terms = table === 'terms';
  const rows: Array<{ id: number | string; slug: string | null; taxonomy?: string }> =
    await q.query(
      `SELECT id, slug${terms ? ', taxonomy' : ''} FROM ${table}
       WHERE language IS NULL OR language NOT IN (${marks}) ORDER BY id`,
      [...LANGUAGES],
    );
  for (const row of rows) {
    let slug = row.slug;
    if (slug) {
      const clash: unknown[] = await q.query(
        `SELECT id FROM ${table} WHERE language = ? AND slug = ?${terms ? ' AND taxonomy = ?' : ''}`,
        terms ? [language, slug, row.taxonomy] : [language, slug],
      );
      if (clash.length) slug = `${slug}-${row.id}`;
    }
    await q.query(`UPDATE ${table} SET language = ?, slug = ? WHERE id = ?`, [
      language,
      slug,
      row.id,
    ]);
  }
}
