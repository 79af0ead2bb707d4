/**
 * LIKE patterns that mean the same on MySQL/MariaDB and SQLite: wildcards in user text are
 * escaped with `!` and every LIKE using them says `ESCAPE '!'` (a backslash is an escape
 * character in MySQL string literals but not in SQLite's).
 */
export const LIKE_ESCAPE = "ESCAPE '!'";
export const escapeLike = (s: string) => s.replace(/[!%_]/g, (c) => `!${c}`);
/** `%text%`, lower-cased for `LOWER(column) LIKE`. */
export const containsPattern = (s: string) => `%${escapeLike(s.toLowerCase())}%`;
