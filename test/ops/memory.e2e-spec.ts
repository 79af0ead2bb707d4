import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MALLOC_ARENAS, SEMI_SPACE_MB } from '../../src/common/heap.js';
import { isMysql, resetMigratedDatabase } from '../helpers/database.js';
import {
  assertBuilt,
  freePort,
  PROCESS_DEADLINE_MS,
  sharedDatabaseUrl,
  startServer,
  stop,
} from '../helpers/spawn.js';
import { createMemoryEvents, memoryReadPaths, readMemoryPaths } from '../../bench/memory-load.mjs';

/**
 * A worker's resident memory through the load below, caches at their defaults (issue 53's
 * target: 250 MB). With 16 MB semi-spaces this load peaked at 225-248 MB (SQLite and MariaDB,
 * machine load 10-29); with the 8 MB the server sets now, at 212-224 MB on SQLite and 232-234 MB
 * on MariaDB with the machine loaded to 16-30 (docs/operations.md, "Memory"), so the target is
 * the bound: 16 MB above the highest peak seen, room for a loaded machine's slower collections.
 */
const BOUND_MB = 250;
/** The load: events created through the API, then anonymous reads of every kind. */
const EVENTS = 200;
const READS = 2_000;
const READERS = 12;
/** The administrator's password (ADMIN_PASSWORD). */
const PASSWORD = 'memory-test-password-53';

/** The resident memory of a process, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * The built server as an operator starts it (`node dist/main.js`, caches at their defaults, on
 * TEST_DATABASE_URL or the embedded database), under a fixed mixed load: creates with venues and
 * terms, then list pages and filters, single events, public pages and the iCalendar feed. Its
 * resident memory is read every 20 ms throughout and must stay within BOUND_MB.
 */
describe('resident memory under a mixed load (e2e)', () => {
  let child: ChildProcess | undefined;
  beforeAll(assertBuilt);
  afterAll(() => stop(child));

  it(
    `stays within ${BOUND_MB} MB, with the young generation the server sets itself`,
    async () => {
      const port = await freePort();
      // On TEST_DATABASE_URL (MySQL/MariaDB) when given, migrated already (the server's own run of
      // every migration took most of a minute there on a loaded machine), else on a new
      // embedded database that the server migrates.
      const started = Date.now();
      if (isMysql()) await resetMigratedDatabase();
      const url = sharedDatabaseUrl();
      const origin = `http://127.0.0.1:${port}`;
      ({ child } = await startServer({
        DATABASE_URL: url,
        PORT: String(port),
        HOST: '127.0.0.1',
        SITE_URL: origin,
        LOG_REQUESTS: 'false',
        // As users start it: the modules compiled as they load, not taken from the tests' cache.
        NODE_DISABLE_COMPILE_CACHE: '1',
        // The writer: created by the server as it starts, not by a second process (the CLI's
        // start took a good part of this test's time on a loaded machine). Administrators and
        // editors write alike (both post unfiltered HTML).
        ADMIN_LOGIN: 'memory-admin',
        ADMIN_PASSWORD: PASSWORD,
      }));
      const pid = child.pid!;
      // Started without V8 flags, the server runs with its own (src/common/heap.ts).
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
      expect(cmdline).toContain('--no-sparkplug');
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain(`MALLOC_ARENA_MAX=${MALLOC_ARENAS}`);
      const listening = Date.now();
      let peak = rssMb(pid);
      let created = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
      try {
        const auth = `Basic ${Buffer.from(`memory-admin:${PASSWORD}`).toString('base64')}`;
        const slugs = await createMemoryEvents(origin, auth, EVENTS);
        created = Date.now();
        const paths = memoryReadPaths(slugs, { pages: 10, records: 100 });
        let sent = 0;
        await readMemoryPaths(origin, READERS, () =>
          sent < READS ? paths[sent++ % paths.length] : undefined,
        );
      } finally {
        clearInterval(sampler);
      }
      // The figure docs/operations.md quotes: worth seeing when the bound holds too.
      const s = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
      console.info(
        `memory test: peak resident memory ${Math.round(peak)} MB (bound ${BOUND_MB} MB); ` +
          `start ${s(started, listening)}, creates ${s(listening, created)}, ` +
          `reads ${s(created, Date.now())}`,
      );
      expect(Math.round(peak)).toBeLessThanOrEqual(BOUND_MB);
    },
    4 * PROCESS_DEADLINE_MS,
  );
});
