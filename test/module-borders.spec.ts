import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * A module says what it uses by importing the modules that export it; only the configuration,
 * which every module reads, is global. A global module would let any module use its providers
 * without saying so, and the import picture (`npm run depcheck`) would not show it.
 */
describe('module borders', () => {
  it('declares no global module but the configuration', () => {
    const globals = sources(SRC)
      .filter((file) => /@Global\(\)|\bglobal:\s*true\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(globals).toEqual(['config/config.module.ts']);
  });
});
