import { availableParallelism } from 'node:os';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// The files of a worker share one module graph (isolate: false): the app's modules (Nest,
// TypeORM, ...) load once per worker, not once per file, which was two thirds of the suite's CPU
// time. Every file still builds its own app on its own database (test/helpers/create-test-app.ts),
// so no state is carried from one file to the next. swc compiles the TypeScript with the
// decorator metadata that Nest's dependency injection reads.
const workers = Number(process.env.TEST_MAX_WORKERS) || availableParallelism() + 1;

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
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    environment: 'node',
    pool: 'forks',
    isolate: false,
    // One more worker than cores: the files that start the program as a separate process spend
    // much of their time waiting for it.
    maxWorkers: workers,
    testTimeout: 30000,
    hookTimeout: 30000,
    globalSetup: ['test/global-setup.mjs'],
    setupFiles: ['test/setup-file.ts'],
  },
});
