// Runs once before all test files (outside the test files' module graph, so plain ESM): a wrong
// TEST_DATABASE_URL fails here, once, instead of in every file; and the program is compiled
// (swc, no type-check, ~0.3 s) for the tests that spawn it.
import { compileFast } from '../scripts/compile-fast.mjs';

export default async function globalSetup() {
  const url = process.env.TEST_DATABASE_URL;
  if (url && !url.startsWith('sqlite:')) {
    const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
    if (!/test/i.test(name))
      throw new Error(
        `TEST_DATABASE_URL must name a database whose name contains "test" (it is dropped and recreated for every test file), got "${name}"`,
      );
  }
  await compileFast();
}
