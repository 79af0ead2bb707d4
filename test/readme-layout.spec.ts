import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** README's "Layout" section, up to the next heading of its level. */
function layoutSection(): string {
  const start = README.indexOf('\n## Layout\n');
  expect(start).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

function sourceText(dir = join(ROOT, 'src')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceText(path);
      return entry.name.endsWith('.ts') ? readFileSync(path, 'utf8') : '';
    })
    .join('\n');
}

/**
 * The layout a newcomer reads first must be the code's: every folder of `src/` is named there,
 * and every file, class and method it names exists (a renamed seam fails here, not in a reader's
 * first hour).
 */
describe("README's layout section", () => {
  const section = layoutSection();
  const code = sourceText();

  it('names every folder of src/', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const missing = folders.filter((folder) => !new RegExp(`\\b${folder}/`).test(section));
    expect(missing).toEqual([]);
  });

  it('names only files that exist', () => {
    const paths = [...section.matchAll(/`(src\/[\w./-]+\.ts)`/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('names only classes and methods the code declares', () => {
    const classes = [...section.matchAll(/`([A-Z][A-Za-z]+)(?:\(\))?`/g)].map((m) => m[1]);
    const methods = [...section.matchAll(/`[a-z]+\.([a-zA-Z]+)\(/g)].map((m) => m[1]);
    expect(classes.length).toBeGreaterThan(3);
    // Declared here, or imported from a library the code uses (Nest's ValidationPipe).
    const known = (name: string) =>
      new RegExp(`\\b(class|function|const) ${name}\\b|import \\{[^}]*\\b${name}\\b`).test(code);
    expect(classes.filter((name) => !known(name))).toEqual([]);
    expect(methods.filter((name) => !new RegExp(`\\b${name}(\\(|<|: \\()`).test(code))).toEqual([]);
  });
});
