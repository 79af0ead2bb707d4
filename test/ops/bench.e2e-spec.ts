import { join } from 'node:path';
import {
  COMPUTED_TARGETS,
  DEEP_TARGET,
  LIST_TARGET,
  missedComputedTargets,
  missedOverheadTargets,
  missedTargets,
  OVERHEAD_TARGET,
  targetReport,
} from '../../bench/targets.mjs';
import { isMysql } from '../helpers/database.js';
import { BUILD, freePortRun, PROCESS_DEADLINE_MS, ROOT, run } from '../helpers/spawn.js';

/** `npm run bench`: its options, and the targets it flags (a full run takes minutes). */
const BENCH = join(ROOT, 'bench/run.mjs');

describe('npm run bench', () => {
  it('documents its options under --help, --port using two ports', async () => {
    const help = await run(BENCH, ['--help'], {});
    expect(help.code).toBe(0);
    for (const option of ['--scale', '--duration', '--connections', '--port', '--sqlite', '--out'])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toMatch(/--port P .*P\+1/);
    // Every port it takes: the create floor's too.
    expect(help.stdout).toContain('P+4');
    expect(help.stdout).toContain('100,000\nevents on MySQL/MariaDB');
    expect(help.stdout).toMatch(/--out FILE .*temporary file/);
  });

  // The smoke run is on SQLite (`--sqlite`) whatever TEST_DATABASE_URL names: the SQLite suite
  // runs it; the MySQL/MariaDB suite would run the same thing again (half a minute).
  it.skipIf(isMysql())(
    'runs every scenario on SQLite without an error (--smoke)',
    async () => {
      // Three servers on three consecutive ports and the webhook creates' on the fourth, all
      // free, outside the ephemeral range that the other tests' servers take theirs from.
      const port = await freePortRun(4);
      const result = await run(
        BENCH,
        [
          '--sqlite',
          '--scale',
          '0.002',
          '--connections',
          '1',
          '--smoke',
          '--port',
          String(port),
        ].concat(['--build', BUILD]),
        {},
        // Besides the scenarios' three servers, the webhook creates and the cost of metrics and
        // tracing start servers of their own, one after the other; a loaded machine takes up to
        // a minute to start each.
        6 * PROCESS_DEADLINE_MS,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^database sqlite, scale 0\.002/);
      for (const scenario of [
        'events: default list',
        'event by slug',
        'tags list',
        'create',
        'events: 10 weekly series (1,040 occurrences), default list',
        'events: the same series shown once (series=once)',
      ])
        expect(result.stdout).toContain(`${scenario}:`);
      expect(result.stdout).toMatch(/creates with 3 subscriptions: \d+ req\/s/);
      // Metrics and tracing on and off are compared on three servers.
      expect(result.stdout).toMatch(/events: default list, served: off \d+ req\/s/);
      expect(result.stdout).toContain('| events: default list, served | metrics + tracing |');
      // Reads while a writer commits, and the first read after a change (bench/mixed.mjs).
      expect(result.stdout).toMatch(/\| events: default list, computed \| 5 \|/);
      expect(result.stdout).toContain(
        '| events: default list, first read after one of its events changed, served |',
      );
      expect(result.stdout).not.toContain('ERRORS:');
    },
    7 * PROCESS_DEADLINE_MS,
  );

  it.each([
    [['--prot', '4000'], 'unknown option "--prot"'],
    [['--port'], '--port needs a value'],
    [['--scale', 'big'], '--scale needs a positive number'],
    [['fast'], 'unexpected argument "fast"'],
  ])('refuses %j before seeding anything', async (args, message) => {
    const result = await run(BENCH, args, {});
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(message);
    expect(result.stdout).toBe('');
  });

  describe('targets', () => {
    it('flag metrics (tracing off) that cost more than 3 % of the throughput', () => {
      expect(OVERHEAD_TARGET).toBe(0.03);
      const rows = (metrics: number) => [
        { variant: 'off', ratio: 1 },
        { variant: 'metrics', ratio: metrics },
        // Tracing has no target: its cost is reported.
        { variant: 'metrics + tracing', ratio: 0.5 },
      ];
      expect(missedOverheadTargets({ results: { list: rows(0.98), byId: rows(1.01) } })).toEqual(
        [],
      );
      expect(missedOverheadTargets({ results: { list: rows(0.96), byId: rows(0.975) } })).toEqual([
        'list with METRICS_PORT set at 96.0 % of the throughput without (target ≥ 97 %)',
      ]);
    });

    const row = (rps: number, p99: number, uncached?: { p99: number }) => ({ rps, p99, uncached });
    const run1 = {
      ceiling: 1000,
      list: row(600, 5),
      page1: row(900, 10, { p99: 20 }),
      deep: row(900, 12, { p99: 25 }),
    };

    it('are all met by a good run', () => {
      expect(LIST_TARGET).toBe(0.5);
      expect(DEEP_TARGET).toBe(1.5);
      expect(missedTargets(run1)).toEqual([]);
    });

    it('flag a slow default list and slow deep pages, served or computed', () => {
      expect(
        missedTargets({
          ...run1,
          list: row(400, 5),
          deep: row(900, 16, { p99: 31 }),
        }),
      ).toEqual([
        'default list served at 0.40 of the ceiling (target ≥ 0.50)',
        'deep page p99 served at 1.60× page 1 (target ≤ 1.5×)',
        'deep page p99 computed at 1.55× page 1 (target ≤ 1.5×)',
      ]);
    });
  });

  describe('which run the targets apply to', () => {
    const missed = ['event create at 120 req/s (target ≥ 600)'];

    it('fail the reference run, 100,000 events on MySQL/MariaDB, with each one missed', () => {
      expect(targetReport({ scale: 1, sqlite: false, missed })).toEqual({
        lines: [
          'Targets (set for 100,000 events (--scale 1) on MySQL/MariaDB, this run): 1 missed.',
          'MISSED TARGET: event create at 120 req/s (target ≥ 600)',
        ],
        failed: true,
      });
      expect(targetReport({ scale: 1, sqlite: false, missed: [] }).failed).toBe(false);
    });

    it.each([
      [0.01, true, 'scale 0.01, SQLite'],
      [0.1, false, 'scale 0.1, MySQL/MariaDB'],
      [1, true, 'scale 1, SQLite'],
    ])('are reported, not failed, at scale %s (SQLite: %s)', (scale, sqlite, described) => {
      expect(targetReport({ scale, sqlite, missed })).toEqual({
        lines: [
          `Targets are set for 100,000 events (--scale 1) on MySQL/MariaDB; this run (${described}) checks none of them, and would miss 1 there:`,
          'not applied at this scale: event create at 120 req/s (target ≥ 600)',
        ],
        failed: false,
      });
    });
  });

  describe('computed-path targets', () => {
    const good = {
      ceiling: 1000,
      rows: [
        { name: 'events: default list', target: 'list', computed: { rps: 500, p99: 20 } },
        { name: 'event by id', target: 'record', computed: { rps: 700, p99: 30 } },
        { name: 'events: geofenced list (25 mi)', computed: { rps: 10, p99: 900 } },
      ],
      create: { rps: 600, p99: 50 },
      rssMb: 250,
    };

    it('are all met by a good run, scenarios without a target aside', () => {
      expect(COMPUTED_TARGETS).toEqual({
        list: { ratio: 0.5, p99: 20 },
        record: { ratio: 0.7 },
        create: { rps: 600, p99: 50 },
        rssMb: 250,
      });
      expect(missedComputedTargets(good)).toEqual([]);
    });

    it('flag each missed ratio, p99, create figure and the memory', () => {
      expect(
        missedComputedTargets({
          ...good,
          rows: [
            { name: 'events: default list', target: 'list', computed: { rps: 480, p99: 21 } },
            { name: 'event by id', target: 'record', computed: { rps: 650, p99: 5 } },
          ],
          create: { rps: 120, p99: 180 },
          rssMb: 251,
        }),
      ).toEqual([
        'events: default list computed at 0.48 of the ceiling (target ≥ 0.50)',
        'events: default list computed with p99 21 ms (target ≤ 20 ms)',
        'event by id computed at 0.65 of the ceiling (target ≥ 0.70)',
        'event create at 120 req/s (target ≥ 600)',
        'event create with p99 180 ms (target ≤ 50 ms)',
        'worker RSS peaked at 251 MB (target ≤ 250 MB)',
      ]);
    });
  });
});
