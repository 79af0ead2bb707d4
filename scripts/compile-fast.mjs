// Compiles src/ to runnable ES modules with swc, file by file, without type-checking: about a
// second instead of tsc's ten. For tests that spawn the program and for local scripts; `npm run
// build` (tsc) stays the build that ships.
//
//   node scripts/compile-fast.mjs [outDir]    (default: node_modules/.cache/cal-fast-build)
import { transformFile } from '@swc/core';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FAST_BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'cal-fast-build');

const SWC_OPTIONS = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !/\.(spec|d)\.ts$/.test(entry.name)) yield path;
  }
}

/** Compiles every non-test source of src/ into `outDir`, keeping the folder layout. */
export async function compileFast(outDir = FAST_BUILD_DIR) {
  const src = join(ROOT, 'src');
  const jobs = [];
  for await (const file of sources(src)) {
    const target = join(outDir, relative(src, file)).replace(/\.ts$/, '.js');
    jobs.push(
      transformFile(file, { ...SWC_OPTIONS, filename: file }).then(async ({ code }) => {
        await mkdir(dirname(target), { recursive: true });
        await replace(target, code);
      }),
    );
  }
  await Promise.all(jobs);
  // The output is ESM whatever the nearest package.json says.
  await replace(join(outDir, 'package.json'), '{ "type": "module" }\n');
  return outDir;
}

/**
 * Another suite running beside this one may be starting the program from these files: a file is
 * left alone when it has not changed, and otherwise replaced whole (a rename), never seen half
 * written.
 */
async function replace(target, content) {
  const old = await readFile(target, 'utf8').catch(() => undefined);
  if (old === content) return;
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, target);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const out = await compileFast(process.argv[2] ? join(process.cwd(), process.argv[2]) : undefined);
  console.log(`compiled src/ into ${relative(process.cwd(), out)} in ${Date.now() - started} ms`);
}
