/** The part of a better-sqlite3 connection this needs. */
export interface SqliteConnection {
  prepare(sql: string): { get(): unknown };
  function(name: string, options: { deterministic: boolean }, fn: (x: number) => number): unknown;
}

const FUNCTIONS: Record<string, (x: number) => number> = {
  sin: Math.sin,
  cos: Math.cos,
  radians: (deg) => (deg * Math.PI) / 180,
};

/**
 * The geofence of the events list computes great-circle distances in SQL. SQLite has
 * `sin`, `cos` and `radians` only when built with SQLITE_ENABLE_MATH_FUNCTIONS, as
 * better-sqlite3's bundled SQLite is; a build without them gets deterministic JavaScript ones.
 * NULL in gives NULL out, as SQLite's own.
 */
export function ensureMathFunctions(db: SqliteConnection): string[] {
  const added: string[] = [];
  for (const [name, fn] of Object.entries(FUNCTIONS)) {
    try {
      db.prepare(`SELECT ${name}(0)`).get();
    } catch {
      db.function(name, { deterministic: true }, (x: number) =>
        x === null ? (null as unknown as number) : fn(x),
      );
      added.push(name);
    }
  }
  return added;
}
