// Jest runs in CommonJS mode: swc compiles the app *and* the ESM-only packages in node_modules.
// Jest's ESM mode cannot boot AppModule (nestjs-i18n require()s the ESM-only @nestjs/common).
const swcOptions = (sourceMaps) => ({
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
  module: { type: 'commonjs' },
  sourceMaps,
});

export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transformIgnorePatterns: [],
  testTimeout: 30000,
  // Files run in parallel workers; each has its own database (test/helpers/database.ts).
  maxWorkers: process.env.JEST_MAX_WORKERS || '100%',
  globalSetup: '<rootDir>/test/global-setup.mjs',
  setupFiles: ['<rootDir>/test/setup-file.ts'],
  transform: {
    // Packages: source maps in files of their own, read only for a stack trace. Inline (the
    // default) they made each compiled file about 3.5 times its size, and every test file's
    // worker reads, hashes and compiles all of them again.
    '/node_modules/.+\\.(c|m)?js$': ['@swc/jest', swcOptions(true)],
    '^.+\\.(t|j|mj)s$': ['@swc/jest', swcOptions('inline')],
  },
};
