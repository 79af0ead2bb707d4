/**
 * LIKE patterns that mean the same on MySQL/MariaDB and SQLite: wildcards in user text are
 * escaped with `!` and every LIKE using them says `ESCAPE '!'` (a backslash is an escape
 * character in MySQL string literals but not in SQLite's).
 */
export const LIKE_ESCAPE = "ESCAPE '!'";
export const escapeLike = (s: string) => s.replace(/[!%_]/g, (c) => `!${c}`);
/** `%text%`, lower-cased for `LOWER(column) LIKE`. */
export const containsPattern = (s: string) => `%${escapeLike(s.toLowerCase())}%`;

type Engine = { options: { type: string } };

/**
 * `column` (or a `:param`) as compared ignoring case. MySQL/MariaDB columns use a
 * case-insensitive collation (utf8mb4_unicode_ci), so the bare column compares and sorts as
 * LOWER() would, and an index on it serves; SQLite compares bytes.
 */
export const caseFolded = (ds: Engine, column: string) =>
  ds.options.type === 'better-sqlite3' ? `LOWER(${column})` : column;

/** `column` equals parameter `param` ignoring case (see caseFolded). */
export const equalsIgnoringCase = (ds: Engine, column: string, param: string) =>
  `${caseFolded(ds, column)} = ${caseFolded(ds, `:${param}`)}`;
