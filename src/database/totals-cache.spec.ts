import { TotalsCache } from './totals-cache.js';
import { WriteVersion } from './write-version.js';

describe('TotalsCache', () => {
  const versions = new WriteVersion();
  it('counts once, then answers from the cache until the next write', async () => {
    const cache = new TotalsCache(versions);
    const count = vi.fn(async () => 42);
    expect(await cache.get('k', count)).toBe(42);
    expect(await cache.get('k', count)).toBe(42);
    expect(count).toHaveBeenCalledTimes(1);
    versions.bump();
    expect(await cache.get('k', count)).toBe(42);
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('forgets a total after its time to live', async () => {
    const cache = new TotalsCache(versions, 1_000);
    const count = vi.fn(async () => 1);
    await cache.get('k', count);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 1_001);
    try {
      await cache.get('k', count);
    } finally {
      clock.mockRestore();
    }
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('lets concurrent misses of one key share one count, but not across a write', async () => {
    const cache = new TotalsCache(versions);
    let release!: (n: number) => void;
    const count = vi.fn(() => new Promise<number>((resolve) => (release = resolve)));
    const first = cache.get('k', count);
    const second = cache.get('k', count);
    expect(count).toHaveBeenCalledTimes(1);
    versions.bump();
    const afterWrite = cache.get('k', async () => 8);
    release(7);
    expect(await first).toBe(7);
    expect(await second).toBe(7);
    // The count that started before the write is not reused for a read after it.
    expect(await afterWrite).toBe(8);
  });

  it('counts only the missing keys of a batch, and leaves out keys without a total', async () => {
    const cache = new TotalsCache(versions);
    await cache.get('a', async () => 1);
    const countMany = vi.fn(
      async (keys: string[]) => new Map(keys.filter((k) => k !== 'x').map((k) => [k, 2])),
    );
    const totals = await cache.getMany(['a', 'b', 'x', 'b'], countMany);
    expect(countMany).toHaveBeenCalledWith(['b', 'x']);
    expect([...totals]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('passes a failed count on to every waiting caller', async () => {
    const cache = new TotalsCache(versions);
    const failing = () => Promise.reject(new Error('down'));
    await expect(Promise.all([cache.get('k', failing), cache.get('k', failing)])).rejects.toThrow(
      'down',
    );
    expect(await cache.get('k', async () => 3)).toBe(3);
  });
});
