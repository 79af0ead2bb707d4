import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SEMI_SPACE_MB } from '../../src/common/heap.js';
import {
  assertBuilt,
  CLI,
  freePort,
  PROCESS_DEADLINE_MS,
  run,
  startServer,
  stop,
  tempSqliteUrl,
} from '../helpers/spawn.js';
import { createMemoryEvents, memoryReadPaths, readMemoryPaths } from '../../bench/memory-load.mjs';

/** A worker's resident memory through the load below, caches at their defaults (issue 53). */
/**
 * What docs/operations.md plans per server process. Issue 53's target, 250 MB, is not met
 * reliably yet: this load peaked at 241-251 MB at the gate (251 on a loaded run), the issue's
 * full scenario at 288 MB; the bound is the plan the documents promise, not the target.
 */
const BOUND_MB = 300;
/** The load: events created through the API, then anonymous reads of every kind. */
const EVENTS = 200;
const READS = 2_000;
const READERS = 12;

/** The resident memory of a process, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * The built server as an operator starts it (`node dist/main.js`, caches at their defaults, the
 * embedded database), under a fixed mixed load: creates with venues and terms, then list pages
 * and filters, single events, public pages and the iCalendar feed. Its resident memory is read
 * every 20 ms throughout and must stay within the bound docs/operations.md plans per worker.
 */
describe('resident memory under a mixed load (e2e)', () => {
  let child: ChildProcess | undefined;
  beforeAll(assertBuilt);
  afterAll(() => stop(child));

  it(
    `stays within ${BOUND_MB} MB, with the young generation the server sets itself`,
    async () => {
      const port = await freePort();
      const url = tempSqliteUrl();
      const origin = `http://127.0.0.1:${port}`;
      ({ child } = await startServer({
        DATABASE_URL: url,
        PORT: String(port),
        HOST: '127.0.0.1',
        SITE_URL: origin,
        LOG_REQUESTS: 'false',
      }));
      const pid = child.pid!;
      // Started without V8 flags, the server runs with its own (src/common/heap.ts).
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
      let peak = rssMb(pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
      try {
        const made = await run(CLI, ['user:create', 'memory-editor', '--role', 'editor'], {
          DATABASE_URL: url,
        });
        expect(made.code).toBe(0);
        const password = made.stdout.trim().split('\n').pop()!;
        const auth = `Basic ${Buffer.from(`memory-editor:${password}`).toString('base64')}`;

        const slugs = await createMemoryEvents(origin, auth, EVENTS);
        const paths = memoryReadPaths(slugs, { pages: 10, records: 100 });
        let sent = 0;
        await readMemoryPaths(origin, READERS, () =>
          sent < READS ? paths[sent++ % paths.length] : undefined,
        );
      } finally {
        clearInterval(sampler);
      }
      // The figure docs/operations.md quotes: worth seeing when the bound holds too.
      console.info(
        `memory test: peak resident memory ${Math.round(peak)} MB (bound ${BOUND_MB} MB)`,
      );
      expect(Math.round(peak)).toBeLessThanOrEqual(BOUND_MB);
    },
    4 * PROCESS_DEADLINE_MS,
  );
});
