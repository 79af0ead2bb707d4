import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const DATABASE_HELPER = join(ROOT, 'test/helpers/database.ts');

/** The repository's own files that `file` imports, directly or through others (relative imports). */
function localImports(file: string, seen = new Set<string>()): Set<string> {
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(
    /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g,
  )) {
    const target = resolve(dirname(file), spec.replace(/\.m?js$/, '.ts'));
    const path = [target, `${target}.ts`, join(target, 'index.ts')].find(
      (p) => p.endsWith('.ts') && existsSync(p),
    );
    if (!path || seen.has(path)) continue;
    seen.add(path);
    localImports(path, seen);
  }
  return seen;
}

/**
 * vitest.config.ts runs the unit specs (`*.spec.ts`) in the SQLite run only: run against
 * MySQL/MariaDB they would do the same thing again. That holds while none of them reaches the
 * test database, which this keeps true: a unit spec that needs one is an end-to-end file.
 */
describe('the suite split by database', () => {
  const units = ['src', 'test']
    .flatMap((dir) =>
      (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).map((f) =>
        join(ROOT, dir, f),
      ),
    )
    .filter((f) => f.endsWith('.spec.ts') && !f.endsWith('.e2e-spec.ts'))
    // This file names the variable to look for it.
    .filter((f) => f !== import.meta.filename);

  it('no unit spec opens the test database', () => {
    expect(units.length).toBeGreaterThan(80);
    const reaching = units.filter(
      (file) =>
        /TEST_DATABASE_URL/.test(readFileSync(file, 'utf8')) ||
        localImports(file).has(DATABASE_HELPER),
    );
    expect(reaching.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('sees a file that would', () => {
    // The end-to-end helper reaches it: the check follows imports through other files.
    expect(localImports(join(ROOT, 'test/helpers/create-test-app.ts')).has(DATABASE_HELPER)).toBe(
      true,
    );
  });
});
