#!/usr/bin/env node
// `npm start`'s build step: runs `npm run build` (tsc, incremental through dist/.tsbuildinfo)
// and the editors' console (admin/, Vite) only when something they compile changed since the last
// build, so a restart without changes starts at once. Changed means: a file or folder under src/
// or admin/, the console's catalogues (i18n/*/console.json), tsconfig*.json or package-lock.json
// newer than dist/.tsbuildinfo (a folder's time moves when a file in it is added, removed or
// renamed), or no dist/main.js or dist/admin/index.html at all.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const INFO = join(ROOT, 'dist', '.tsbuildinfo');

function newestUnder(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestUnder(join(path, entry)));
  return newest;
}

const inputs = [
  'src',
  'admin',
  'i18n/en/console.json',
  'i18n/hu/console.json',
  'i18n/ro/console.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
]
  .map((name) => join(ROOT, name))
  .filter((path) => existsSync(path));
const built =
  existsSync(join(ROOT, 'dist', 'main.js')) &&
  existsSync(join(ROOT, 'dist', 'admin', 'index.html')) &&
  existsSync(INFO);
if (built && Math.max(...inputs.map(newestUnder)) <= statSync(INFO).mtimeMs) {
  console.error('dist/ is up to date: nothing to build');
} else {
  // Without the server's entry point the build info cannot be trusted: build everything.
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) rmSync(INFO, { force: true });
  // tsc prints nothing while it works: say what the wait is for (the first build takes 10-20 s).
  console.error(
    built
      ? 'compiling what changed under src/ into dist/ (tsc)...'
      : 'compiling src/ into dist/ (tsc; 10-20 s the first time, a restart without changes skips it)...',
  );
  const npm = process.env.npm_execpath;
  if (npm)
    execFileSync(process.execPath, [npm, 'run', 'build', '--silent'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  else execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  // tsc leaves its build info as it was when only the console changed: mark this build.
  if (existsSync(INFO)) utimesSync(INFO, new Date(), new Date());
}
