import {
  collecting,
  dependsOn,
  overlaps,
  parseWindow,
  touch,
  touching,
  windowTag,
  writeTags,
} from './dependencies.js';
import { WriteVersion } from './write-version.js';

describe('dependencies', () => {
  it('names what a write may have altered: its records, their lists and groups, what it touched', () => {
    const touched = new Set(['term:9', 'term-counts']);
    expect(new Set(writeTags([{ kind: 'event', id: 4, action: 'updated' }], touched))).toEqual(
      new Set(['event:4', 'events', 'events@|||', 'group:events', 'term:9', 'term-counts']),
    );
    // A trashed venue leaves the events that used it; a renamed one does not.
    expect(writeTags([{ kind: 'venue', id: 2, action: 'trashed' }], new Set())).toContain('events');
    expect(writeTags([{ kind: 'venue', id: 2, action: 'updated' }], new Set())).not.toContain(
      'events',
    );
    // Categories and tags share the terms' ids, and show in what embeds them.
    expect(writeTags([{ kind: 'tag', id: 7, action: 'updated' }], new Set())).toEqual(
      expect.arrayContaining(['term:7', 'terms', 'term-shape', 'term-counts']),
    );
  });

  it('names the translation group of a record it was given, every group of the kind otherwise', () => {
    const tags = (group?: number | null) =>
      writeTags([{ kind: 'event', id: 4, action: 'updated', group }], new Set()) ?? [];
    expect(tags(7)).toContain('group:events:7');
    expect(tags(7)).not.toContain('group:events');
    expect(tags(null).filter((t) => t.startsWith('group:'))).toEqual([]);
    expect(tags(undefined)).toContain('group:events');
    expect(
      writeTags([{ kind: 'category', id: 2, action: 'updated', group: 3 }], new Set()),
    ).toContain('group:terms:3');
  });

  it("drops what shows term counts when an event's status moved", () => {
    const change = [{ kind: 'event', id: 4, action: 'updated' }];
    expect(writeTags(change, new Set(), true)).toEqual(
      expect.arrayContaining(['term-shape', 'term-counts']),
    );
    expect(writeTags(change, new Set())).not.toContain('term-shape');
  });

  it('says "anything" for a write that names nothing, or touched anything', () => {
    expect(writeTags([], new Set())).toBeUndefined();
    expect(
      writeTags([{ kind: 'event', id: 1, action: 'created' }], new Set(['*'])),
    ).toBeUndefined();
  });

  it('collects what a read depends on, nested reads adding theirs to the outer one', async () => {
    const [inner, outer] = await collecting(async () => {
      dependsOn(['events']);
      const [, nested] = await collecting(async () => {
        await Promise.resolve();
        dependsOn(['venue:3']);
      });
      return nested;
    });
    expect(inner).toEqual(['venue:3']);
    expect(new Set(outer)).toEqual(new Set(['events', 'venue:3']));
    const [, anything] = await collecting(async () => dependsOn(undefined));
    expect(anything).toBeUndefined();
  });

  it('collects what a write touches, and nothing outside one', async () => {
    touch('term:1');
    const into = new Set<string>();
    await touching(into, async () => {
      await Promise.resolve();
      touch('term:2', 'term-counts');
    });
    expect(into).toEqual(new Set(['term:2', 'term-counts']));
  });

  it('drops an events list only for a write of an event listed in its window, before or after', () => {
    const versions = new WriteVersion();
    const q1 = [
      windowTag('events', { startFrom: '2030-01-01 00:00:00', endTo: '2030-03-31 23:59:59' }),
    ];
    const search = [...q1, windowTag('events-text', parseWindow(q1[0])!.window)];
    const write = (dates: Array<[string, string]>, moved: 'all' | 'text' | 'none') =>
      versions.bump(
        'write',
        writeTags(
          [{ kind: 'event', id: 1, action: 'updated', listed: { dates, moved } }],
          new Set(),
        ),
      );
    const read = versions.current();
    write([['2030-05-01 10:00:00', '2030-05-01 12:00:00']], 'all');
    expect(versions.fresh(read, q1)).toBe(true);
    // Its text only: searches of the window go, the rest stays.
    write([['2030-02-01 10:00:00', '2030-02-01 12:00:00']], 'text');
    expect(versions.fresh(read, q1)).toBe(true);
    expect(versions.fresh(read, search)).toBe(false);
    // Moved into the window from outside it.
    write(
      [
        ['2030-05-01 10:00:00', '2030-05-01 12:00:00'],
        ['2030-03-01 10:00:00', '2030-03-01 12:00:00'],
      ],
      'all',
    );
    expect(versions.fresh(read, q1)).toBe(false);
    // An event that cannot say where it is listed moves every list.
    const later = versions.current();
    versions.bump('write', writeTags([{ kind: 'event', id: 2, action: 'deleted' }], new Set()));
    expect(versions.fresh(later, q1)).toBe(false);
  });

  it('tells overlapping windows, open bounds meeting everything', () => {
    expect(
      overlaps({ startFrom: 'b', startTo: 'b', endFrom: 'c', endTo: 'c' }, { startFrom: 'a' }),
    ).toBe(true);
    expect(
      overlaps({ startFrom: 'b', startTo: 'b', endFrom: 'c', endTo: 'c' }, { endTo: 'b' }),
    ).toBe(false);
    expect(overlaps({}, { startFrom: 'z', endTo: 'a' })).toBe(true);
    // Spaces and commas never reach a tag (tags travel comma-separated, in one line).
    expect(windowTag('events', { startFrom: '2030-01-01 00:00:00' })).not.toMatch(/[ ,]/);
    expect(parseWindow(windowTag('events', { endTo: '2030-01-01 00:00:00' }))).toEqual({
      name: 'events',
      window: { endTo: '2030-01-01 00:00:00' },
    });
  });
});
