// Runs once before all test files (outside the test files' module graph, so plain ESM): the
// program is compiled (swc, no type-check, ~0.3 s) for the tests that spawn it. (A wrong
// TEST_DATABASE_URL stops the run earlier, in vitest.config.ts.)
import { compileFast } from '../scripts/compile-fast.mjs';

export default async function globalSetup() {
  await compileFast();
}
