import { availableParallelism } from 'node:os';
import swc from 'unplugin-swc';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The files of a worker share one module graph (isolate: false): the app's modules (Nest,
// TypeORM, ...) load once per worker, not once per file, which was two thirds of the suite's CPU
// time. Every file still builds its own app on its own database (test/helpers/create-test-app.ts),
// so no state is carried from one file to the next. swc compiles the TypeScript with the
// decorator metadata that Nest's dependency injection reads.
const workers = Number(process.env.TEST_MAX_WORKERS) || availableParallelism() + 1;

// A TEST_DATABASE_URL whose database every test file would drop stops the run here, before
// Vitest looks for files, in one line (from the global setup, Vitest printed "No test files
// found" first).
const testUrl = process.env.TEST_DATABASE_URL;
const onMysql = /^(mysql|mariadb):/.test(testUrl ?? '');
if (testUrl && !testUrl.startsWith('sqlite:')) {
  const name = decodeURIComponent(new URL(testUrl).pathname.replace(/^\//, ''));
  if (!/test/i.test(name)) {
    console.error(
      `TEST_DATABASE_URL must name a database whose name contains "test" (it is dropped and recreated for every test file), got "${name}"`,
    );
    process.exit(1);
  }
}

/**
 * The files that take longest start first, so that none of them starts last and keeps one worker
 * busy while the others idle. Vitest orders by the durations of the last run when it has them
 * (node_modules/.vite); a fresh clone has none, and then orders by file size: the matrix files
 * are short (their table is a helper) and the browser files middling, so they would come last.
 * By the durations of the gate's suites on 2026-11-30 (SQLite's first: the console's files and
 * the bench's smoke run only there), browser files and files that start servers alternating so
 * that the first three do not all drive Chromium at once. The webhooks' processes come after the
 * first wave: their deliveries run at nice 10 (CONTRACT §8), and beside the bench's smoke run and
 * two browsers in each of two suites at once they took minutes.
 */
const LONG_FIRST = [
  'test/ops/bench.e2e-spec.ts',
  'test/auth/console-screens.e2e-spec.ts',
  'test/ops/cache-rule.e2e-spec.ts',
  'test/auth/console-editor.e2e-spec.ts',
  'test/ops/tracing.e2e-spec.ts',
  'test/webhooks/webhooks-processes.e2e-spec.ts',
  'test/auth/console-users.e2e-spec.ts',
  'test/ops/cli.e2e-spec.ts',
  'test/auth/console-browser.e2e-spec.ts',
  'test/ops/process.e2e-spec.ts',
  'test/ops/node-version.e2e-spec.ts',
  'test/ops/shared-throttle.e2e-spec.ts',
  'test/pages/calendar-browser.e2e-spec.ts',
  'test/ops/cluster.e2e-spec.ts',
  'test/import/import-hostile.e2e-spec.ts',
  'test/pages/pages-browser.e2e-spec.ts',
  'test/import/import-tec.e2e-spec.ts',
  'test/auth/authorization-matrix-',
  'test/ops/scale-out.e2e-spec.ts',
  'test/ops/response-cache.e2e-spec.ts',
  'test/fuzz.e2e-spec.ts',
  'test/import/import-tec-plugin.e2e-spec.ts',
  'test/ops/startup.e2e-spec.ts',
  'src/common/text/render-linear.spec.ts',
  // Long on MySQL/MariaDB only (they started in the last minute of that run).
  'test/ops/memory.e2e-spec.ts',
  'test/webhooks/webhooks.e2e-spec.ts',
  'test/ops/metrics.e2e-spec.ts',
  'test/terms/terms.e2e-spec.ts',
];
const rank = (file: TestSpecification) => {
  const i = LONG_FIRST.findIndex((name) => file.moduleId.includes(`/${name}`));
  return i < 0 ? LONG_FIRST.length : i;
};
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keeps Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  plugins: [
    swc.vite({
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
      },
      module: { type: 'es6' },
    }),
  ],
  test: {
    globals: true,
    // The unit specs (`*.spec.ts`) open no database (test/suite-split.spec.ts keeps it so):
    // run against MySQL/MariaDB they would test the same code the same way a second time, so
    // that run takes the end-to-end files (`*.e2e-spec.ts`) alone, and the SQLite run all.
    include: onMysql
      ? ['test/**/*.e2e-spec.ts']
      : ['src/**/*.spec.ts', 'test/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    environment: 'node',
    pool: 'forks',
    isolate: false,
    // One more worker than cores: the files that start the program as a separate process spend
    // much of their time waiting for it.
    maxWorkers: workers,
    // Bounds for a hang: above the deadline of a spawned program (test/helpers/spawn.ts), which
    // a loaded machine can approach, so a slow but healthy start is not reported as a failure.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    sequence: { sequencer: LongFirstSequencer },
    globalSetup: ['test/global-setup.mjs'],
    setupFiles: ['test/setup-file.ts'],
  },
});
