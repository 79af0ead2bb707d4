import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root (the folder holding `i18n/`), found from this file: `src/` under ts tools and
 * the tests, `dist/` when built. Searching upward keeps it independent of the working directory.
 */
function findRoot(start: string): string {
  let dir = start;
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'i18n'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

/**
 * The folder of the program's modules: `dist/` when built (or the tests' compiled copy of it),
 * `src/` under the test runner, where only the TypeScript sources are.
 */
export const CODE_DIR = dirname(resolve(__dirnameOfThisModule()));
export const PROJECT_ROOT = findRoot(CODE_DIR);
export const I18N_DIR = join(PROJECT_ROOT, 'i18n');
/** Templates and the stylesheet of the public pages (src/public). */
export const VIEWS_DIR = join(PROJECT_ROOT, 'views');

function __dirnameOfThisModule(): string {
  // Node's ESM: import.meta.dirname; where a loader defines __dirname (the test runner), that.
  // An older Node has no import.meta.dirname; it must still reach src/config/node-version.ts's message.
  if (typeof __dirname === 'string') return __dirname;
  return import.meta.dirname ?? dirname(fileURLToPath(import.meta.url));
}

/** The editors' console as `npm run build` leaves it (admin/, built by Vite): src/console serves it. */
export const CONSOLE_DIR = join(PROJECT_ROOT, 'dist', 'admin');
