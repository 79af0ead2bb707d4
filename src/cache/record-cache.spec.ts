import { collecting, dependsOn } from './dependencies.js';
import { RecordCache } from './record-cache.js';
import { WriteVersion } from './write-version.js';

describe('RecordCache', () => {
  const versions = new WriteVersion();
  const rows = [1, 2, 3];
  // Record 3 is never shown (gone, or not readable).
  const builder = () => {
    const calls: number[][] = [];
    const build = (missing: number[]) => {
      calls.push(missing);
      return Promise.resolve(new Map(missing.filter((id) => id !== 3).map((id) => [id, { id }])));
    };
    return { calls, build };
  };

  it('builds the payloads of rows already read from those rows', async () => {
    const cache = new RecordCache({ recordCacheMb: 1 }, versions);
    const built: string[][] = [];
    const build = (missing: Array<{ id: number; title: string }>) => {
      built.push(missing.map((r) => r.title));
      return Promise.resolve(new Map(missing.map((r) => [r.id, { title: r.title }])));
    };
    const records = [
      { id: 7, title: 'seven' },
      { id: 8, title: 'eight' },
    ];
    expect(await cache.payloadsOf('venue', records, 'v', cache.version(), build)).toEqual([
      { title: 'seven' },
      { title: 'eight' },
    ]);
    expect(await cache.payloadsOf('venue', records, 'v', cache.version(), build)).toHaveLength(2);
    expect(built).toEqual([['seven', 'eight']]);
  });

  it('builds the missing payloads together and serves the kept ones to the next reader', async () => {
    const cache = new RecordCache({ recordCacheMb: 1 }, versions);
    const { calls, build } = builder();
    const readAt = cache.version();
    expect(await cache.payloads('event', rows, 'v', readAt, build)).toEqual([
      { id: 1 },
      { id: 2 },
      undefined,
    ]);
    const again = await cache.payloads('event', [rows[1], rows[0], rows[2]], 'v', readAt, build);
    expect(again).toEqual([{ id: 2 }, { id: 1 }, undefined]);
    // Only the payload that was not shown is built again.
    expect(calls).toEqual([[1, 2, 3], [3]]);
  });

  it('keeps readers apart by kind and variant', async () => {
    const cache = new RecordCache({ recordCacheMb: 1 }, versions);
    const { calls, build } = builder();
    await cache.payloads('event', rows.slice(0, 1), 'anonymous', cache.version(), build);
    await cache.payloads('event', rows.slice(0, 1), 'editor', cache.version(), build);
    await cache.payloads('venue', rows.slice(0, 1), 'anonymous', cache.version(), build);
    expect(calls).toEqual([[1], [1], [1]]);
  });

  it('drops every payload when a write is committed, and keeps none read before it', async () => {
    const cache = new RecordCache({ recordCacheMb: 1 }, versions);
    const { calls, build } = builder();
    const before = cache.version();
    await cache.payloads('event', rows.slice(0, 2), 'v', before, build);
    versions.bump('local');
    await cache.payloads('event', rows.slice(0, 2), 'v', before, build);
    // Built from rows read before the write: not kept under the new version.
    await cache.payloads('event', rows.slice(0, 2), 'v', cache.version(), build);
    await cache.payloads('event', rows.slice(0, 2), 'v', cache.version(), build);
    expect(calls).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
  });

  it('keeps nothing without a read version, and nothing at all when turned off', async () => {
    const unversioned = new RecordCache({ recordCacheMb: 1 }, versions);
    const off = new RecordCache({ recordCacheMb: 0 }, versions);
    for (const cache of [unversioned, off]) {
      const { calls, build } = builder();
      const readAt = cache === off ? cache.version() : undefined;
      await cache.payloads('event', rows.slice(0, 1), 'v', readAt, build);
      await cache.payloads('event', rows.slice(0, 1), 'v', readAt, build);
      expect(calls).toEqual([[1], [1]]);
    }
  });

  it('keeps what a batch looked at with each of its payloads, in one array for them all', async () => {
    const cache = new RecordCache({ recordCacheMb: 1 }, versions);
    const { calls, build } = builder();
    // The batch looks at a venue (as an event's payload embeds it).
    const looking = (missing: number[]) => {
      dependsOn(['venue:40']);
      return build(missing);
    };
    await cache.payloads('event', [1, 2], 'v', cache.version(), looking);
    // A hit says what the payload depends on: its record, and what its batch looked at.
    const [, seen] = await collecting(() => cache.payloads('event', [2], 'v', 0, looking));
    expect([...(seen ?? [])].sort()).toEqual(['event:2', 'venue:40']);
    // Another record's change leaves both; the venue's, both go.
    versions.bump('write', ['event:7']);
    await cache.payloads('event', [1, 2], 'v', cache.version(), looking);
    versions.bump('write', ['venue:40']);
    await cache.payloads('event', [1, 2], 'v', cache.version(), looking);
    // An own record's change: only that one.
    versions.bump('write', ['event:1']);
    await cache.payloads('event', [1, 2], 'v', cache.version(), looking);
    expect(calls).toEqual([[1, 2], [1, 2], [1]]);
  });

  describe('rows of single reads', () => {
    it('keeps a row frozen until the next write, and neither a missing one nor any when off', async () => {
      const cache = new RecordCache({ recordCacheMb: 1 }, versions);
      let loads = 0;
      const load = (found: boolean) => () => {
        loads++;
        return Promise.resolve(found ? { id: 5, title: 'five' } : null);
      };
      const row = await cache.row('event', '5', load(true));
      expect(row).toEqual({ id: 5, title: 'five' });
      expect(Object.isFrozen(row)).toBe(true);
      expect(await cache.row('event', '5', load(true))).toBe(row);
      expect(loads).toBe(1);
      expect(await cache.row('event', '6', load(false))).toBeNull();
      expect(await cache.row('event', '6', load(false))).toBeNull();
      expect(loads).toBe(3);
      versions.bump('write');
      expect(await cache.row('event', '5', load(true))).not.toBe(row);
      expect(loads).toBe(4);
      const off = new RecordCache({ recordCacheMb: 0 }, versions);
      await off.row('event', '5', load(true));
      await off.row('event', '5', load(true));
      expect(loads).toBe(6);
    });

    it('does not keep a row read while a write committed', async () => {
      const cache = new RecordCache({ recordCacheMb: 1 }, versions);
      let loads = 0;
      const racing = () => {
        loads++;
        versions.bump('write');
        return Promise.resolve({ id: 9 });
      };
      await cache.row('event', '9', racing);
      await cache.row('event', '9', () => {
        loads++;
        return Promise.resolve({ id: 9 });
      });
      expect(loads).toBe(2);
    });
  });
});
