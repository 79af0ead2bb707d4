/** MySQL/MariaDB ER_DUP_ENTRY or SQLite's UNIQUE constraint failure. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; message?: string };
  return (
    e?.code === 'ER_DUP_ENTRY' ||
    e?.errno === 1062 ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/i.test(e?.message ?? '')
  );
}
