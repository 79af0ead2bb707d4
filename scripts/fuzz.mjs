#!/usr/bin/env node
// Runs the property-based fuzz tests (test/fuzz.e2e-spec.ts, and test/import/fuzz-importers.spec.ts for
// the importers' parsers) with more generated inputs than `npm test` does:
//
//   npm run fuzz                          (2000 requests)
//   npm run fuzz -- --runs 10000          (more)
//   npm run fuzz -- --runs 500 --seed 42  (replays the run a summary printed with seed 42)
//
//   npm run fuzz -- --verbose            (lists every failing request, not three of each kind)
//
// Every run first sweeps each date and text field, list field and inline list once with long or
// wide input, then sends the generated requests; no request may take over 200 ms of server CPU,
// nor may the importers take more to read one generated page or iCalendar file.
// Any other argument goes to Vitest. TEST_DATABASE_URL picks MariaDB/MySQL as for the e2e tests.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '2000' };
const vitestArgs = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--verbose') {
    env.FUZZ_VERBOSE = '1';
    continue;
  }
  const [flag, inline] = args[i].split(/=(.*)/s);
  const option = { '--runs': 'FUZZ_RUNS', '--seed': 'FUZZ_SEED' }[flag];
  if (!option) {
    vitestArgs.push(args[i]);
    continue;
  }
  const value = inline ?? args[++i];
  if (!/^\d+$/.test(value ?? '')) {
    console.error(`${flag} needs a positive whole number, got ${value ?? 'nothing'}`);
    process.exit(2);
  }
  env[option] = value;
}

const vitest = join(root, 'node_modules', '.bin', 'vitest');
const child = spawn(
  vitest,
  ['run', 'test/fuzz.e2e-spec.ts', 'test/import/fuzz-importers.spec.ts', ...vitestArgs],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
