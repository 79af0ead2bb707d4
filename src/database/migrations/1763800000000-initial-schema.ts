import type { QueryRunner, TableColumnOptions, TableOptions } from 'typeorm';
import { EVENTS_LISTING_COLUMNS, index, tablesMigration } from './schema-steps.js';

const dt = (name: string, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '19',
  isNullable: nullable,
});
const str = (name: string, length: number, extra: Partial<TableColumnOptions> = {}) =>
  ({ name, type: 'varchar', length: String(length), ...extra }) as TableColumnOptions;
const flag = (name: string, def: 0 | 1): TableColumnOptions => ({
  name,
  type: 'smallint',
  default: def,
});
const int = (name: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'integer',
  ...extra,
});
const text = (name: string): TableColumnOptions => ({ name, type: 'text' });

/** Columns every post (event, venue, organizer) has, as WordPress `wp_posts` does. */
const postColumns = (): TableColumnOptions[] => [
  int('id', { isPrimary: true }),
  int('author_id', { default: 0 }),
  str('status', 20),
  text('title'),
  str('slug', 200, { isNullable: true }),
  text('description'),
  text('excerpt'),
  str('password', 255, { default: "''" }),
  dt('date'),
  dt('date_utc', true),
  dt('modified'),
  dt('modified_utc'),
  str('image_url', 2048, { isNullable: true }),
  str('language', 5),
];

/** The linked posts' indexes: slugs unique per language, the listing order, the author. */
const linkedIndices = (t: string) => [
  index(`IDX_${t}_slug`, ['language', 'slug'], true),
  index(`IDX_${t}_listing`, ['language', 'status', 'date']),
  index(`IDX_${t}_author`, ['author_id']),
];

/** The tables in the order they are created (`down` drops them in the reverse order). */
const TABLES: TableOptions[] = [
  {
    name: 'users',
    columns: [
      int('id', { isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
      str('login', 60),
      str('email', 100, { default: "''" }),
      str('display_name', 250, { default: "''" }),
      str('role', 20),
      str('password_hash', 255),
      dt('created_at'),
    ],
    indices: [index('IDX_users_login', ['login'], true)],
  },
  {
    name: 'post_ids',
    columns: [
      int('id', { isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
      str('kind', 20),
    ],
  },
  {
    name: 'events',
    columns: [
      ...postColumns(),
      dt('start_date'),
      dt('end_date'),
      dt('start_utc'),
      dt('end_utc'),
      str('timezone', 64),
      flag('all_day', 0),
      text('cost'),
      str('currency_symbol', 20, { default: "''" }),
      str('currency_position', 10, { default: "''" }),
      str('website', 2048, { isNullable: true }),
      flag('show_map', 0),
      flag('show_map_link', 0),
      flag('hide_from_listings', 0),
      flag('sticky', 0),
      flag('featured', 0),
      int('venue_id', { isNullable: true }),
      int('post_parent', { default: 0 }),
    ],
    indices: [
      // The default listing: language + visible + start window, in the archive's order
      // (start_date, date, id) so LIMIT stops early, and covering the visibility and end
      // columns so the total is counted from the index alone.
      index('IDX_events_listing', EVENTS_LISTING_COLUMNS),
      index('IDX_events_end', ['end_date']),
      index('IDX_events_slug', ['language', 'slug'], true),
      index('IDX_events_venue', ['venue_id']),
      index('IDX_events_author', ['author_id']),
      index('IDX_events_status_date', ['status', 'date']),
      index('IDX_events_parent', ['post_parent']),
    ],
  },
  {
    name: 'venues',
    columns: [
      ...postColumns(),
      ...['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'].map(
        (c) => str(c, 255, { default: "''" }),
      ),
      str('website', 2048, { default: "''" }),
      flag('show_map', 1),
      flag('show_map_link', 1),
      { name: 'geo_lat', type: 'double', isNullable: true },
      { name: 'geo_lng', type: 'double', isNullable: true },
    ],
    indices: linkedIndices('venues'),
  },
  {
    name: 'organizers',
    columns: [
      ...postColumns(),
      str('phone', 255, { default: "''" }),
      str('website', 2048, { default: "''" }),
      str('email', 255, { default: "''" }),
    ],
    indices: linkedIndices('organizers'),
  },
  {
    name: 'terms',
    columns: [
      int('id', { isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
      str('taxonomy', 32),
      str('name', 200),
      str('slug', 200),
      text('description'),
      int('parent', { default: 0 }),
      str('language', 5),
    ],
    indices: [
      index('IDX_terms_slug', ['taxonomy', 'language', 'slug'], true),
      index('IDX_terms_name', ['taxonomy', 'language', 'name']),
      index('IDX_terms_parent', ['parent']),
    ],
  },
  {
    name: 'event_terms',
    columns: [int('event_id', { isPrimary: true }), int('term_id', { isPrimary: true })],
    indices: [index('IDX_event_terms_term', ['term_id'])],
  },
  {
    name: 'event_organizers',
    columns: [
      int('event_id', { isPrimary: true }),
      int('organizer_id', { isPrimary: true }),
      int('position', { default: 0 }),
    ],
    indices: [index('IDX_event_organizers_organizer', ['organizer_id'])],
  },
];

/**
 * The whole first schema, written once for MySQL/MariaDB and SQLite with portable types.
 * Posts (events, venues, organizers) take their ids from `post_ids`, one sequence as WordPress
 * posts share one (CONTRACT §6); categories and tags share `terms.id`.
 */
export class InitialSchema1763800000000 extends tablesMigration(...TABLES) {
  name = 'InitialSchema1763800000000';

  override async up(q: QueryRunner): Promise<void> {
    const type = q.connection.driver.options.type;
    if (type === 'mysql' || type === 'mariadb') {
      // Debian's MariaDB defaults to latin1, which cannot store "Țară".
      await q.query('ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    }
    await super.up(q);
  }
}
