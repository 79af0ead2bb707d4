import { join } from 'node:path';
// @ts-expect-error: a plain ES module of the bench scripts, without types
import { DEEP_TARGET, LIST_TARGET, missedTargets } from '../bench/targets.mjs';
import { ROOT, run } from './helpers/spawn.js';

/** `npm run bench`: its options, and the targets it flags (a full run takes minutes). */
const BENCH = join(ROOT, 'bench/run.mjs');

describe('npm run bench', () => {
  it('documents its options under --help, --port using two ports', async () => {
    const help = await run(BENCH, ['--help'], {});
    expect(help.code).toBe(0);
    for (const option of ['--scale', '--duration', '--connections', '--port', '--sqlite', '--out'])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toMatch(/--port P .*P\+1/);
    expect(help.stdout).toMatch(/--out FILE .*temporary file/);
  });

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
});
