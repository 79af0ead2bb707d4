import { TotalsCache } from './totals-cache.js';
import { WriteVersion } from './write-version.js';

describe('TotalsCache', () => {
  const versions = new WriteVersion();
  /** Runs `fn` with the clock `ms` ahead of now (`moveTo` moves it again), then restores it. */
  async function ahead(ms: number, fn: (moveTo: (ms: number) => void) => Promise<void>) {
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + ms);
    try {
      await fn((later) => clock.mockReturnValue(now + later));
    } finally {
      clock.mockRestore();
    }
  }

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

  it('after its time to live, answers the last total at once and counts it again behind', async () => {
    const cache = new TotalsCache(versions, 1_000);
    await cache.get('k', async () => 1);
    let release!: (n: number) => void;
    const count = vi.fn(() => new Promise<number>((resolve) => (release = resolve)));
    await ahead(1_001, async () => {
      // The last total, while one count runs (a second expired read does not start another).
      expect(await cache.get('k', count)).toBe(1);
      expect(await cache.get('k', count)).toBe(1);
      expect(count).toHaveBeenCalledTimes(1);
      release(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await cache.get('k', count)).toBe(2);
      expect(count).toHaveBeenCalledTimes(1);
    });
  });

  it('counts before answering once a total is two times to live old, or after a write', async () => {
    const cache = new TotalsCache(versions, 1_000);
    let total = 1;
    const count = vi.fn(async () => total);
    await cache.get('k', count);
    total = 2;
    await ahead(2_001, async () => {
      expect(await cache.get('k', count)).toBe(2);
    });
    total = 3;
    versions.bump();
    expect(await cache.get('k', count)).toBe(3);
    expect(count).toHaveBeenCalledTimes(3);
  });

  it('keeps answering the last total when counting it again fails, until it is too old', async () => {
    const cache = new TotalsCache(versions, 1_000);
    await cache.get('k', async () => 5);
    const failing = () => Promise.reject(new Error('down'));
    await ahead(1_500, async (moveTo) => {
      expect(await cache.get('k', failing)).toBe(5);
      await new Promise((resolve) => setImmediate(resolve));
      moveTo(2_001);
      await expect(cache.get('k', failing)).rejects.toThrow('down');
    });
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
