import { relative } from 'node:path';
import { messagesFor } from './messages.js';

/**
 * The oldest Node.js the program runs on: package.json `engines` (TypeORM 1 requires 22.13).
 * `test/ops/node-version.e2e-spec.ts` keeps the two equal.
 */
export const OLDEST_NODE = '22.13';

/** Whether `version` (`process.versions.node`, `20.20.2`) is older than OLDEST_NODE. */
export function isOlderNode(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_NODE.split('.').map(Number);
  return major < oldestMajor || (major === oldestMajor && minor < oldestMinor);
}

/**
 * Imported first by every entry point (`dist/main.js`, `dist/cli/main.js`,
 * `dist/migrate.js`), so that it runs before any other module of the program is
 * evaluated: on an older Node the native SQLite module would load and crash the process
 * (a segmentation fault on opening a database under Node 20). Instead, one line on standard
 * error says which version is needed and how to get it, and the process exits 1. It imports
 * only the operator's message catalogues (plain files, nothing native).
 */
if (isOlderNode(process.versions.node)) {
  console.error(
    messagesFor(process.env).t('config.node_too_old', {
      oldest: OLDEST_NODE,
      current: process.version,
      node: process.execPath,
      program: relative(process.cwd(), process.argv[1] ?? '') || 'dist/main.js',
    }),
  );
  process.exit(1);
}
