import { collecting } from './dependencies.js';
import { VersionedCache } from './versioned-cache.js';
import { WriteVersion } from './write-version.js';

describe('VersionedCache', () => {
  it('keeps a value until a write is committed, and none read before the write', () => {
    const versions = new WriteVersion();
    const cache = new VersionedCache<string>(versions, 1_000, { max: 10 });
    const before = cache.version();
    cache.set('k', before, 'a');
    expect(cache.get('k')).toBe('a');
    versions.bump();
    expect(cache.get('k')).toBeUndefined();
    // Read before the write, stored after it: stale at once.
    cache.set('k', before, 'b');
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', cache.version(), 'c');
    expect(cache.get('k')).toBe('c');
  });

  it('keeps a tagged value through writes that change none of its tags', () => {
    const versions = new WriteVersion();
    const cache = new VersionedCache<string>(versions, 1_000, { max: 10 });
    cache.set('list', cache.version(), 'events', undefined, ['events', 'event:1']);
    cache.set('venue', cache.version(), 'v', undefined, ['venue:2']);
    versions.bump('write', ['event:3', 'events']);
    expect([cache.get('list'), cache.get('venue')]).toEqual([undefined, 'v']);
    // Read before a write that changed one of its tags: stale at once.
    const before = cache.version();
    versions.bump('write', ['venue:2']);
    cache.set('venue', before, 'v2', undefined, ['venue:2']);
    expect(cache.get('venue')).toBeUndefined();
    cache.set('venue', cache.version(), 'v3', undefined, ['venue:2']);
    // A bump without tags may have changed anything.
    versions.bump('local');
    expect(cache.get('venue')).toBeUndefined();
  });

  it("counts a hit's tags for the read that runs now", async () => {
    const versions = new WriteVersion();
    const cache = new VersionedCache<string>(versions, 1_000, { max: 10 });
    cache.set('a', cache.version(), 'a', undefined, ['event:1']);
    cache.set('b', cache.version(), 'b');
    const [, tags] = await collecting(async () => cache.get('a'));
    expect(tags).toEqual(['event:1']);
    const [, anything] = await collecting(async () => [cache.get('a'), cache.get('b')]);
    expect(anything).toBeUndefined();
  });

  it('forgets a value after its time to live', () => {
    const cache = new VersionedCache<string>(new WriteVersion(), 1_000, { max: 10 });
    cache.set('k', cache.version(), 'a', 5_000);
    expect(cache.get('k', 5_999)).toBe('a');
    expect(cache.get('k', 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('bounds the total size and leaves out a value larger than maxEntrySize', () => {
    const cache = new VersionedCache<string>(new WriteVersion(), 1_000, {
      maxSize: 10,
      maxEntrySize: 6,
      sizeOf: (value) => value.length,
    });
    cache.set('big', cache.version(), 'xxxxxxx');
    expect(cache.get('big')).toBeUndefined();
    cache.set('a', cache.version(), 'aaaaa');
    cache.set('b', cache.version(), 'bbbbb');
    cache.set('c', cache.version(), 'ccccc');
    // The least recently used went first.
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'bbbbb', 'ccccc']);
  });
  it('drops what can no longer be served on a later set: expired past its grace, or stale', () => {
    const versions = new WriteVersion();
    const cache = new VersionedCache<string>(versions, 1_000, { max: 10, graceMs: 500 });
    cache.set('old', cache.version(), 'a', 10_000, ['event:3']);
    cache.set('tagged', cache.version(), 'b', 10_000, ['event:1']);
    cache.set('other', cache.version(), 'c', 10_000, ['event:2']);
    versions.bump('write', ['event:1']);
    // Within its grace an expired entry is still there (lookup may serve it); the stale one goes.
    cache.set('new', cache.version(), 'd', 11_400);
    expect(cache.size).toBe(3);
    expect(cache.lookup('old', 11_400, 500)).toEqual({ value: 'a', expired: true });
    // Past it, on the next set at least a second after the last sweep: only the fresh one stays.
    cache.set('newer', cache.version(), 'e', 12_500);
    expect(cache.size).toBe(2);
    expect([cache.get('new', 12_300), cache.get('newer', 12_500)]).toEqual(['d', 'e']);
  });
});

describe('VersionedCache.stored', () => {
  it('answers what a lookup with keep left stored, expired or stale, until a set replaces it', () => {
    const versions = new WriteVersion();
    const cache = new VersionedCache<string>(versions, 1_000, { max: 10 });
    cache.set('k', cache.version(), 'a', 0);
    expect(cache.get('k', 2_000, true)).toBeUndefined();
    expect(cache.stored('k')).toBe('a');
    versions.bump();
    expect(cache.get('k', 500, true)).toBeUndefined();
    expect(cache.stored('k')).toBe('a');
    cache.set('k', cache.version(), 'b', 2_000);
    expect(cache.stored('k')).toBe('b');
    // Without keep, a value that can no longer be served is forgotten.
    expect(cache.get('k', 4_000)).toBeUndefined();
    expect(cache.stored('k')).toBeUndefined();
  });
});
